import { expect, vi } from 'vitest';
import { startRealtime } from './realtime-connection';
import { realtimeStore } from './realtime-store';

/**
 * Test support for code that talks over the real-time socket: a socket that opens at once and answers
 * every request with success (echoing a write's `value`), and the requests it was sent.
 */

/** The requests that left on the real-time socket, without their ids. Emptied by {@link resetSentRequests}. */
export const sentRequests: Record<string, unknown>[] = [];

export function resetSentRequests(): void {
  sentRequests.length = 0;
}

/** The socket the browser would open: stub it as the global `WebSocket`. */
export class AnsweringSocket {
  /** The socket opened last: the one a test pushes to or drops. */
  static latest: AnsweringSocket | null = null;
  readyState = 0;
  onopen: ((event: Event) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onclose: ((event: CloseEvent) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  constructor() {
    AnsweringSocket.latest = this;
    queueMicrotask(() => {
      this.readyState = 1;
      this.onopen?.(new Event('open'));
    });
  }
  send(frame: string) {
    const { id, ...request } = JSON.parse(frame) as Record<string, unknown>;
    sentRequests.push(request);
    queueMicrotask(() =>
      this.onmessage?.({
        data: JSON.stringify({ type: 'server/reply', id, ok: true, value: request.value }),
      } as MessageEvent),
    );
  }
  close() {
    this.readyState = 3;
  }
  /** The server sends an action on this socket. */
  push(action: Record<string, unknown>) {
    this.onmessage?.({ data: JSON.stringify(action) } as MessageEvent);
  }
  /** The network drops this socket (not a close the client asked for). */
  drop() {
    this.readyState = 3;
    this.onclose?.({ code: 1006 } as CloseEvent);
  }
}

/**
 * A break of the real-time channel: the socket drops, and once the console is reconnecting the network
 * is back, so it opens a new one at once. What was pushed meanwhile is lost, as on a real break.
 */
export async function breakRealtime(): Promise<void> {
  AnsweringSocket.latest!.drop();
  await vi.waitFor(() => expect(realtimeStore.getState().status).toBe('RECONNECTING'));
  window.dispatchEvent(new Event('online'));
}

/** The page's next animation frame: the real-time actions received before it are in the store then. */
export function nextFrame(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => resolve()));
}

/** Opens the console's real-time connection on the stubbed `WebSocket` and waits for its socket. */
export async function openRealtime(canViewDash = true): Promise<void> {
  await startRealtime({ token: 'token', canViewDash, onUnauthorized: () => {} });
  await vi.waitFor(() => expect(realtimeStore.getState().connectionCount).toBe(1));
}

/** A device's connection state as the server pushes it on a change. */
export function pushConnectionState(thingName: string, isConnected: boolean): void {
  AnsweringSocket.latest!.push({
    type: 'server/connectionState',
    thingName,
    isConnected,
    lastConnection: 1_700_000_000_000,
    lastDisconnection: isConnected ? null : 1_700_000_100_000,
  });
}
