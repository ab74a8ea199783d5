// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startRealtime, stopRealtime, watchDevices } from './realtime-connection';
import { realtimeStore } from './realtime-store';

/** The requests that left on the real-time socket, without their ids. */
let sent: Record<string, unknown>[] = [];

/** The socket the browser would open: it opens at once and answers each request with success. */
class AnsweringSocket {
  readyState = 0;
  onopen: ((event: Event) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onclose: ((event: CloseEvent) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  constructor() {
    queueMicrotask(() => {
      this.readyState = 1;
      this.onopen?.(new Event('open'));
    });
  }
  send(frame: string) {
    const { id, ...request } = JSON.parse(frame) as Record<string, unknown>;
    sent.push(request);
    queueMicrotask(() =>
      this.onmessage?.({ data: JSON.stringify({ type: 'server/reply', id, ok: true }) } as MessageEvent),
    );
  }
  close() {
    this.readyState = 3;
  }
}

const subscriptions = () => sent.filter((request) => request.type === 'server/subscribeDevices');

beforeEach(() => {
  sent = [];
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
