// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { OTA_RELOAD_DELAY_MS } from '@fieldlink/domain/ota';
import { AnsweringSocket, nextFrame, resetSentRequests } from '../../../lib/realtime/fixtures';
import { startRealtime, stopRealtime, watchDevices } from '../../../lib/realtime/realtime-connection';
import { realtimeStore } from '../../../lib/realtime/realtime-store';
import { OTA_PENDING_QUERY_KEY } from '../api/get-ota-pending';
import { useOtaReload } from './use-ota-reload';

/** The sockets the console opened, so the test can speak as the server on the last. */
const sockets: AnsweringSocket[] = [];
class ServerSocket extends AnsweringSocket {
  constructor() {
    super();
    sockets.push(this);
  }
}

const AT = Date.UTC(2026, 10, 30, 12);

/** A batch of the device table's feed, as the server sends it while the table page watches it. */
function tableBatch(changes: Record<string, unknown>[]) {
  sockets.at(-1)!.onmessage?.({
    data: JSON.stringify({ type: 'server/deviceTableChanges', at: AT, changes }),
  } as MessageEvent);
}

let invalidated: unknown[][];

beforeEach(async () => {
  resetSentRequests();
  vi.stubGlobal('WebSocket', ServerSocket);
  await startRealtime({ token: 'token', canViewDash: true, onUnauthorized: () => {} });
  await vi.waitFor(() => expect(realtimeStore.getState().connectionCount).toBe(1));
  // Pages show these devices: the server pushes only what a socket subscribed to.
  watchDevices(['DEV-1', 'DEV-2']);
  vi.useFakeTimers({ now: AT, toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  const queryClient = new QueryClient();
  invalidated = [];
  vi.spyOn(queryClient, 'invalidateQueries').mockImplementation(async (filters) => {
    invalidated.push([...(filters?.queryKey ?? [])]);
  });
  renderHook(() => useOtaReload(), {
    wrapper: ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    ),
  });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  stopRealtime();
  vi.unstubAllGlobals();
  sockets.length = 0;
});

describe('the shell hears OTA news from the device table feed', () => {
  it('reads the pending list at once when an update ends, and the table again 30 s later (§4, §9)', () => {
    tableBatch([{ thingName: 'DEV-1', otaState: 'SUCCEEDED', otaPercent: null, fw: '5.1.0' }]);
    expect(invalidated).toEqual([[...OTA_PENDING_QUERY_KEY]]);
    vi.advanceTimersByTime(OTA_RELOAD_DELAY_MS - 1);
    expect(invalidated).toEqual([[...OTA_PENDING_QUERY_KEY]]);
    vi.advanceTimersByTime(1);
    expect(invalidated).toEqual([[...OTA_PENDING_QUERY_KEY], ['device-table'], [...OTA_PENDING_QUERY_KEY]]);
  });

  it('reloads the table once for a batch in which a rollout ended on many devices', () => {
    tableBatch([
      { thingName: 'DEV-1', otaState: 'SUCCEEDED' },
      { thingName: 'DEV-2', otaState: 'FAILED' },
      { thingName: 'DEV-3', otaState: 'SUCCEEDED' },
    ]);
    vi.advanceTimersByTime(OTA_RELOAD_DELAY_MS);
    expect(invalidated).toEqual([[...OTA_PENDING_QUERY_KEY], ['device-table'], [...OTA_PENDING_QUERY_KEY]]);
  });

  it('reads the pending list when a pending mark changes, and reloads nothing later', () => {
    tableBatch([{ thingName: 'DEV-1', otaState: 'AWAITING_APPROVAL', otaPendingSubmittedAt: AT }]);
    expect(invalidated).toEqual([[...OTA_PENDING_QUERY_KEY]]);
    vi.advanceTimersByTime(OTA_RELOAD_DELAY_MS);
    expect(invalidated).toHaveLength(1);
  });

  it('reads nothing for progress or connection changes', () => {
    tableBatch([
      { thingName: 'DEV-1', otaState: 'DOWNLOADING', otaPercent: 40 },
      { thingName: 'DEV-2', isConnected: false },
    ]);
    vi.advanceTimersByTime(OTA_RELOAD_DELAY_MS);
    expect(invalidated).toEqual([]);
  });
});

/**
 * A device's latest update as the server pushes it (`server/otaProgress`) on the last socket;
 * resolves once the console applied it (at the page's next frame).
 */
function otaProgress(thingName: string, finishedAt: number | null, otaPendingSubmittedAt: number | null = null) {
  sockets.at(-1)!.push({
    type: 'server/otaProgress',
    thingName,
    deviceId: `id-${thingName}`,
    update: {
      id: `update-${thingName}`,
      rolloutId: 'rollout-1',
      state: finishedAt === null ? 'DOWNLOADING' : 'SUCCEEDED',
      percent: finishedAt === null ? 40 : 100,
      updateCommand: 'fw 5.1.0',
      submittedAt: AT - 3_600_000,
      finishedAt,
      error: null,
      fw: finishedAt === null ? null : '5.1.0',
    },
    otaPendingSubmittedAt,
  });
  return nextFrame();
}

// A subscription sends each device's current state first, its latest update among them: an update
// that ended long ago is the device's state, not news, and must not read everything again.
describe('the shell hears OTA news from watched devices', () => {
  it('reloads the device and the tables 30 s after an update that ends now', async () => {
    await act(async () => otaProgress('DEV-1', AT));
    expect(invalidated).toEqual([]);
    vi.advanceTimersByTime(OTA_RELOAD_DELAY_MS);
    expect(invalidated).toEqual([['device', 'id-DEV-1'], ['device-table'], [...OTA_PENDING_QUERY_KEY]]);
  });

  it('reads nothing for the current state of a device whose update ended long ago, or that waits for nothing', async () => {
    await act(async () => {
      void otaProgress('DEV-1', AT - 3_000_000);
      await otaProgress('DEV-2', null);
    });
    expect(Object.keys(realtimeStore.getState().ota)).toEqual(['DEV-1', 'DEV-2']);
    vi.advanceTimersByTime(OTA_RELOAD_DELAY_MS);
    expect(invalidated).toEqual([]);
  });

  it('reads the pending list for a device first heard of waiting for approval', async () => {
    await act(async () => otaProgress('DEV-1', null, AT - 60_000));
    expect(invalidated).toEqual([[...OTA_PENDING_QUERY_KEY]]);
  });
});
