import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, openStorage, type Storage } from '../db/database';
import { ROLLUP_LEVELS } from '../db/log-writes';
import { seedDemo } from '../seed/seed';
import { referenceRollups, storedLogs, storedRollups } from '../../testing/log-rollups';
import { DEMO_PASSWORD } from '../../testing/test-app';
import { until } from '../../testing/until';
import { FrameWriter, type LogRow } from './frame-writer';
import { SqliteWriterThread } from './sqlite-writer-thread';
import { moveInbox } from '../db/log-inbox';
import { insertLogs } from '../db/log-writes';
import type { LogRetention } from '../config';

const T0 = Date.UTC(2026, 10, 20, 10);
const DAY = 86_400_000;

describe('SqliteWriterThread', () => {
  let dir: string;
  let storage: Storage;
  let thread: SqliteWriterThread;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fieldlink-writer-thread-'));
    storage = openStorage(path.join(dir, 'fieldlink.db'));
    await migrate(storage.db);
    await seedDemo(storage.db, DEMO_PASSWORD);
    thread = new SqliteWriterThread(storage.file!);
  });
  afterAll(async () => {
    await thread.close();
    await storage.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('writes batches from its own connection: samples, roll-ups, latest values and connections', async () => {
    const writer = new FrameWriter(storage.db, { maxDelayMs: 1, store: (writes) => thread.write(writes) });
    const device = await storage.db
      .selectFrom('devices')
      .select(['id', 'thing_name', 'is_connected', 'last_connection', 'last_disconnection'])
      .executeTakeFirstOrThrow();
    const samples: LogRow[] = [];
    const frames: Promise<void>[] = [];
    for (let i = 0; i < 300; i += 1) {
      const logs = ['c1', 'c2'].map((code) => ({ device_id: device.id, code, t: T0 + i * 30_000, value: i % 7 }));
      samples.push(...logs);
      frames.push(writer.write({ logs, latest: logs.map((row) => ({ ...row, extra: null })) }));
    }
    // The main connection writes beside the thread: each waits for the other's lock.
    const name = 'Renamed while the thread writes';
    await storage.db.updateTable('devices').set({ name }).where('id', '=', device.id).execute();
    const events: unknown[] = [];
    const connected = new FrameWriter(storage.db, {
      maxDelayMs: 1,
      store: (writes) => thread.write(writes),
      onCommitted: (committed) => events.push(...committed),
    });
    // The opposite of the device's state: a change, recorded with its event.
    const isConnected = !device.is_connected;
    const t = Math.max(device.last_connection ?? 0, device.last_disconnection ?? 0) + 1000;
    await connected.write({
      connection: { deviceId: device.id, thingName: device.thing_name, t, connected: isConnected },
    });
    await Promise.all(frames);

    // What the thread committed (into the inbox, then moved as readers move it), read through the
    // main connection.
    await moveInbox(storage.db);
    const stored = await storedLogs(storage.db);
    expect(stored).toHaveLength(samples.length);
    for (const { table, width } of ROLLUP_LEVELS) {
      expect(await storedRollups(storage.db, table)).toEqual(referenceRollups(stored, width));
    }
    const latest = await storage.db
      .selectFrom('latest_values')
      .select(['code', 't'])
      .where('device_id', '=', device.id)
      .orderBy('code')
      .execute();
    expect(latest).toEqual([
      { code: 'c1', t: T0 + 299 * 30_000 },
      { code: 'c2', t: T0 + 299 * 30_000 },
    ]);
    const row = await storage.db
      .selectFrom('devices')
      .select(['name', 'is_connected', isConnected ? 'last_connection' : 'last_disconnection'])
      .where('id', '=', device.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      name,
      is_connected: isConnected ? 1 : 0,
      [isConnected ? 'last_connection' : 'last_disconnection']: t,
    });
    expect(events).toMatchObject([{ type: 'server/connectionState', thingName: device.thing_name, isConnected }]);
  });

  it('fails a batch the database refuses with its error, and writes the next', async () => {
    // A sample without a value breaks the log's NOT NULL constraint: the whole batch is undone.
    const bad = [{ device_id: 'dev-x', code: 'c1', t: T0, value: null as unknown as number }];
    await expect(thread.write({ logs: bad, latest: [], deviceUpdates: [], connections: [] })).rejects.toMatchObject({
      code: 'SQLITE_CONSTRAINT_NOTNULL',
    });
    const good = [{ device_id: 'dev-x', code: 'c1', t: T0, value: 1 }];
    await expect(thread.write({ logs: good, latest: [], deviceUpdates: [], connections: [] })).resolves.toEqual([]);
    await moveInbox(storage.db);
    const rows = await storage.db.selectFrom('logs').select('value').where('device_id', '=', 'dev-x').execute();
    expect(rows).toEqual([{ value: 1 }]);
  });

  it('runs the log maintenance job between its batches: batches go on while it works, and it stops when told', async () => {
    const now = T0 + 30 * DAY;
    const [device] = await storage.db.selectFrom('devices').select('id').where('plan', '!=', 'PREMIUM').execute();
    const deviceId = device!.id;
    // 40,000 samples two days old, past a one-day retention: 40 slices of deletes at least.
    const backlog = Array.from({ length: 40_000 }, (_, i) => ({
      device_id: deviceId,
      code: `m${i % 8}`,
      t: now - 2 * DAY + Math.floor(i / 8) * 1000,
      value: i % 13,
    }));
    for (let i = 0; i < backlog.length; i += 5000) await insertLogs(storage.db, backlog.slice(i, i + 5000));
    const retention: LogRetention = { FREE: { rawDays: 1, rollupDays: 0 }, PREMIUM: { rawDays: 0, rollupDays: 0 } };
    const countOld = async () =>
      Number(
        (
          await storage.db
            .selectFrom('logs')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('device_id', '=', deviceId)
            .where('t', '<', now - DAY)
            .executeTakeFirstOrThrow()
        ).n,
      );

    // Batches written one after another while the run works: each is written between two slices.
    let running = true;
    const run = thread.maintain({ now, retention, share: 0.5 }).finally(() => (running = false));
    let duringRun = 0;
    for (let batch = 0; running; batch += 1) {
      const logs = [{ device_id: deviceId, code: 'live', t: now + batch, value: batch }];
      await thread.write({ logs, latest: [], deviceUpdates: [], connections: [] });
      if (running) duringRun += 1;
    }
    const summary = await run;
    expect(summary).toMatchObject({ stopped: false, deleted: { logs: backlog.length } });
    expect(summary.pace.slices).toBeGreaterThan(40);
    expect(duringRun).toBeGreaterThan(10);
    expect(await countOld()).toBe(0);
    await moveInbox(storage.db);
    const live = await storage.db.selectFrom('logs').select('t').where('code', '=', 'live').execute();
    expect(live.length).toBeGreaterThan(duringRun);

    // A slow run stops between two slices when told, its work left for the next run. It rests 19
    // times each slice's wall time, so its first delete comes after 19 times its first slice (a read
    // of the device's channels): 43-123 ms at load 16, and 99 times that at a share of 0.01 passed the
    // 15 s wait. After that delete at least 40 more slices, each with its rest, are left, so a stop
    // within a poll of the first delete still finds work left.
    for (let i = 0; i < backlog.length; i += 5000) await insertLogs(storage.db, backlog.slice(i, i + 5000));
    const slow = thread.maintain({ now, retention, share: 0.05 });
    // Under way once its first slices have deleted something: then told to stop. The wait is generous,
    // as the rest before that delete grows with the machine's load.
    await until(async () => (await countOld()) < backlog.length, 60_000, { what: 'A first slice deleted' });
    thread.stopMaintenance();
    const stopped = await slow;
    expect(stopped.stopped).toBe(true);
    expect(stopped.deleted.logs).toBeLessThan(backlog.length);
    expect(await countOld()).toBe(backlog.length - stopped.deleted.logs);
  }, 120_000);

  it('lets the WAL start over once it is past its limit, though batches never stop coming', async () => {
    // A file of its own with no checkpointer thread: only the writer thread's checkpoints copy the WAL.
    const file = path.join(dir, 'wal.db');
    const setup = openStorage(file);
    await migrate(setup.db);
    await setup.close();
    const walBytes = () => fs.statSync(`${file}-wal`).size;
    const small = new SqliteWriterThread(file, { walRestartBytes: 2 ** 20, walCheckEveryMs: 0 });
    let written = 0;
    let largest = 0;
    try {
      // 40 batches of 2,000 samples of 2,000 channels, one after another: about 1.5 MiB
      // of WAL each.
      for (let batch = 0; batch < 40; batch += 1) {
        const logs = Array.from({ length: 2000 }, (_, i) => ({
          device_id: `dev-wal-${Math.floor(i / 10)}`,
          code: `c${i % 10}`,
          t: T0 + batch * 1000,
          value: i,
        }));
        await small.write({ logs, latest: [], deviceUpdates: [], connections: [] });
        written += logs.length;
        largest = Math.max(largest, walBytes());
      }
    } finally {
      await small.close();
    }
    // Without starting over, the WAL would hold every batch's pages (about 60 MiB).
    expect(largest).toBeLessThan(16 * 2 ** 20);
    const check = openStorage(file);
    const stored = await check.db
      .selectFrom('logs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    await check.close();
    expect(Number(stored.n)).toBe(written);
  });
});
