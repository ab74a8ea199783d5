import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sql } from 'kysely';
import { migrate, openStorage, type Storage } from './database';
import { moveInbox } from './log-inbox';
import { insertLogsToRollupInbox, moveRollupInbox, RollupInboxMover } from './log-rollup-inbox';
import { ROLLUP_LEVELS } from './log-writes';
import type { LatestValuesTable, LogsTable } from './schema';
import { freshPostgres, type TestDatabase } from '../../testing/cluster/cluster-apps';
import { referenceRollups, storedLatest, storedLogs, storedRollups } from '../../testing/log-rollups';
import { ManualTimers } from '../../testing/manual-timers';
import { until } from '../../testing/until';

const T0 = Date.UTC(2026, 10, 30, 12);
const DAY = 86_400_000;
const TABLES = [
  'logs',
  'logs_hourly',
  'logs_daily',
  'latest_values',
  'log_rollup_inbox',
  'log_rollup_latest_inbox',
] as const;

/** PostgreSQL only: SQLite has an inbox of samples of its own (db/log-inbox.ts). */
describe('the roll-up inbox (PostgreSQL)', () => {
  let database: TestDatabase;
  let storage: Storage;

  beforeAll(async () => {
    database = await freshPostgres();
    storage = openStorage(database.url);
    await migrate(storage.db);
  });
  afterAll(async () => {
    await storage.close();
    await database.drop();
  });
  /** Both inboxes' rows, in the order appended. */
  const inboxRows = async () => {
    const before = await storage.db.selectFrom('log_rollup_inbox').selectAll().execute();
    const now = await storage.db.selectFrom('log_rollup_latest_inbox').selectAll().execute();
    const latestOf = (row: (typeof before)[number]) =>
      row.sample_count === 0
        ? { latest_t: row.last_t, latest_value: row.last_value }
        : { latest_t: null, latest_value: null };
    return [...before.map((row) => ({ ...row, ...latestOf(row) })), ...now].sort((a, b) => a.id - b.id);
  };
  beforeEach(async () => {
    for (const table of TABLES) await storage.db.deleteFrom(table).execute();
  });

  it('gives the roll-ups and latest values of the raw computation, however the moves fall (property)', async () => {
    const sample = (t: fc.Arbitrary<number>) =>
      fc.record({
        device_id: fc.constantFrom('dev-a', 'dev-b'),
        code: fc.constantFrom('c1', 'c2'),
        t,
        value: fc.integer({ min: -1000, max: 1000 }),
      });
    // Batches over days and batches within a few ms (repeats within and across batches), each followed
    // by a move or not, the move of one device, of one slice (the mover's) or of all.
    const batch = fc.record({
      samples: fc.oneof(
        fc.array(sample(fc.integer({ min: T0 - 2 * DAY, max: T0 + 3 * DAY })), { maxLength: 300 }),
        fc.array(sample(fc.integer({ min: T0 - 20, max: T0 + 20 })), { maxLength: 300 }),
      ),
      move: fc.constantFrom('none', 'dev-a', 'all', 0, 1, 2, 3),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(batch, { minLength: 1, maxLength: 5 }), async (batches) => {
        for (const table of TABLES) await storage.db.deleteFrom(table).execute();
        const kept = new Map<string, LogsTable>();
        const latest = new Map<string, LatestValuesTable>();
        for (const [index, { samples, move }] of batches.entries()) {
          let fresh = 0;
          // As the frame writer gives them: the latest of each channel of the batch, a later one of the
          // same time replacing (core §4).
          const batchLatest = new Map<string, LatestValuesTable>();
          for (const s of samples) {
            const key = `${s.device_id}/${s.code}/${s.t}`;
            if (!kept.has(key)) {
              kept.set(key, s);
              fresh += 1;
            }
            const channel = `${s.device_id}/${s.code}`;
            const current = batchLatest.get(channel);
            if (!current || s.t >= current.t) batchLatest.set(channel, { ...s, extra: null });
          }
          for (const [channel, row] of batchLatest) {
            const current = latest.get(channel);
            if (!current || row.t >= current.t) latest.set(channel, row);
          }
          const insert = (db: typeof storage.db) => insertLogsToRollupInbox(db, samples, [...batchLatest.values()]);
          const inserted = index % 2 === 0 ? await insert(storage.db) : await storage.db.transaction().execute(insert);
          expect(inserted).toBe(fresh);
          if (typeof move === 'number') await moveRollupInbox(storage.db, undefined, move);
          else if (move !== 'none') await moveInbox(storage.db, move === 'all' ? undefined : [move]);
        }
        await moveInbox(storage.db);
        expect(await storedLogs(storage.db)).toHaveLength(kept.size);
        for (const { table, width } of ROLLUP_LEVELS) {
          expect(await storedRollups(storage.db, table)).toEqual(referenceRollups([...kept.values()], width));
        }
        const expected = [...latest.values()].sort(
          (a, b) => a.device_id.localeCompare(b.device_id) || a.code.localeCompare(b.code),
        );
        expect(await storedLatest(storage.db)).toEqual(expected);
        expect(await inboxRows()).toEqual([]);
      }),
      { numRuns: 25 },
    );
  });

  it('moves only the devices asked for; a newer latest value stays, the later of one time replaces', async () => {
    const latest = (device_id: string, t: number, value: number) => ({ device_id, code: 'c1', t, value, extra: null });
    await insertLogsToRollupInbox(storage.db, [], [latest('dev-a', T0 + 2000, 2), latest('dev-b', T0, 1)]);
    expect(await moveRollupInbox(storage.db, ['dev-a'])).toBe(1);
    expect(await storedLatest(storage.db)).toEqual([latest('dev-a', T0 + 2000, 2)]);
    await insertLogsToRollupInbox(storage.db, [], [latest('dev-a', T0 + 1000, 9)]);
    expect(await moveRollupInbox(storage.db)).toBe(2);
    expect(await storedLatest(storage.db)).toEqual([latest('dev-a', T0 + 2000, 2), latest('dev-b', T0, 1)]);
    // Two batches' values of one time moved together: the later batch's is believed (core §4).
    await insertLogsToRollupInbox(storage.db, [], [latest('dev-b', T0 + 5, 3)]);
    await insertLogsToRollupInbox(storage.db, [], [latest('dev-b', T0 + 5, 4)]);
    await moveRollupInbox(storage.db);
    expect((await storedLatest(storage.db))[1]).toEqual(latest('dev-b', T0 + 5, 4));
  });

  it('carries a latest value on its roll-up row; a frame sent again at a stored time still replaces it', async () => {
    const sample = (t: number, value: number) => ({ device_id: 'dev-a', code: 'c1', t, value });
    const latestOf = (t: number, value: number, extra: string | null = null) => ({ ...sample(t, value), extra });
    // The inbox's rows by hour (a batch's rows come in no order).
    const shapes = async () =>
      (await inboxRows())
        .sort((a, b) => a.t - b.t)
        .map(({ t, sample_count, latest_t, latest_value, extra }) => ({
          t,
          sample_count,
          latest: latest_t === null ? null : [latest_t, latest_value, extra],
        }));
    // The steady stream: the batch's latest value is its last sample, so the inbox holds one row per
    // channel and hour, the last hour's carrying the latest value and its extra.
    await insertLogsToRollupInbox(
      storage.db,
      [sample(T0 - 1000, 1), sample(T0 + 1000, 2), sample(T0 + 2000, 3)],
      [latestOf(T0 + 2000, 3, 'x')],
    );
    expect(await shapes()).toEqual([
      { t: T0 - 3_600_000, sample_count: 1, latest: null },
      { t: T0, sample_count: 2, latest: [T0 + 2000, 3, 'x'] },
    ]);
    await moveRollupInbox(storage.db);
    expect(await storedLatest(storage.db)).toEqual([latestOf(T0 + 2000, 3, 'x')]);
    // The same frame again with another value: no sample is inserted, and its latest value replaces
    // the stored one (an equal time replaces: core §4).
    expect(await insertLogsToRollupInbox(storage.db, [sample(T0 + 2000, 7)], [latestOf(T0 + 2000, 7)])).toBe(0);
    expect(await shapes()).toEqual([{ t: T0, sample_count: 0, latest: [T0 + 2000, 7, null] }]);
    await moveRollupInbox(storage.db);
    expect(await storedLatest(storage.db)).toEqual([latestOf(T0 + 2000, 7)]);
    expect(await storedRollups(storage.db, 'logs_hourly')).toMatchObject([{ sample_count: 1 }, { sample_count: 2 }]);
    // Twice in one batch with two values: the insert keeps the first, the latest value is the second.
    expect(
      await insertLogsToRollupInbox(storage.db, [sample(T0 + 3000, 4), sample(T0 + 3000, 5)], [latestOf(T0 + 3000, 5)]),
    ).toBe(1);
    await moveRollupInbox(storage.db);
    expect(await storedLatest(storage.db)).toEqual([latestOf(T0 + 3000, 5)]);
    expect((await storedRollups(storage.db, 'logs_hourly')).at(-1)).toMatchObject({ last_t: T0 + 3000, last_value: 4 });
  });

  it("moves the previous release's rows too, the later appended of one time kept across both tables", async () => {
    // The previous release, beside this one in a rolling upgrade, appends latest values as rows of
    // their own to `log_rollup_inbox`.
    const before = (t: number, value: number) =>
      storage.db
        .insertInto('log_rollup_inbox')
        .values({ device_id: 'dev-a', code: 'c1', t, sample_count: 0, last_t: t, last_value: value, extra: null })
        .execute();
    const latestOf = (t: number, value: number) => ({ device_id: 'dev-a', code: 'c1', t, value, extra: null });
    await before(T0, 1);
    await insertLogsToRollupInbox(storage.db, [{ device_id: 'dev-a', code: 'c1', t: T0, value: 2 }], [latestOf(T0, 2)]);
    expect(await moveRollupInbox(storage.db)).toBe(2);
    expect(await storedLatest(storage.db)).toEqual([latestOf(T0, 2)]);
    await insertLogsToRollupInbox(storage.db, [], [latestOf(T0 + 5, 3)]);
    await before(T0 + 5, 4);
    await moveRollupInbox(storage.db);
    expect(await storedLatest(storage.db)).toEqual([latestOf(T0 + 5, 4)]);
    expect(await inboxRows()).toEqual([]);
    expect(await storedRollups(storage.db, 'logs_hourly')).toMatchObject([{ sample_count: 1, last_value: 2 }]);
  });

  /** How many times a slice (a partition) of the inbox was vacuumed other than by autovacuum. */
  const vacuums = async (slice: number) => {
    const { rows } = await sql<{ n: string }>`select vacuum_count as n from pg_stat_user_tables
      where relname = ${`log_rollup_latest_inbox_${slice}`}`.execute(storage.db);
    return Number(rows[0]!.n);
  };

  it('moves a slice of the devices every quarter cycle, each once a cycle, and whatever is left when closed', async () => {
    const timers = new ManualTimers();
    const vacuumedBefore = await vacuums(0);
    const mover = new RollupInboxMover(storage.db, { cycleMs: 1000, timers });
    const devices = Array.from({ length: 12 }, (_, i) => `dev-${i}`);
    const inboxDevices = async () => new Set((await inboxRows()).map((row) => row.device_id));
    const nextMove = async (due: number) => {
      // The next slice's move is set once the one before has ended.
      await until(() => timers.waiting() === 1);
      expect(timers.nextDue()).toBe(due);
      timers.advance(due - timers.now());
    };
    await insertLogsToRollupInbox(
      storage.db,
      devices.map((device_id) => ({ device_id, code: 'c1', t: T0, value: 1 })),
    );
    await nextMove(0);
    await until(() => timers.waiting() === 1);
    // The moved slice is vacuumed, so that the next batches use its rows' space again.
    await until(async () => (await vacuums(0)) > vacuumedBefore);
    // A slice moved whole; the others wait for their turn.
    const left = await inboxDevices();
    expect(left.size).toBeGreaterThan(0);
    expect(left.size).toBeLessThan(devices.length);
    expect((await storedRollups(storage.db, 'logs_hourly')).map((row) => row.device_id).sort()).toEqual(
      devices.filter((device) => !left.has(device)).sort(),
    );
    for (const due of [250, 500, 750]) await nextMove(due);
    await until(async () => (await inboxDevices()).size === 0);
    expect(await storedRollups(storage.db, 'logs_hourly')).toHaveLength(devices.length);
    await insertLogsToRollupInbox(storage.db, [{ device_id: 'dev-a', code: 'c1', t: T0 + 1, value: 2 }]);
    await mover.close();
    expect(await inboxRows()).toEqual([]);
    expect(await storedRollups(storage.db, 'logs_hourly')).toHaveLength(devices.length + 1);
  });
});
