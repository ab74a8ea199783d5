// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startRealtime, stopRealtime, watchDevices } from './realtime-connection';
import { realtimeStore } from './realtime-store';
import { AnsweringSocket, resetSentRequests, sentRequests as sent } from './fixtures';

const subscriptions = () => sent.filter((request) => request.type === 'server/subscribeDevices');

beforeEach(() => {
  resetSentRequests();
  vi.stubGlobal('WebSocket', AnsweringSocket);
});
afterEach(() => {
  stopRealtime();
  vi.unstubAllGlobals();
});

// A page may open before the real-time client's chunks are in (a demo's simulation worker loads
// longer): its watches wait for the first socket instead of being dropped.
describe('watches made before the connection starts', () => {
  it('are subscribed when the first socket opens', async () => {
    const stop = watchDevices(['DEV-1', 'DEV-2']);
    await startRealtime({ token: 'token', canViewDash: true, onUnauthorized: () => {} });
    await vi.waitFor(() =>
      expect(subscriptions()).toEqual([{ type: 'server/subscribeDevices', thingNames: ['DEV-1', 'DEV-2'] }]),
    );
    stop();
    await vi.waitFor(() =>
      expect(sent.at(-1)).toEqual({ type: 'server/unsubscribeDevices', thingNames: ['DEV-1', 'DEV-2'] }),
    );
  });

  it('subscribe nothing for a user without view-dashboard (§4)', async () => {
    watchDevices(['DEV-1']);
    await startRealtime({ token: 'token', canViewDash: false, onUnauthorized: () => {} });
    await vi.waitFor(() => expect(realtimeStore.getState().connectionCount).toBe(1));
    expect(subscriptions()).toEqual([]);
  });

  it('are forgotten at sign-out', async () => {
    watchDevices(['DEV-1']);
    stopRealtime();
    await startRealtime({ token: 'token', canViewDash: true, onUnauthorized: () => {} });
    watchDevices(['DEV-2']);
    await vi.waitFor(() =>
      expect(subscriptions()).toEqual([{ type: 'server/subscribeDevices', thingNames: ['DEV-2'] }]),
    );
  });
});
