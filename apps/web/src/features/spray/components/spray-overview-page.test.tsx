// @vitest-environment happy-dom
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AccountAnswer, TreeDevice } from '@fieldlink/api/account';
import type { SelfAnswer } from '@fieldlink/api/session';
import { SPRAYER_CHANNELS, sprayScheduleRegisters } from '@fieldlink/domain/spray';
import { SIGNED_OUT_SESSION, setSession } from '../../../lib/app-store/app-store';
import { accountQuery } from '../../../lib/api/get-account';
import { selfQuery } from '../../../lib/api/get-self';
import { stopRealtime } from '../../../lib/realtime/realtime-connection';
import { AnsweringSocket, openRealtime, resetSentRequests } from '../../../lib/realtime/fixtures';
import { treeAccount, treeDevice, treeGroup } from '../../../lib/tree-fixtures';
import { SprayOverviewPage } from './spray-overview-page';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const SPRAYER_TREE_CHANNELS = Object.values(SPRAYER_CHANNELS).map((code) => ({ code }));
const sprayer = (id: string, name: string) => treeDevice(id, { name, channels: SPRAYER_TREE_CHANNELS });
const row1 = sprayer('dev-1', 'Sprayer Row 1');
const row2 = sprayer('dev-2', 'Sprayer Row 2');
const row10 = sprayer('dev-10', 'Sprayer Row 10');
// Sorts before the sprayers and is no sprayer: its record must not move them when it comes in.
const pump = treeDevice('dev-pump', { name: 'Pump house', channels: [{ code: 'c1' }, { code: 'do1' }] });
const ALL = [row10, row2, row1, pump];
/** The order of a filled overview: by name, numbers in numeric order. */
const FILLED = ['Sprayer Row 1', 'Sprayer Row 2', 'Sprayer Row 10'];

const T1 = sprayScheduleRegisters(0);
const record = (device: TreeDevice) => ({
  id: device.id,
  name: device.name,
  thingName: device.thingName,
  isConnected: true,
  status: { sp: 0 },
  timeDate: null,
  channels: [],
  registers: device === pump ? { '1': 0 } : { [T1.time]: 360, [T1.days]: 0 },
});

/** Each device record's answer, held until the test lets it come in (or fail). */
let answers: Map<string, { respond: () => void; fail: () => void }>;

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function renderOverview() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const self: SelfAnswer = {
    id: 'u1',
    email: 'spray@fieldlink.test',
    firstName: 'Sam',
    lastName: 'Sprayman',
    theme: null,
    linkedAccounts: [
      {
        accountId: 'acc1',
        attachmentPoints: [{ path: './root', permissions: ['VIEW_DASH'], secretPermissions: [], appType: 'spray' }],
      },
    ],
    monitorOnly: false,
    timeZone: null,
    hourCycle: null,
    dateOrder: null,
  };
  const root = treeGroup('root', {
    kind: 'root',
    appType: 'spray',
    groups: [
      treeGroup('north', { devices: [row10, row2], deviceIds: [row10.id, row2.id] }),
      treeGroup('south', { devices: [row1, pump], deviceIds: [row1.id, pump.id] }),
    ],
  });
  client.setQueryData(selfQuery().queryKey, self);
  client.setQueryData(accountQuery().queryKey, {
    accounts: [treeAccount(root, { name: 'Orchard', appType: 'spray' })],
  } as AccountAnswer);
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={['/spray/root']}>
        <Routes>
          <Route path="/spray/:groupId" element={<SprayOverviewPage />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

/** The overview's places, placeholders and cards alike, in the page's order. */
const placeNames = () => screen.queryAllByRole('article').map((article) => article.getAttribute('aria-label'));
const cardNames = () => screen.queryAllByTestId('sprayer-card').map((card) => card.getAttribute('aria-label'));

async function arrive(device: TreeDevice) {
  await act(async () => answers.get(device.id)!.respond());
}

beforeEach(async () => {
  answers = new Map();
  resetSentRequests();
  vi.stubGlobal('WebSocket', AnsweringSocket);
  vi.stubGlobal('fetch', (url: string) => {
    const { pathname, searchParams } = new URL(String(url), 'http://console.test');
    if (pathname.endsWith('/latest-values')) return Promise.resolve(json({}));
    const device = ALL.find((candidate) => candidate.id === searchParams.get('id'));
    if (!pathname.endsWith('/device') || !device) return Promise.resolve(json({}, 404));
    return new Promise<Response>((resolve) =>
      answers.set(device.id, {
        respond: () => resolve(json(record(device))),
        fail: () => resolve(json({ message: 'Internal error' }, 500)),
      }),
    );
  });
  setSession({ ...SIGNED_OUT_SESSION, email: 'spray@fieldlink.test', canViewDash: true, permissions: ['VIEW_DASH'] });
  await openRealtime();
});
afterEach(() => {
  cleanup();
  stopRealtime();
  setSession(SIGNED_OUT_SESSION);
  vi.unstubAllGlobals();
});

/** Every order the four records can come in. */
function orders<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((item, index) =>
    orders([...items.slice(0, index), ...items.slice(index + 1)]).map((rest) => [item, ...rest]),
  );
}

describe('the spray overview while sprayers’ configurations come in', () => {
  it.each(orders(ALL).map((order) => [order.map((device) => device.name).join(', '), order] as const))(
    'keeps every sprayer in its filled place from the first frame (records in: %s)',
    async (_, order) => {
      renderOverview();
      // The first frame already holds every sprayer of the tree, in the filled page's order.
      expect(placeNames()).toEqual(FILLED);
      expect(screen.queryAllByTestId('sprayer-placeholder')).toHaveLength(3);
      await waitFor(() => expect(answers.size).toBe(4));

      for (const device of order) {
        await arrive(device);
        if (device !== pump) await waitFor(() => expect(cardNames()).toContain(device.name));
        expect(placeNames()).toEqual(FILLED);
      }
      expect(cardNames()).toEqual(FILLED);
      expect(screen.queryAllByTestId('sprayer-placeholder')).toEqual([]);
    },
  );

  it('offers nothing to operate on a placeholder, and marks it busy until its card comes', async () => {
    renderOverview();
    await waitFor(() => expect(answers.size).toBe(4));
    await arrive(row2);
    await waitFor(() => expect(cardNames()).toEqual(['Sprayer Row 2']));

    const placeholder = screen.getByRole('article', { name: 'Sprayer Row 1' });
    expect(placeholder.getAttribute('aria-busy')).toBe('true');
    expect(within(placeholder).getByRole('heading', { name: 'Sprayer Row 1' })).toBeTruthy();
    expect(within(placeholder).queryAllByRole('button')).toEqual([]);
    expect(within(placeholder).queryAllByRole('link')).toEqual([]);
    expect(placeholder.querySelectorAll('button, a, input, select, [tabindex]')).toHaveLength(0);
    // The card beside it does offer its sprays.
    const card = screen.getByRole('article', { name: 'Sprayer Row 2' });
    expect(card.getAttribute('aria-busy')).toBeNull();
    expect(within(card).getByRole('button', { name: 'Spray zone 1' })).toBeTruthy();
  });

  it('keeps the place of a sprayer whose record could not be read, no longer busy', async () => {
    renderOverview();
    await waitFor(() => expect(answers.size).toBe(4));
    await act(async () => answers.get(row1.id)!.fail());
    for (const device of [row2, row10, pump]) await arrive(device);
    await waitFor(() => expect(cardNames()).toEqual(['Sprayer Row 2', 'Sprayer Row 10']));

    expect(placeNames()).toEqual(FILLED);
    const placeholder = screen.getByRole('article', { name: 'Sprayer Row 1' });
    expect(placeholder.getAttribute('aria-busy')).toBe('false');
    expect(within(placeholder).getByText(/could not be read/)).toBeTruthy();
    expect(within(placeholder).queryAllByRole('button')).toEqual([]);
  });
});
