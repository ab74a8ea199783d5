// @vitest-environment happy-dom
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { encodeAccountColumns } from '@fieldlink/api/account-columns';
import { ACCOUNT_PATH } from '@fieldlink/api/first-calls';
import { appStore } from '../../lib/app-store/app-store';
import { queryClient } from '../../lib/query-client';
import { accountQuery } from '../../lib/api/get-account';
import { stopRealtime, watchDevices } from '../../lib/realtime/realtime-connection';
import { AnsweringSocket, openRealtime, pushConnectionState, resetSentRequests } from '../../lib/realtime/fixtures';
import { treeAccount, treeDevice, treeGroup } from '../../lib/tree-fixtures';
import { IdleBanner } from './idle-banner';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** Per thing name, the connection flag the server stores, answered in the account tree. */
const stored = new Map<string, boolean>();
let treeReads = 0;

function answerTree(): Response {
  treeReads += 1;
  const devices = [...stored].map(([thingName, isConnected]) => treeDevice(thingName, { isConnected }));
  const answer = { accounts: [treeAccount(treeGroup('root', { kind: 'root', devices }))] };
  return new Response(JSON.stringify(encodeAccountColumns(answer)), {
    status: 200,
    headers: { 'content-type': 'application/json' },
  });
}

const banner = () => screen.queryByTestId('idle-banner')?.textContent ?? null;

beforeEach(async () => {
  stored.clear();
  treeReads = 0;
  resetSentRequests();
  vi.stubGlobal('WebSocket', AnsweringSocket);
  vi.stubGlobal('fetch', async (url: string) => {
    if (new URL(url, 'http://console.test').pathname.endsWith(ACCOUNT_PATH)) return answerTree();
    return new Response('{}', { status: 404, headers: { 'content-type': 'application/json' } });
  });
  appStore.setState((s) => ({ ...s, machine: { ...s.machine, status: 'IDLE' } }));
  await openRealtime();
});
afterEach(() => {
  cleanup();
  stopRealtime();
  queryClient.clear();
  appStore.setState((s) => ({ ...s, machine: { ...s.machine, status: null } }));
  vi.unstubAllGlobals();
});

function renderBanner() {
  render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter>
        <IdleBanner />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('the banner’s disconnected devices', () => {
  it('counts a device that went offline while the console’s socket was down', async () => {
    stored.set('PUMP_1', false);
    stored.set('PUMP_2', true);
    // A page shows PUMP_1: the server pushes only what a socket subscribed to.
    watchDevices(['PUMP_1']);
    renderBanner();
    await waitFor(() => expect(banner()).toMatch(/^1 device is disconnected\./));
    // PUMP_1 comes back, pushed: the banner goes.
    stored.set('PUMP_1', true);
    pushConnectionState('PUMP_1', true);
    await waitFor(() => expect(banner()).toBeNull());

    // Both drop while the socket is down: the server stores it, the pushes are lost.
    stored.set('PUMP_1', false);
    stored.set('PUMP_2', false);
    AnsweringSocket.latest!.drop();
    await waitFor(() => expect(banner()).toMatch(/^Connection to the cloud was lost/));
    window.dispatchEvent(new Event('online'));

    await waitFor(() => expect(banner()).toMatch(/^2 devices are disconnected\./));
    expect(treeReads).toBe(2);
  });

  // A device's live state is current only while a page watches it: once none does, no push renews
  // it, and a state kept from the last watch would override every later read of the tree.
  it('counts a device no page watches by the tree, not by its state when last watched', async () => {
    stored.set('PUMP_1', true);
    stored.set('PUMP_2', true);
    renderBanner();
    await waitFor(() => expect(treeReads).toBe(1));
    const stopWatching = watchDevices(['PUMP_1', 'PUMP_2']);
    pushConnectionState('PUMP_1', false);
    pushConnectionState('PUMP_2', false);
    await waitFor(() => expect(banner()).toMatch(/^2 devices are disconnected\./));

    // The page showing PUMP_1 is left (PUMP_2 stays on screen); PUMP_1 comes back meanwhile, as
    // the tree read next says.
    stopWatching();
    const stopWatchingSecond = watchDevices(['PUMP_2']);
    stored.set('PUMP_1', true);
    await queryClient.invalidateQueries({ queryKey: accountQuery().queryKey });
    expect(treeReads).toBe(2);
    await waitFor(() => expect(banner()).toMatch(/^1 device is disconnected\./));
    stopWatchingSecond();
  });
});
