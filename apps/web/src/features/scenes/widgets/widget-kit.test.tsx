// @vitest-environment happy-dom
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Widget } from '@fieldlink/api/scenes';
import { queryClient } from '../../../lib/query-client';
import { stopRealtime, watchDevices } from '../../../lib/realtime/realtime-connection';
import { realtimeStore } from '../../../lib/realtime/realtime-store';
import { AnsweringSocket, breakRealtime, openRealtime, resetSentRequests } from '../../../lib/realtime/fixtures';
import { valueWidget } from './value-widgets';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** Upload every minute, log every 60 s: stale after 10 × 60 s = 10 min (core §4). */
const TEN_MINUTES = { uploadInterval: 1, logInterval: 60 };
/** The intervals the server stores in the device record. */
let storedIntervals: { uploadInterval: number | null; logInterval: number | null } = {
  uploadInterval: null,
  logInterval: null,
};

const answer = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function renderValueWidget() {
  const { View } = valueWidget;
  const widget = { id: 'widget-1', type: 'value', arcSegments: [] } as unknown as Widget;
  const channel = {
    deviceId: 'dev-1',
    thingName: 'PUMP_1',
    deviceName: 'Pump house',
    code: 'c1',
    name: 'Line pressure',
    units: 'bar',
    legendVisibility: true,
  };
  render(
    <QueryClientProvider client={queryClient}>
      <View widget={widget} channels={[channel]} width={200} height={160} readOnly confirmCommands={false} />
    </QueryClientProvider>,
  );
}

/** The channel's latest value, taken `minutesAgo` minutes ago. */
function latestValue(minutesAgo: number) {
  act(() =>
    realtimeStore.setState((state) => ({
      ...state,
      latest: { ...state.latest, PUMP_1: { c1: { value: 4.2, t: Date.now() - minutesAgo * 60_000 } } },
    })),
  );
}

const pushIntervals = (intervals: { uploadInterval: number; logInterval: number }) =>
  act(() =>
    AnsweringSocket.latest!.push({
      type: 'server/deviceConfig',
      thingName: 'PUMP_1',
      config: { subtype: 'device', ...intervals },
    }),
  );

const status = () => document.querySelector('.wv')?.getAttribute('data-status');

beforeEach(async () => {
  storedIntervals = { uploadInterval: null, logInterval: null };
  resetSentRequests();
  vi.stubGlobal('WebSocket', AnsweringSocket);
  vi.stubGlobal('fetch', async (url: string) => {
    const { pathname, searchParams } = new URL(url, 'http://console.test');
    if (!pathname.endsWith('/device') || searchParams.get('id') !== 'dev-1') return answer({}, 404);
    return answer({ id: 'dev-1', thingName: 'PUMP_1', status: { sp: 0 }, ...storedIntervals });
  });
  await openRealtime();
  // The page around it watches the device: the server pushes only what a socket subscribed to.
  watchDevices(['PUMP_1']);
});
afterEach(() => {
  cleanup();
  stopRealtime();
  queryClient.clear();
  realtimeStore.setState((state) => ({ ...state, latest: {}, config: {} }));
  vi.unstubAllGlobals();
});

describe('a widget’s stale window', () => {
  it('is the live config’s when one has been pushed', async () => {
    latestValue(20);
    renderValueWidget();
    await waitFor(() => expect(status()).toBe('live'));
    pushIntervals(TEN_MINUTES);
    await waitFor(() => expect(status()).toBe('stale'));
    expect(screen.getByText(/Stale/)).toBeTruthy();
  });

  it('is the device record’s before any config push', async () => {
    storedIntervals = TEN_MINUTES;
    latestValue(20);
    renderValueWidget();
    await waitFor(() => expect(status()).toBe('stale'));
  });

  it('is the default 86400 s when neither the push nor the record has an interval', async () => {
    latestValue(20);
    renderValueWidget();
    await waitFor(() => expect(queryClient.getQueryData(['device', 'dev-1'])).toBeDefined());
    expect(status()).toBe('live');
    latestValue(25 * 60);
    await waitFor(() => expect(status()).toBe('stale'));
  });

  // The live config is dropped after a break when no push renewed it (dropUnrenewed); the record,
  // read again then, still carries the intervals, so the window does not widen to the default.
  it('stays the device’s after a reconnect drops the unrenewed live config', async () => {
    storedIntervals = TEN_MINUTES;
    latestValue(20);
    renderValueWidget();
    pushIntervals(TEN_MINUTES);
    await waitFor(() => expect(status()).toBe('stale'));

    await breakRealtime();
    await vi.waitFor(() => expect(realtimeStore.getState().config.PUMP_1).toBeUndefined());
    expect(status()).toBe('stale');
  });
});
