import { describe, expect, it } from 'vitest';
import { routeChunkOf } from './route-chunks';

const WEB = '/repo/apps/web/src';
const MAIN = `${WEB}/main.tsx`;
const BOOT = `${WEB}/app/boot.tsx`;
const FIRST_CALLS = `${WEB}/app/first-calls.ts`;
const ROUTER = `${WEB}/app/router.tsx`;
const LOADING_PRELOAD = `${WEB}/app/loading-preload.ts`;
const SESSION_PAGES = `${WEB}/features/session/components/session-pages.tsx`;
const SHELL = `${WEB}/app/shell/app-shell.tsx`;
const DEVICE_LIST = `${WEB}/app/device-table-route.tsx`;
const PREPARE_TABLE = `${WEB}/features/device-table/model/prepare-table.ts`;
const ALARMS = `${WEB}/features/alarms/components/alarms-page.tsx`;
const SIGNIN = `${WEB}/features/session/components/signin-page.tsx`;

type Node = { importers?: string[]; dynamicImporters?: string[]; isEntry?: boolean };

/** A console in miniature: the entry, the console's start it imports, the steps of the signed-in path, a signed-in page, the sign-in page. */
const GRAPH: Record<string, Node> = {
  [MAIN]: { isEntry: true },
  [FIRST_CALLS]: { importers: [MAIN] },
  [`${WEB}/lib/stored-token.ts`]: { importers: [FIRST_CALLS, `${WEB}/lib/session-token.ts`] },
  [`${WEB}/lib/session-token.ts`]: { importers: [BOOT] },
  [BOOT]: { dynamicImporters: [MAIN] },
  [ROUTER]: { importers: [BOOT] },
  [LOADING_PRELOAD]: { importers: [BOOT] },
  [SESSION_PAGES]: { dynamicImporters: [ROUTER] },
  [SHELL]: { dynamicImporters: [ROUTER, LOADING_PRELOAD] },
  [DEVICE_LIST]: { dynamicImporters: [ROUTER] },
  [PREPARE_TABLE]: { importers: [DEVICE_LIST], dynamicImporters: [LOADING_PRELOAD] },
  [ALARMS]: { dynamicImporters: [ROUTER] },
  [SIGNIN]: { dynamicImporters: [ROUTER] },
  [`${WEB}/lib/query-client.ts`]: { importers: [BOOT, SHELL] },
  [`${WEB}/features/session/model/user-rules.ts`]: { importers: [SESSION_PAGES, SHELL] },
  [`${WEB}/app/shell/user-menu.tsx`]: { importers: [SHELL] },
  [`${WEB}/features/alarms/api/get-alarms.ts`]: { importers: [SHELL, ALARMS] },
  [`${WEB}/features/device-table/components/virtual-table.tsx`]: { importers: [DEVICE_LIST] },
  [`${WEB}/features/device-table/model/table-view.ts`]: { importers: [PREPARE_TABLE] },
  [`${WEB}/components/ui/page-header.tsx`]: { importers: [DEVICE_LIST, ALARMS] },
  ['/repo/packages/domain/src/csv.ts']: { importers: [DEVICE_LIST, ALARMS] },
  [`${WEB}/components/ui/text-field.tsx`]: { importers: [DEVICE_LIST, SIGNIN] },
  [`${WEB}/components/ui/dialog.tsx`]: { importers: [`${WEB}/components/ui/text-field.tsx`] },
  [`${WEB}/features/alarms/components/alarm-row.tsx`]: { importers: [ALARMS] },
};

const getModuleInfo = (id: string) => {
  const node = GRAPH[id];
  return node
    ? { importers: node.importers ?? [], dynamicImporters: node.dynamicImporters ?? [], isEntry: !!node.isEntry }
    : null;
};

describe('routeChunkOf', () => {
  it.each([
    ['the entry uses it', FIRST_CALLS, null],
    ['the entry and the console use it', `${WEB}/lib/stored-token.ts`, null],
    ["the console's start", BOOT, 'boot'],
    ['the console and the shell use it', `${WEB}/lib/query-client.ts`, 'boot'],
    ["the console's own", ROUTER, 'boot'],
    ['reached only through the console', `${WEB}/lib/session-token.ts`, 'boot'],
    ["/loading's page", SESSION_PAGES, 'loading'],
    ['/loading and the shell use it', `${WEB}/features/session/model/user-rules.ts`, 'loading'],
    ['the shell', SHELL, 'shell'],
    ["the shell's own", `${WEB}/app/shell/user-menu.tsx`, 'shell'],
    ['the shell and a signed-in page use it', `${WEB}/features/alarms/api/get-alarms.ts`, 'shell'],
    ["the device list's page", DEVICE_LIST, 'device-list'],
    ['its first order, loaded early too', PREPARE_TABLE, 'device-list'],
    ["the device list's own", `${WEB}/features/device-table/components/virtual-table.tsx`, 'device-list'],
    ['reached through its first order', `${WEB}/features/device-table/model/table-view.ts`, 'device-list'],
    ['the kit, shared with a signed-in page', `${WEB}/components/ui/page-header.tsx`, 'shell'],
    ['feature code shared with a signed-in page', '/repo/packages/domain/src/csv.ts', null],
    ['shared with the sign-in page', `${WEB}/components/ui/text-field.tsx`, 'common'],
    ['reached through a module shared with the sign-in page', `${WEB}/components/ui/dialog.tsx`, 'common'],
    ['off the path', `${WEB}/features/alarms/components/alarm-row.tsx`, null],
    ['the sign-in page itself', SIGNIN, null],
    ['a module the graph does not know', `${WEB}/missing.ts`, null],
  ])('%s: %s goes in %s', (_case, moduleId, chunk) => {
    expect(routeChunkOf(moduleId, getModuleInfo)).toBe(chunk);
  });
});
