// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Account, GroupNode } from '@fieldlink/api/account';
import type { Scene } from '@fieldlink/api/scenes';
import type { Permission } from '@fieldlink/domain/permissions';
import { indexDevices } from '../model/resolve-channels';
import { GroupScenes } from './group-scenes';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const boilers = {
  id: 'group-boilers',
  name: 'Boilers',
  accountId: 'account-1',
  appType: 'default',
  kind: 'root',
  relativePath: './group-boilers',
  expanded: false,
  groups: [],
  devices: [{ id: 'device-1', name: 'Boiler 1', thingName: 'THING-1', channels: [] }],
  deviceIds: ['device-1'],
  scenes: [],
  users: [],
  fullUsers: [],
} as unknown as GroupNode;
const tree = (kind: string) =>
  ({ id: 'account-1', name: 'Plant', appType: 'default', kind, rootGroup: boilers }) as unknown as Account;

const scene = (id: string, name: string, changes: Partial<Scene> = {}): Scene => ({
  id,
  name,
  type: 'grid',
  index: 0,
  accountId: 'account-1',
  path: `./group-boilers/${id}`,
  groupId: 'group-boilers',
  isGridLocked: false,
  widgets: [],
  gridLayout: {},
  appType: 'default',
  readOnly: false,
  ...changes,
});

const EDITOR: Permission[] = ['VIEW_DASH', 'ADD_EDIT_DELETE_SCENES', 'ADD_EDIT_DELETE_WIDGETS'];
const VIEWER: Permission[] = ['VIEW_DASH'];

/** The calls that left for the server: method, path and body. */
let sent: { method: string; path: string; body: unknown }[] = [];
let scenes: Scene[] = [];

function Address() {
  return <output data-testid="address">{useLocation().pathname}</output>;
}

function renderScenes(permissions: Permission[], accountKind = 'customer', sceneId?: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const accounts = [tree(accountKind)];
  const context = { accounts, subject: { permissions }, email: 'ann@fieldlink.test', devices: indexDevices(accounts) };
  const start = `/dash/account-1/group-boilers${sceneId ? `/${sceneId}` : ''}`;
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[start]}>
        <Routes>
          <Route
            path="*"
            element={
              <>
                <GroupScenes context={context} tree={accounts[0]!} group={boilers} sceneId={sceneId} />
                <Address />
              </>
            }
          />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const answer = (body: unknown) =>
  Promise.resolve(new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } }));

beforeEach(() => {
  sent = [];
  scenes = [scene('scene-1', 'Overview')];
  vi.stubGlobal('fetch', (url: string, init: RequestInit) => {
    const { pathname } = new URL(String(url), 'http://fieldlink.test');
    const method = init.method ?? 'GET';
    if (method === 'GET') return answer(pathname === '/api/v1/scenes' ? scenes : {});
    const body: unknown = JSON.parse(String(init.body ?? 'null'));
    sent.push({ method, path: pathname, body });
    if (pathname === '/api/v1/scene' && method === 'POST') return answer(scene('scene-2', 'Pumps', { index: 1 }));
    return answer({});
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

// Issue 37 item 5: a group's scene page, as each kind of user sees and changes it.
describe('a group’s scenes', { timeout: 30_000 }, () => {
  it('offers someone who edits scenes and widgets the lock, Add widget and New scene; no read-only note', async () => {
    renderScenes(EDITOR);
    expect(await screen.findByRole('button', { name: 'Lock layout' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Add widget' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Add a widget' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'New scene' })).toBeTruthy();
    expect(screen.getByText(/Add widgets to watch live values/)).toBeTruthy();
    expect(screen.queryByTestId('scene-read-only')).toBeNull();
    // The first scene is named in the address.
    await waitFor(() => expect(screen.getByTestId('address').textContent).toMatch(/\/scene-1/));
  });

  it('shows a viewer the scene without changing controls and says why', async () => {
    scenes = [scene('scene-1', 'Overview', { isGridLocked: true })];
    renderScenes(VIEWER, 'customer', 'scene-1');
    expect(await screen.findByTestId('scene-locked')).toBeTruthy();
    expect(screen.getByTestId('scene-read-only').textContent).toContain(
      'Read-only: your permissions let you view dashboards; ask an administrator to change them.',
    );
    expect(screen.queryByRole('button', { name: /lock layout/i })).toBeNull();
    expect(screen.queryByRole('button', { name: /Add (a )?widget/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'New scene' })).toBeNull();
    expect(screen.getByText('No widgets have been added to this scene yet.')).toBeTruthy();
  });

  it('keeps a demo account’s scenes read-only even for an editor', async () => {
    renderScenes(EDITOR, 'demo', 'scene-1');
    expect((await screen.findByTestId('scene-read-only')).textContent).toContain(
      'Read-only: this is a demo account, so its dashboards cannot be changed.',
    );
    expect(screen.queryByRole('button', { name: 'Lock layout' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'New scene' })).toBeNull();
  });

  it('tells a viewer of a group without scenes that it has none, and an editor how to make one', async () => {
    scenes = [];
    renderScenes(VIEWER);
    expect(await screen.findByText('Boilers has no dashboards yet.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Create a scene' })).toBeNull();
    cleanup();
    renderScenes(EDITOR);
    expect(await screen.findByRole('button', { name: 'Create a scene' })).toBeTruthy();
  });

  it('sends the lock of the layout for the shown scene', async () => {
    renderScenes(EDITOR, 'customer', 'scene-1');
    fireEvent.click(await screen.findByRole('button', { name: 'Lock layout' }));
    await waitFor(() =>
      expect(sent).toEqual([
        {
          method: 'PUT',
          path: '/api/v1/scene',
          body: { accountId: 'account-1', path: 'group-boilers|scene:scene-1', props: { isGridLocked: true } },
        },
      ]),
    );
    // Shown at once, before the answer.
    expect(screen.getByRole('button', { name: 'Unlock layout' })).toBeTruthy();
  });

  it('sends a new scene with its name and opens it', async () => {
    scenes = [];
    renderScenes(EDITOR);
    fireEvent.click(await screen.findByRole('button', { name: 'Create a scene' }));
    fireEvent.change(screen.getByLabelText('Scene name'), { target: { value: ' Pumps ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create scene' }));
    await waitFor(() => expect(screen.getByTestId('address').textContent).toMatch(/\/scene-2/));
    expect(sent).toEqual([
      {
        method: 'POST',
        path: '/api/v1/scene',
        body: { scene: { name: 'Pumps', accountId: 'account-1', groupId: 'group-boilers', type: 'grid' } },
      },
    ]);
  });
});
