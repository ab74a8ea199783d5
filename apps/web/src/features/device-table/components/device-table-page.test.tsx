// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fixtureTableBinary } from '../model/fixtures';
import { DeviceTablePage } from './device-table-page';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const FLEET = [
  { id: 'device-1', name: 'Boiler 1', thingName: 'THING-1', fw: '4.10.2', isConnected: 1 },
  { id: 'device-2', name: 'Chiller', thingName: 'THING-2', fw: '4.9.3', isConnected: 0 },
  { id: 'device-3', name: '=SUM(A1:A9)', thingName: 'THING-3', fw: '4.100.2', isConnected: 1 },
];

/** The calls that left for the server, and the files that left for the user's disk. */
let sent: string[] = [];
let files: Blob[] = [];
let answer: () => Response;

function renderTable(bulkActions?: (deviceIds: string[]) => string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <DeviceTablePage bulkActions={bulkActions && ((ids) => <span data-testid="bulk">{bulkActions(ids)}</span>)} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const csvOf = async (file: Blob) => (await file.text()).replace(/^\uFEFF/, '');

beforeEach(() => {
  sent = [];
  files = [];
  localStorage.clear();
  answer = () => new Response(fixtureTableBinary(FLEET), { status: 200 });
  vi.stubGlobal('fetch', (url: string) => {
    sent.push(String(url).replace(/^https?:\/\/[^/]+/, ''));
    return Promise.resolve(answer());
  });
  // Chromium's idle callbacks, which happy-dom lacks: the table builds its sorted orders in them.
  // Each runs once the current task has finished (a microtask): no timer, no wait.
  let lastIdle = 0;
  const cancelledIdle = new Set<number>();
  vi.stubGlobal('requestIdleCallback', (work: IdleRequestCallback) => {
    const handle = ++lastIdle;
    queueMicrotask(() => {
      if (!cancelledIdle.delete(handle)) work({ didTimeout: false, timeRemaining: () => 0 });
    });
    return handle;
  });
  vi.stubGlobal('cancelIdleCallback', (handle: number) => cancelledIdle.add(handle));
  vi.spyOn(URL, 'createObjectURL').mockImplementation((file) => {
    files.push(file as Blob);
    return 'blob:devices';
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

// Issue 37 item 5: the device table, as someone looking over their fleet uses it.
describe('the device table', { timeout: 30_000 }, () => {
  it('reads the table in its binary form and lists every device', async () => {
    renderTable();
    expect(screen.getByRole('status').textContent).toContain('Loading devices…');
    expect((await screen.findByTestId('device-count')).textContent).toBe('3 devices');
    expect(sent).toEqual(['/api/v1/devices/table?format=binary']);
    const table = screen.getByRole('table', { name: 'Devices' });
    for (const name of ['Boiler 1', 'Chiller', '=SUM(A1:A9)']) expect(within(table).getByText(name)).toBeTruthy();
  });

  it('says so when the list cannot be read, and reads it again on Try again', async () => {
    answer = () => new Response(JSON.stringify({ message: 'Database unavailable.' }), { status: 503 });
    renderTable();
    expect((await screen.findByText(/The device list could not be loaded/)).textContent).toContain(
      'Database unavailable.',
    );
    answer = () => new Response(fixtureTableBinary(FLEET), { status: 200 });
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect((await screen.findByTestId('device-count')).textContent).toBe('3 devices');
  });

  it('tells a user without devices where they come from', async () => {
    answer = () => new Response(fixtureTableBinary([]), { status: 200 });
    renderTable();
    expect(await screen.findByText('No devices yet')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Export CSV/ })).toBeNull();
  });

  it('exports the shown devices as CSV, a name that looks like a formula neutralised', async () => {
    renderTable();
    fireEvent.click(await screen.findByRole('button', { name: /Export CSV/ }));
    expect(files).toHaveLength(1);
    const csv = await csvOf(files[0]!);
    expect(csv).toContain('Boiler 1');
    expect(csv).toContain('Chiller');
    expect(csv).toContain("'=SUM(A1:A9)");
    expect(csv).not.toMatch(/(^|,)=SUM/m);
  });

  it('hands the selected devices to the bulk actions and exports only those', async () => {
    renderTable((ids) => `OTA for ${ids.join(' ')}`);
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Select Chiller' }));
    const bar = screen.getByRole('region', { name: 'Selection' });
    expect(within(bar).getByText('1 selected')).toBeTruthy();
    expect(within(bar).getByTestId('bulk').textContent).toBe('OTA for device-2');
    fireEvent.click(within(bar).getByRole('button', { name: /Export selected/ }));
    const csv = await csvOf(files[0]!);
    expect(csv).toContain('Chiller');
    expect(csv).not.toContain('Boiler 1');
    fireEvent.click(within(bar).getByRole('button', { name: 'Clear selection' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Selection' })).toBeNull());
  });
});
