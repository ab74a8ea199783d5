import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { migrate, openStorage, type Dialect, type Storage } from '../db/database';
import { moveInbox } from '../db/log-inbox';
import { ROLLUP_LEVELS } from '../db/log-writes';
import { seedDemo } from '../seed/seed';
import { referenceRollups, storedLogs, storedRollups } from '../../testing/log-rollups';
import { ManualTimers } from '../../testing/manual-timers';
import { DEMO_PASSWORD, DIALECTS, freshDatabase } from '../../testing/test-app';
import { until } from '../../testing/until';
import { FrameWriter, writeBatch, type BatchWrites, type FrameWrites, type LogRow } from './frame-writer';

const T0 = Date.UTC(2026, 10, 20, 10);

/** One frame of `device`: a sample per channel at `t`, and the same as latest values. */
function frame(device: string, t: number, codes = ['c1'], value = 1): FrameWrites {
  const logs: LogRow[] = codes.map((code) => ({ device_id: device, code, t, value }));
  return { logs, latest: logs.map((row) => ({ ...row, extra: null })) };
}

/**
 * Holds a lock another transaction of the writer needs until released: on SQLite the database's
 * write lock (a second connection's BEGIN IMMEDIATE); on PostgreSQL `device`'s sample of `c1` at `t`
 * (a second connection's insert of it, not committed: an insert of the same key waits for its
 * outcome, and the release undoes it), so only batches holding that sample wait.
 */
async function holdLock(dialect: Dialect, url: string, device: string, t: number): Promise<() => Promise<void>> {
  if (dialect === 'sqlite') {
    const other = new SqliteDatabase(url);
    other.exec('begin immediate');
    return async () => {
      other.exec('commit');
      other.close();
    };
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('begin');
  await client.query(`insert into logs (device_id, code, t, value) values ($1, 'c1', $2, 0)`, [device, t]);
  return async () => {
    await client.query('rollback');
    await client.end();
  };
}

describe.each(DIALECTS)('FrameWriter on %s', (dialect: Dialect) => {
  let database: { url: string; drop: () => Promise<void> };
  let storage: Storage;
  let dir: string | null = null;
  /** Statements on the test's database waiting for a lock another connection holds (PostgreSQL). */
  const statementsWaitingOnLocks = async () => {
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock'`.execute(storage.db);
    return rows[0]!.n;
  };

  beforeAll(async () => {
    if (dialect === 'sqlite') {
      // A file, so that a second connection can hold its lock.
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fieldlink-frame-writer-'));
      const url = path.join(dir, 'db.sqlite');
      database = { url, drop: async () => undefined };
    } else database = await freshDatabase('postgres');
    storage = openStorage(database.url);
    await migrate(storage.db);
    await seedDemo(storage.db, DEMO_PASSWORD);
  });
  afterAll(async () => {
    await storage.close();
    await database.drop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    for (const table of ['logs', 'logs_hourly', 'logs_daily', 'latest_values'] as const)
      await storage.db.deleteFrom(table).execute();
    if (dialect === 'postgres') {
      await storage.db.deleteFrom('log_rollup_inbox').execute();
      await storage.db.deleteFrom('log_rollup_latest_inbox').execute();
    }
  });

  it('writes a batch once its first frame has waited the delay, or at once when it holds the most rows', async () => {
    const timers = new ManualTimers();
    const waiting = new FrameWriter(storage.db, { maxDelayMs: 300, timers });
    let written = false;
    const write = waiting.write(frame('dev-a', T0)).then(() => (written = true));
    timers.advance(299);
    // A millisecond early: no batch was started, so nothing is stored or answered.
    expect(timers.nextDue()).toBe(300);
    expect(await storedLogs(storage.db)).toHaveLength(0);
    expect(written).toBe(false);
    timers.advance(1);
    await write;
    expect(await storedLogs(storage.db)).toHaveLength(1);

    const full = new FrameWriter(storage.db, { maxDelayMs: 60_000, maxRows: 3, timers });
    const fullWrite = full.write(frame('dev-a', T0 + 1, ['c1', 'c2', 'c3']));
    // Due at once (the clock does not move), not a minute later.
    expect(timers.nextDue()).toBe(timers.now());
    timers.advance(0);
    await fullWrite;
    expect(await storedLogs(storage.db)).toHaveLength(4);
  });

  it('counts the delay from the first frame, so frames that waited on a busy writer go at once', async () => {
    await new FrameWriter(storage.db, { maxDelayMs: 0 }).write(frame('dev-a', T0));
    const timers = new ManualTimers();
    const writer = new FrameWriter(storage.db, { maxDelayMs: 1000, concurrency: 1, timers });
    const release = await holdLock(dialect, database.url, 'dev-a', T0 + 1);
    const first = writer.write(frame('dev-a', T0 + 1));
    // The first batch starts after 1 s and waits on the lock; the second is due 1 s after its frame,
    // while the first is still being written.
    timers.advance(1000);
    timers.advance(200);
    let secondWritten = false;
    const second = writer.write(frame('dev-b', T0 + 1)).then(() => (secondWritten = true));
    timers.advance(1000);
    // The one writer is busy: the second batch waits for it, due or not.
    expect(timers.nextDue()).toBeNull();
    await release();
    await first;
    // Due as soon as the first was committed, not a whole delay later.
    expect(timers.nextDue()).toBe(timers.now());
    expect(secondWritten).toBe(false);
    timers.advance(0);
    await second;
    expect(await storedLogs(storage.db)).toHaveLength(3);
  });

  it('keeps the roll-ups and latest values equal to the stored samples when batches repeat each other', async () => {
    const writer = new FrameWriter(storage.db, { maxDelayMs: 1, maxRows: 500, concurrency: 3 });
    // The same samples in six batches, in opposite orders (on PostgreSQL written side by side: the
    // inserts wait on each other's rows, and a deadlock between two is undone and written again).
    const keys: LogRow[] = [];
    for (const device_id of ['dev-a', 'dev-b'])
      for (const code of ['c1', 'c2', 'c3'])
        for (let i = 0; i < 200; i += 1) keys.push({ device_id, code, t: T0 + i * 60_000, value: i % 17 });
    const batches = Array.from({ length: 6 }, (_, n) => (n % 2 === 0 ? keys : [...keys].reverse()));
    await Promise.all(
      batches.map((rows) => writer.write({ logs: rows, latest: rows.map((row) => ({ ...row, extra: null })) })),
    );
    // As every reader of roll-ups and latest values does (PostgreSQL's batches append to an inbox).
    await moveInbox(storage.db);
    const stored = await storedLogs(storage.db);
    expect(stored).toHaveLength(keys.length);
    for (const { table, width } of ROLLUP_LEVELS) {
      expect(await storedRollups(storage.db, table)).toEqual(referenceRollups(stored, width));
    }
    const latest = await storage.db.selectFrom('latest_values').select(['device_id', 'code', 't']).execute();
    expect(latest).toHaveLength(6);
    expect(latest.every((row) => row.t === T0 + 199 * 60_000)).toBe(true);
  });

  it.runIf(dialect === 'postgres')(
    'answers batches in the order they started, though a later one commits first',
    async () => {
      await new FrameWriter(storage.db, { maxDelayMs: 0 }).write(frame('dev-a', T0));
      const stored: string[] = [];
      const timers = new ManualTimers();
      const writer = new FrameWriter(storage.db, {
        maxDelayMs: 0,
        concurrency: 3,
        timers,
        store: async (writes) => {
          const events = await writeBatch(storage.db, writes);
          stored.push(writes.logs[0]!.device_id);
          return events;
        },
      });
      const release = await holdLock(dialect, database.url, 'dev-a', T0 + 1);
      const order: string[] = [];
      const first = writer.write(frame('dev-a', T0 + 1)).then(() => order.push('dev-a'));
      timers.advance(0);
      const second = writer.write(frame('dev-b', T0 + 1)).then(() => order.push('dev-b'));
      timers.advance(0);
      // dev-b's batch commits beside dev-a's, which waits on the lock...
      await until(() => stored.includes('dev-b'));
      // (a turn of the event loop: the writer has heard of the commit, as it hears of it in microtasks)
      await new Promise((resolve) => setImmediate(resolve));
      // ...but is not answered before it.
      expect(stored).toEqual(['dev-b']);
      expect(order).toEqual([]);
      await release();
      await Promise.all([first, second]);
      expect(order).toEqual(['dev-a', 'dev-b']);
    },
  );

  it.runIf(dialect === 'postgres')(
    'stores a batch of samples and latest values whole or not at all, though it is one statement of its own',
    async () => {
      await new FrameWriter(storage.db, { maxDelayMs: 0 }).write(frame('dev-a', T0, ['c1', 'c2']));
      const writer = new FrameWriter(storage.db, { maxDelayMs: 0, concurrency: 3 });
      const release = await holdLock(dialect, database.url, 'dev-a', T0 + 1);
      const written = writer.write(frame('dev-a', T0 + 1, ['c1', 'c2'], 5));
      await until(async () => (await statementsWaitingOnLocks()) > 0);
      // Its sample of c1 waits on the lock: none of its samples, roll-ups or latest values show, even
      // once the roll-up inbox is moved.
      await moveInbox(storage.db);
      const samplesAt = () =>
        storage.db
          .selectFrom('logs')
          .select('code')
          .where('device_id', '=', 'dev-a')
          .where('t', '=', T0 + 1)
          .execute();
      expect(await samplesAt()).toEqual([]);
      const hourly = () => storedRollups(storage.db, 'logs_hourly');
      expect((await hourly()).filter((bucket) => bucket.device_id === 'dev-a').map((b) => b.sample_count)).toEqual([
        1, 1,
      ]);
      await release();
      await written;
      await moveInbox(storage.db);
      expect(await samplesAt()).toHaveLength(2);
      expect((await hourly()).filter((bucket) => bucket.device_id === 'dev-a').map((b) => b.sum_value)).toEqual([6, 6]);
      const latest = await storage.db
        .selectFrom('latest_values')
        .select('t')
        .where('device_id', '=', 'dev-a')
        .execute();
      expect(latest.map((row) => row.t)).toEqual([T0 + 1, T0 + 1]);
    },
  );

  it.runIf(dialect === 'postgres')('writes a device change only after every batch before it is committed', async () => {
    const device = await storage.db.selectFrom('devices').select(['id', 'health']).executeTakeFirstOrThrow();
    await new FrameWriter(storage.db, { maxDelayMs: 0 }).write(frame('dev-a', T0));
    const started: BatchWrites[] = [];
    const timers = new ManualTimers();
    const writer = new FrameWriter(storage.db, {
      maxDelayMs: 0,
      concurrency: 3,
      timers,
      store: (writes) => {
        started.push(writes);
        return writeBatch(storage.db, writes);
      },
    });
    const release = await holdLock(dialect, database.url, 'dev-a', T0 + 1);
    const first = writer.write(frame('dev-a', T0 + 1));
    timers.advance(0);
    const health = JSON.stringify({ t: T0, rssi: -60 });
    const second = writer.write({ deviceUpdate: { deviceId: device.id, update: { health } } });
    // Everything due now has run: the device change is not started while the first batch runs.
    timers.advance(0);
    expect(timers.nextDue()).toBeNull();
    expect(started.map((writes) => writes.deviceUpdates.length)).toEqual([0]);
    await until(async () => (await statementsWaitingOnLocks()) > 0);
    const before = await storage.db
      .selectFrom('devices')
      .select('health')
      .where('id', '=', device.id)
      .executeTakeFirstOrThrow();
    expect(before.health).toBe(device.health);
    await release();
    await first;
    timers.advance(0);
    await second;
    expect(started.map((writes) => writes.deviceUpdates.length)).toEqual([0, 1]);
    const after = await storage.db
      .selectFrom('devices')
      .select('health')
      .where('id', '=', device.id)
      .executeTakeFirstOrThrow();
    expect(after.health).toBe(health);
  });
});
