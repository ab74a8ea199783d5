import type { Duplex } from 'node:stream';
import type { Timer, Timers } from '../timers';

type DrainCallback = (error: Error | null, client: unknown) => void;

/**
 * The part of an Aedes client (aedes/lib/client.js) a write to a full socket goes through:
 * `write.js` calls `waitForDrain(done)` when the socket's buffer is full, and the delivery ends
 * when `done` is called.
 */
export interface DrainingClient {
  conn: Duplex;
  waitForDrain(callback: DrainCallback): void;
}

/**
 * Drops a client whose socket stays unwritable for `timeoutMs` on `timers`, in place of Aedes's own
 * drain timeout (a real `setTimeout` no test can move; the broker gives Aedes `drainTimeout: 0`).
 * It does what Aedes's coalesced timer does: one timer per client from the moment its socket first
 * fills; a drain ends it and lets every waiting write go on; its end fails them all with
 * "drain timeout" and destroys the socket with that error, so the deliveries queued for a stalled
 * device end instead of waiting forever. A socket that closes meanwhile fails them too.
 */
export function ownDrainTimeout(client: DrainingClient, timeoutMs: number, timers: Timers): void {
  const { conn } = client;
  let waiting: DrainCallback[] = [];
  let timer: Timer | null = null;
  const settle = (error: Error | null) => {
    timer?.cancel();
    timer = null;
    conn.removeListener('drain', onDrain);
    const callbacks = waiting;
    waiting = [];
    // Later, as Aedes does: a callback writes again, and may find the socket full again.
    for (const callback of callbacks) setImmediate(callback, error, client);
  };
  const onDrain = () => settle(null);
  conn.once('close', () => settle(new Error('connection closed')));
  client.waitForDrain = (callback) => {
    waiting.push(callback);
    if (timer) return;
    conn.once('drain', onDrain);
    timer = timers.setTimeout(() => {
      const error = new Error('drain timeout');
      settle(error);
      conn.destroy(error);
    }, timeoutMs);
    timer.unref();
  };
}
