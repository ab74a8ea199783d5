// @vitest-environment happy-dom
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DeviceConnection } from '@fieldlink/api/device';
import { queryClient } from '../../../lib/query-client';
import { stopRealtime, watchDevices } from '../../../lib/realtime/realtime-connection';
import { AnsweringSocket, breakRealtime, openRealtime, resetSentRequests } from '../../../lib/realtime/fixtures';
import { ConnectionHistory } from './connection-history';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const T0 = Date.UTC(2026, 11, 2, 6, 0);

/** The device's connection log as the server stores it, oldest first. */
let stored: DeviceConnection[] = [];
let historyReads = 0;

const answer = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const pushConnection = (isConnected: boolean, t: number) =>
  AnsweringSocket.latest!.push({
    type: 'server/connectionState',
    thingName: 'PUMP_1',
    isConnected,
    lastConnection: isConnected ? t : T0,
    lastDisconnection: isConnected ? null : t,
  });

const shownStates = () =>
  screen.queryAllByRole('listitem').map((row) => row.querySelector('.connection-history__state')?.textContent);

beforeEach(async () => {
  stored = [{ t: T0, connected: true }];
  historyReads = 0;
  resetSentRequests();
  vi.stubGlobal('WebSocket', AnsweringSocket);
  vi.stubGlobal('fetch', async (url: string) => {
    if (!new URL(url, 'http://console.test').pathname.endsWith('/device/connections')) return answer({}, 404);
    historyReads += 1;
    return answer({ connections: [...stored].reverse() });
  });
  await openRealtime();
  // The page around it watches the device: the server pushes only what a socket subscribed to.
  watchDevices(['PUMP_1']);
});
afterEach(() => {
  cleanup();
  stopRealtime();
  queryClient.clear();
  vi.unstubAllGlobals();
});

describe('a device’s connection history', () => {
  it('shows the drop and return the device had while the console’s socket was down', async () => {
    render(
      <QueryClientProvider client={queryClient}>
        <ConnectionHistory deviceId="dev-1" thingName="PUMP_1" />
      </QueryClientProvider>,
    );
    await waitFor(() => expect(shownStates()).toEqual(['Connected']));
    // A change pushed on the socket reads the log again.
    stored.push({ t: T0 + 60_000, connected: false });
    pushConnection(false, T0 + 60_000);
    await waitFor(() => expect(shownStates()).toEqual(['Disconnected', 'Connected']));
    stored.push({ t: T0 + 120_000, connected: true });
    pushConnection(true, T0 + 120_000);
    await waitFor(() => expect(shownStates()).toEqual(['Connected', 'Disconnected', 'Connected']));

    // The device drops and comes back while the socket is down: its live state is the same after.
    stored.push({ t: T0 + 180_000, connected: false }, { t: T0 + 240_000, connected: true });
    const readsBefore = historyReads;
    await breakRealtime();

    await waitFor(() => expect(shownStates()).toHaveLength(5));
    expect(shownStates()).toEqual(['Connected', 'Disconnected', 'Connected', 'Disconnected', 'Connected']);
    expect(historyReads).toBe(readsBefore + 1);
  });
});
