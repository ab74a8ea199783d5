import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ManualTimers } from '../../testing/manual-timers';
import { until } from '../../testing/until';
import { ownDrainTimeout, type DrainingClient } from './drain-timeout';

const TIMEOUT_MS = 8000;

/** A client on a socket nobody reads, so it stays full until the test reads it. */
function stalledClient() {
  const timers = new ManualTimers();
  const conn = new PassThrough({ highWaterMark: 16 });
  conn.on('error', () => undefined); // Aedes's client listens for it as well
  const client: DrainingClient = {
    conn,
    waitForDrain: () => {
      throw new Error('not replaced');
    },
  };
  ownDrainTimeout(client, TIMEOUT_MS, timers);
  const ended: (string | null)[] = [];
  /** A write as Aedes's write.js makes it: it waits for a drain when the buffer is full. */
  const write = () => {
    if (!conn.write(Buffer.alloc(32))) client.waitForDrain((error) => ended.push(error?.message ?? null));
  };
  return { timers, conn, write, ended };
}

describe('the broker’s drain timeout', () => {
  it('keeps a full socket until exactly the timeout, then drops it and fails every waiting write', async () => {
    const { timers, conn, write, ended } = stalledClient();
    write();
    timers.advance(1000);
    write(); // a second write while full shares the first one's timer
    timers.advance(TIMEOUT_MS - 1001);
    expect(conn.destroyed).toBe(false);
    expect(ended).toEqual([]);

    timers.advance(1);
    expect(conn.destroyed).toBe(true);
    expect(conn.errored?.message).toBe('drain timeout');
    await until(() => ended.length === 2);
    expect(ended).toEqual(['drain timeout', 'drain timeout']);
    expect(timers.nextDue()).toBeNull();
  });

  it('lets the waiting writes go on when the socket drains in time, and times the next stall afresh', async () => {
    const { timers, conn, write, ended } = stalledClient();
    write();
    timers.advance(TIMEOUT_MS - 1);
    conn.resume(); // the device reads again
    await until(() => ended.length === 1);
    expect(ended).toEqual([null]);
    expect(timers.nextDue()).toBeNull();

    conn.pause();
    expect(conn.readableLength).toBe(0); // what was read is gone; the next writes fill it again
    write();
    write();
    timers.advance(TIMEOUT_MS - 1);
    expect(conn.destroyed).toBe(false);
    timers.advance(1);
    expect(conn.destroyed).toBe(true);
    await until(() => ended.length === 3);
    expect(ended).toEqual([null, 'drain timeout', 'drain timeout']);
  });

  it('fails the waiting writes when the socket closes first', async () => {
    const { timers, conn, write, ended } = stalledClient();
    write();
    conn.destroy();
    await until(() => ended.length === 1);
    expect(ended).toEqual(['connection closed']);
    expect(timers.nextDue()).toBeNull();
  });
});
