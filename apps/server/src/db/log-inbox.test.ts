import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sql } from 'kysely';
import { logBinGrid } from '@fieldlink/api/device-logs';
import { migrate, openStorage, type Storage } from './database';
import {
  appendToInbox,
  encodeInboxBody,
  INBOX_SHARD_SPAN,
  InboxMover,
  inboxRows,
  inboxShard,
  INBOX_SHARDS,
  moveInbox,
} from './log-inbox';
import { insertLogs, ROLLUP_LEVELS } from './log-writes';
import type { LatestValuesTable, LogsTable } from './schema';
import { channelLogs, rawLogs } from '../features/devices/log-repository';
import { latestValuesOf } from '../features/devices/repository';
import { writeBatch } from '../ingest/frame-writer';
import { referenceRollups, storedLogs as logsTable, storedRollups as rollupsTable } from '../../testing/log-rollups';
import { ManualTimers } from '../../testing/manual-timers';
import { until } from '../../testing/until';

const HOUR = 3_600_000;
const DAY = 86_400_000;
const T0 = Date.UTC(2026, 10, 20);
const DEVICES = ['dev-a', 'dev-b', 'dev-c', 'dev-d'];

/**
 * Runs a mover's timers, each at its due time and each once the move before it has ended, until `done`:
 * the mover's clock moves only from one due move to the next.
 */
const runMovesUntil = (timers: ManualTimers, done: () => boolean | Promise<boolean>) =>
  until(
    async () => {
      const due = timers.nextDue();
      if (due !== null) timers.advance(due - timers.now());
      return done();
    },
    15_000,
    { intervalMs: 1, what: 'The inbox moves' },
  );

/** Samples kept by the duplicate rule (the first stored of a key), in the order they were given. */
function firstStored(...lists: (readonly LogsTable[])[]): LogsTable[] {
  const kept = new Map<string, LogsTable>();
  for (const list of lists) {
    for (const s of list) {
      const key = `${s.device_id}/${s.code}/${s.t}`;
      if (!kept.has(key)) kept.set(key, s);
    }
  }
  return [...kept.values()];
}

const inKeyOrder = (samples: readonly LogsTable[]) =>
  [...samples].sort((a, b) =>
    a.device_id !== b.device_id
      ? a.device_id < b.device_id
        ? -1
        : 1
      : a.code !== b.code
        ? a.code < b.code
          ? -1
          : 1
        : a.t - b.t,
  );

/** Every stored sample, in key order, once the inbox is moved. */
async function storedLogs(db: Storage['db']) {
  await moveInbox(db);
  return logsTable(db);
}

/** A roll-up table in key order, once the inbox is moved. */
async function storedRollups(db: Storage['db'], table: 'logs_hourly' | 'logs_daily') {
  await moveInbox(db);
  return rollupsTable(db, table);
}

const append = (storage: Storage, samples: readonly LogsTable[]) =>
  storage.db.transaction().execute((trx) => appendToInbox(trx, samples));

describe('the SQLite log inbox', () => {
  let storage: Storage;

  beforeAll(async () => {
    storage = openStorage(':memory:');
    await migrate(storage.db);
  });
  afterAll(() => storage.close());
  beforeEach(async () => {
    for (const table of ['logs', 'logs_hourly', 'logs_daily', 'log_inbox_runs', 'latest_values'] as const)
      await storage.db.deleteFrom(table).execute();
  });

  it('puts a device in one shard of 16, each shard one range of row ids, appended in order of arrival', async () => {
    const shards = new Set(Array.from({ length: 1000 }, (_, i) => inboxShard(`device-${i}`)));
    expect(shards.size).toBe(INBOX_SHARDS);
    const samples = [
      { device_id: 'dev-a', code: 'c1', t: T0 + 2, value: 1 },
      { device_id: 'dev-b', code: 'c1', t: T0 + 1, value: 2 },
      { device_id: 'dev-a', code: 'c1', t: T0 + 1, value: 3 },
    ];
    expect((await append(storage, samples)).sort()).toEqual([...new Set(['dev-a', 'dev-b'].map(inboxShard))].sort());
    await append(storage, [{ device_id: 'dev-a', code: 'c2', t: T0, value: 4 }]);
    // A row per batch and shard, its samples as runs of one device in the order of arrival (each time
    // less the one before it in the run).
    const rows = await storage.db.selectFrom('log_inbox_runs').selectAll().orderBy('id').execute();
    const ofA = rows.filter((row) => Math.floor(row.id / 2 ** 40) === inboxShard('dev-a'));
    expect(inboxShard('dev-b')).not.toBe(inboxShard('dev-a'));
    expect(ofA.map((row) => [row.id % 2 ** 40, row.samples, JSON.parse(row.body)])).toEqual([
      [1, 2, [2, ['dev-a', ['c1', T0 + 2, 1, 'c1', -1, 3]]]],
      [2, 1, [2, ['dev-a', ['c2', T0, 4]]]],
    ]);
    expect(await inboxRows(storage.db)).toBe(4);
    // Nothing in `logs` until moved; then all of it, with its roll-ups, and the inbox is empty.
    expect(await storage.db.selectFrom('logs').selectAll().execute()).toEqual([]);
    expect(await moveInbox(storage.db)).toBe(4);
    expect(await inboxRows(storage.db)).toBe(0);
    expect(await storedLogs(storage.db)).toEqual(
      inKeyOrder([...samples, { device_id: 'dev-a', code: 'c2', t: T0, value: 4 }]),
    );
  });

  it('takes over the samples a release before left in `log_inbox`, each value the same double', async () => {
    const old = openStorage(':memory:');
    try {
      await migrate(old.db, '2026-12-13T0600-passkeys');
      const samples = [
        { device_id: 'dev-a', code: 'c1', t: T0 + 2, value: 0.1 + 0.2 },
        { device_id: 'dev-b', code: 'c2', t: T0 + 1, value: 1 / 3 },
        { device_id: 'dev-a', code: 'c1', t: T0 + 1, value: -1.2345678901234568e-300 },
      ];
      for (const [i, { device_id, code, t, value }] of samples.entries()) {
        const id = inboxShard(device_id) * 2 ** 40 + i + 1;
        await sql`insert into log_inbox (id, device_id, code, t, value) values (${id}, ${device_id}, ${code}, ${t}, ${value})`.execute(
          old.db,
        );
      }
      await migrate(old.db);
      expect(await sql`select * from log_inbox`.execute(old.db)).toMatchObject({ rows: [] });
      expect(await inboxRows(old.db)).toBe(3);
      expect(await moveInbox(old.db)).toBe(3);
      expect(await logsTable(old.db)).toEqual(inKeyOrder(samples));
    } finally {
      await old.close();
    }
  });

  it('keeps the first stored of a key across `logs` and the inbox, and never counts a duplicate in the roll-ups', async () => {
    await insertLogs(storage.db, [{ device_id: 'dev-a', code: 'c1', t: T0 + 1000, value: 5 }]);
    await append(storage, [
      { device_id: 'dev-a', code: 'c1', t: T0 + 1000, value: 99 },
      { device_id: 'dev-a', code: 'c1', t: T0 + 2000, value: 1 },
    ]);
    await append(storage, [{ device_id: 'dev-a', code: 'c1', t: T0 + 2000, value: 50 }]);
    // A reader sees exactly what is stored: the inbox's samples are moved for it first.
    expect(await rawLogs(storage.db, { deviceId: 'dev-a', code: 'c1', start: T0, end: T0 + HOUR }, 100)).toEqual([
      { t: T0 + 1000, value: 5 },
      { t: T0 + 2000, value: 1 },
    ]);
    expect(await inboxRows(storage.db)).toBe(0);
    expect((await storedRollups(storage.db, 'logs_hourly'))[0]).toMatchObject({
      sum_value: 6,
      sample_count: 2,
      last_value: 1,
    });
  });

  it('answers every reader as if every sample were in `logs`, whatever is still in the inbox (property)', async () => {
    const sample = fc.record({
      device_id: fc.constantFrom(...DEVICES),
      code: fc.constantFrom('c1', 'c2'),
      t: fc.integer({ min: T0 - 2 * DAY, max: T0 + 3 * DAY }),
      value: fc.integer({ min: -1000, max: 1000 }),
    });
    // History loaded into `logs` first, then frames into the inbox, some devices moved between batches.
    const step = fc.record({
      batch: fc.array(sample, { maxLength: 200 }),
      moved: fc.subarray(DEVICES),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(sample, { maxLength: 200 }),
        fc.array(step, { minLength: 1, maxLength: 5 }),
        async (history, steps) => {
          for (const table of ['logs', 'logs_hourly', 'logs_daily', 'log_inbox_runs'] as const)
            await storage.db.deleteFrom(table).execute();
          await insertLogs(storage.db, history);
          for (const { batch, moved } of steps) {
            await append(storage, batch);
            await moveInbox(storage.db, moved);
          }
          const kept = firstStored(history, ...steps.map((s) => s.batch));
          // Split between `logs` and the inbox as it stands, each reader answers the kept samples...
          const deviceId = DEVICES[0]!;
          const mine = inKeyOrder(kept.filter((s) => s.device_id === deviceId && s.code === 'c1'));
          const window = { deviceId, code: 'c1', start: T0 - 2 * DAY, end: T0 + 4 * DAY };
          expect(await rawLogs(storage.db, window, 10_000)).toEqual(mine.map(({ t, value }) => ({ t, value })));
          const grid = logBinGrid(window.start, window.end, 6);
          const binned = (await channelLogs(storage.db, deviceId, ['c1'], window, 6, grid)).c1!;
          if (mine.length > 6) {
            expect(binned.kind).toBe('bins');
            if (binned.kind === 'bins') {
              const count = (bin: number) =>
                mine.filter(
                  (s) =>
                    Math.max(window.start, grid.origin + Math.floor((s.t - grid.origin) / grid.width) * grid.width) ===
                    bin,
                ).length;
              expect(binned.t.every((bin) => count(bin) > 0)).toBe(true);
              expect(Math.max(...binned.max)).toBe(Math.max(...mine.map((s) => s.value)));
              expect(Math.min(...binned.min)).toBe(Math.min(...mine.map((s) => s.value)));
            }
          }
          // ...and once all of it is moved, `logs` and the roll-ups hold exactly the kept samples.
          expect(await storedLogs(storage.db)).toEqual(inKeyOrder(kept));
          expect(await inboxRows(storage.db)).toBe(0);
          for (const { table, width } of ROLLUP_LEVELS) {
            expect(await storedRollups(storage.db, table)).toEqual(referenceRollups(kept, width));
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it('stands for the latest values of its samples: readers get what per-batch upserts stored (property)', async () => {
    // Few times, so equal times (the later of them wins) and older samples arrive often.
    const sample = fc.record({
      device_id: fc.constantFrom(...DEVICES),
      code: fc.constantFrom('c1', 'c2'),
      t: fc.oneof(fc.integer({ min: T0, max: T0 + 4 }), fc.constant(T0 + 0.5)),
      value: fc.integer({ min: -1000, max: 1000 }),
      extra: fc.constantFrom(null, '{"sp":1}', '{"sp":2}'),
    });
    // `ofSamples`: given as the writer thread gives them (those with an extra, the rest worked out
    // from the samples only where they are upserted rather than stood for).
    const step = fc.record({
      batch: fc.array(sample, { maxLength: 40 }),
      moved: fc.subarray(DEVICES),
      ofSamples: fc.boolean(),
    });
    /** A batch's latest values as the frame writer keeps them (`shouldReplaceLatest`, in order). */
    const latestOf = (batch: readonly LatestValuesTable[]) => {
      const latest = new Map<string, LatestValuesTable>();
      for (const row of batch) {
        const key = `${row.device_id}/${row.code}`;
        if (!latest.has(key) || row.t >= latest.get(key)!.t) latest.set(key, row);
      }
      return [...latest.values()];
    };
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 6 }), async (steps) => {
        for (const table of ['logs', 'logs_hourly', 'logs_daily', 'log_inbox_runs', 'latest_values'] as const)
          await storage.db.deleteFrom(table).execute();
        // What upserting each batch's latest values in its own transaction stored (an older sample
        // never replaces a newer latest value).
        const expected = new Map<string, LatestValuesTable>();
        for (const { batch, moved, ofSamples } of steps) {
          const latest = latestOf(batch);
          const logs = batch.map(({ device_id, code, t, value }) => ({ device_id, code, t, value }));
          const withExtra = latest.filter((row) => row.extra !== null);
          await storage.db
            .transaction()
            .execute((trx) =>
              ofSamples ? appendToInbox(trx, logs, withExtra, () => latest) : appendToInbox(trx, logs, latest),
            );
          for (const row of latest) {
            const key = `${row.device_id}/${row.code}`;
            if (!expected.has(key) || row.t >= expected.get(key)!.t) expected.set(key, row);
          }
          await moveInbox(storage.db, moved);
          const read = await latestValuesOf(storage.db, [DEVICES[0]!]);
          expect(inKeyOrder(read)).toEqual(
            inKeyOrder([...expected.values()].filter((row) => row.device_id === DEVICES[0])),
          );
        }
        expect(inKeyOrder(await latestValuesOf(storage.db, DEVICES))).toEqual(inKeyOrder([...expected.values()]));
        expect(await inboxRows(storage.db)).toBe(0);
      }),
      { numRuns: 60 },
    );
  });

  it('moves the first sample of a time into `logs` and the later as the latest value, in a batch and across', async () => {
    // As the writer thread gives a batch: its latest values those with an extra, the rest its samples'.
    const appendBatch = (batch: LatestValuesTable[], latest: LatestValuesTable[]) =>
      storage.db.transaction().execute((trx) =>
        appendToInbox(
          trx,
          batch.map(({ device_id, code, t, value }) => ({ device_id, code, t, value })),
          latest.filter((row) => row.extra !== null),
          () => latest,
        ),
      );
    const at = (t: number, value: number, extra: string | null = null) => ({
      device_id: 'dev-a',
      code: 'c1',
      t,
      value,
      extra,
    });
    await appendBatch([at(T0 + 1, 1), at(T0, 9), at(T0 + 1, 2, '{"sp":1}')], [at(T0 + 1, 2, '{"sp":1}')]);
    expect(await latestValuesOf(storage.db, ['dev-a'])).toEqual([at(T0 + 1, 2, '{"sp":1}')]);
    await appendBatch([at(T0 + 1, 3), at(T0 + 1, 4)], [at(T0 + 1, 4)]);
    await appendBatch([at(T0 + 1, 5, '{"sp":2}'), at(T0, 6)], [at(T0 + 1, 5, '{"sp":2}')]);
    expect(await latestValuesOf(storage.db, ['dev-a'])).toEqual([at(T0 + 1, 5, '{"sp":2}')]);
    expect(await storedLogs(storage.db)).toEqual([
      { device_id: 'dev-a', code: 'c1', t: T0, value: 9 },
      { device_id: 'dev-a', code: 'c1', t: T0 + 1, value: 1 },
    ]);
  });

  it('writes times as differences when they are whole ms, and moves rows of either format exactly', async () => {
    const whole = [
      { device_id: 'dev-a', code: 'c1', t: T0, value: 0.1 + 0.2 },
      { device_id: 'dev-a', code: 'c2', t: T0, value: -1e-300 },
      { device_id: 'dev-a', code: 'c1', t: T0 - 7, value: 3 },
      { device_id: 'dev-b', code: 'c1', t: -T0, value: 4 },
    ];
    expect(encodeInboxBody(whole)).toBe(
      `[2,["dev-a",["c1",${T0},0.30000000000000004,"c2",0,-1e-300,"c1",-7,3]],["dev-b",["c1",${-T0},4]]]`,
    );
    // With the batch's latest values: the extras of those that have one.
    expect(
      encodeInboxBody(whole, [
        { ...whole[0]!, extra: '{"sp":1}' },
        { ...whole[1]!, extra: null },
      ]),
    ).toBe(
      `[3,["dev-a","c1",${T0},"{\\"sp\\":1}"],["dev-a",["c1",${T0},0.30000000000000004,"c2",0,-1e-300,"c1",-7,3]],["dev-b",["c1",${-T0},4]]]`,
    );
    // A time that is not a whole number of ms keeps the first format (a difference could round it).
    const fractional = [{ device_id: 'dev-c', code: 'c1', t: T0 + 0.1, value: 5 }];
    expect(encodeInboxBody(fractional)).toBe(`[["dev-c",["c1",${T0 + 0.1},5]]]`);
    await append(storage, whole);
    await append(storage, fractional);
    // A row of the first format, as an earlier release wrote it, waiting in the inbox at the upgrade.
    const earlier = [{ device_id: 'dev-d', code: 'c1', t: T0 + 5, value: 6 }];
    await sql`insert into log_inbox_runs (id, samples, body)
      values (${inboxShard('dev-d') * INBOX_SHARD_SPAN + 1000}, 1, ${`[["dev-d",["c1",${T0 + 5},6]]]`})`.execute(
      storage.db,
    );
    expect(await storedLogs(storage.db)).toEqual(inKeyOrder([...whole, ...fractional, ...earlier]));
  });

  it('moves in slices of at most 24,000 samples (whole rows), a shard at a time, between batches', async () => {
    const samples = Array.from({ length: 30_000 }, (_, i) => ({
      device_id: 'dev-a',
      code: `c${i % 10}`,
      t: T0 + i,
      value: i,
    }));
    // 60 batches of 500 samples: 60 rows of the device's shard.
    for (let i = 0; i < samples.length; i += 500) await append(storage, samples.slice(i, i + 500));
    const left: number[] = [];
    const mover = new InboxMover(storage.db, {
      cycleMs: INBOX_SHARDS,
      serialize: async (task) => {
        await task();
        left.push(await inboxRows(storage.db));
      },
    });
    await until(async () => (await inboxRows(storage.db)) === 0);
    await mover.close();
    // Slices: 30,000 -> 6,000 -> 0, each a transaction of its own (the other shards' moves find
    // nothing).
    expect([...new Set(left)].filter((n) => n < 30_000)).toEqual([6000, 0]);
    expect(await storedLogs(storage.db)).toEqual(inKeyOrder(samples));
    for (const { table, width } of ROLLUP_LEVELS) {
      expect(await storedRollups(storage.db, table)).toEqual(referenceRollups(samples, width));
    }
  });

  it('moves the rows a release of 64 shards left, before the newer rows of the same devices', async () => {
    // The release before put a device in shard FNV-1a(id) % 64, at `shard * 2^40 + n`.
    const earlierShard = (id: string) => {
      let hash = 0x811c9dc5;
      for (let i = 0; i < id.length; i += 1) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193);
      return (hash >>> 0) % 64;
    };
    const device = Array.from({ length: 100 }, (_, i) => `dev-${i}`).find((id) => earlierShard(id) >= INBOX_SHARDS)!;
    expect(earlierShard(device) % INBOX_SHARDS).toBe(inboxShard(device));
    // Left by a crash of the release before: two samples, then, after the upgrade, the device's frame
    // sent again (the same key, another value) and a new one.
    await sql`insert into log_inbox_runs (id, samples, body) values (${earlierShard(device) * INBOX_SHARD_SPAN + 7}, 2,
      ${`[2,[${JSON.stringify(device)},["c1",${T0 + 1},1,"c1",1,2]]]`})`.execute(storage.db);
    const newer = [
      { device_id: device, code: 'c1', t: T0 + 2, value: 99 },
      { device_id: device, code: 'c1', t: T0 + 3, value: 3 },
    ];
    await append(storage, newer);
    const stored = [
      { device_id: device, code: 'c1', t: T0 + 1, value: 1 },
      { device_id: device, code: 'c1', t: T0 + 2, value: 2 },
      { device_id: device, code: 'c1', t: T0 + 3, value: 3 },
    ];
    // A reader's move of the device takes both ranges, the earlier first: the first stored is kept.
    expect(await moveInbox(storage.db, [device])).toBe(4);
    expect(await inboxRows(storage.db)).toBe(0);
    expect(await logsTable(storage.db)).toEqual(stored);
    for (const { table, width } of ROLLUP_LEVELS) {
      expect(await rollupsTable(storage.db, table)).toEqual(referenceRollups(stored, width));
    }
    // The mover's first cycle at start takes them too.
    await storage.db.deleteFrom('logs').execute();
    await sql`insert into log_inbox_runs (id, samples, body) values (${earlierShard(device) * INBOX_SHARD_SPAN + 8}, 1,
      ${`[2,[${JSON.stringify(device)},["c2",${T0 + 5},5]]]`})`.execute(storage.db);
    const timers = new ManualTimers();
    let moves = 0;
    const mover = new InboxMover(storage.db, {
      timers,
      serialize: async (task) => {
        await task();
        moves += 1;
      },
    });
    await runMovesUntil(timers, () => moves === INBOX_SHARDS);
    expect(await inboxRows(storage.db)).toBe(0);
    expect(await logsTable(storage.db)).toEqual([{ device_id: device, code: 'c2', t: T0 + 5, value: 5 }]);
    await mover.close();
  });

  it('moves a shard once it has gathered samples for a cycle, and everything left when closed', async () => {
    const timers = new ManualTimers();
    let moves = 0;
    const mover = new InboxMover(storage.db, {
      cycleMs: 300,
      timers,
      serialize: async (task) => {
        await task();
        moves += 1;
      },
    });
    // The shards of a previous run are moved at start, one at a time, a cycle for the 16 of them.
    await runMovesUntil(timers, () => moves === INBOX_SHARDS);
    expect(timers.nextDue()).toBeNull();
    const batch = DEVICES.map((device_id, i) => ({ device_id, code: 'c1', t: T0 + i, value: i }));
    await writeBatch(storage.db, { logs: batch, latest: [], deviceUpdates: [], connections: [] }, mover);
    expect(await inboxRows(storage.db)).toBe(batch.length);
    timers.advance(299);
    // Not moved yet, a millisecond before its cycle: a shard waits about a cycle, so a move holds many
    // samples of each channel.
    expect(moves).toBe(INBOX_SHARDS);
    expect(await inboxRows(storage.db)).toBe(batch.length);
    expect(timers.nextDue()).toBe(timers.now() + 1);
    await runMovesUntil(timers, async () => (await inboxRows(storage.db)) === 0);
    expect(await inboxRows(storage.db)).toBe(0);
    const late = [{ device_id: 'dev-a', code: 'c2', t: T0, value: 7 }];
    await writeBatch(storage.db, { logs: late, latest: [], deviceUpdates: [], connections: [] }, mover);
    await mover.close();
    expect(await inboxRows(storage.db)).toBe(0);
    expect(await storage.db.selectFrom('logs').selectAll().execute()).toHaveLength(batch.length + 1);
  });
});

describe('the SQLite log inbox across a crash and a restart', () => {
  let dir: string;

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fieldlink-inbox-'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('loses and doubles nothing: what was committed into the inbox is moved after the restart', async () => {
    const file = path.join(dir, 'fieldlink.db');
    const first = openStorage(file);
    await migrate(first.db);
    // A mover that never gets to move (a crash before its first slice): the samples stay in the inbox.
    const stalled = new InboxMover(first.db, { serialize: () => Promise.resolve(), cycleMs: 3_600_000 });
    const batches = Array.from({ length: 20 }, (_, b) =>
      DEVICES.flatMap((device_id) =>
        ['c1', 'c2'].map((code, c) => ({ device_id, code, t: T0 + b * 1000, value: b * 10 + c })),
      ),
    );
    for (const logs of batches)
      await writeBatch(first.db, { logs, latest: [], deviceUpdates: [], connections: [] }, stalled);
    // Sent again after the restart, as a device whose PUBACK was lost sends its frame again.
    const resent = batches[batches.length - 1]!.map((s) => ({ ...s, value: -1 }));
    const kept = firstStored(...batches, resent);
    await first.close();

    const second = openStorage(file);
    expect(await inboxRows(second.db)).toBe(batches.flat().length);
    const mover = new InboxMover(second.db);
    await writeBatch(second.db, { logs: resent, latest: [], deviceUpdates: [], connections: [] }, mover);
    await until(async () => (await inboxRows(second.db)) <= resent.length);
    await mover.close();
    expect(await inboxRows(second.db)).toBe(0);
    expect(await storedLogs(second.db)).toEqual(inKeyOrder(kept));
    for (const { table, width } of ROLLUP_LEVELS) {
      expect(await storedRollups(second.db, table)).toEqual(referenceRollups(kept, width));
    }
    await second.close();
  });
});
