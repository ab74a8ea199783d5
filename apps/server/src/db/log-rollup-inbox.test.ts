import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
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
  beforeEach(async () => {
    for (const table of ['logs', 'logs_hourly', 'logs_daily', 'latest_values', 'log_rollup_inbox'] as const)
      await storage.db.deleteFrom(table).execute();
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
    // by a move or not, the move of one device or of all.
    const batch = fc.record({
      samples: fc.oneof(
        fc.array(sample(fc.integer({ min: T0 - 2 * DAY, max: T0 + 3 * DAY })), { maxLength: 300 }),
        fc.array(sample(fc.integer({ min: T0 - 20, max: T0 + 20 })), { maxLength: 300 }),
      ),
      move: fc.constantFrom('none', 'dev-a', 'all'),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(batch, { minLength: 1, maxLength: 5 }), async (batches) => {
        for (const table of ['logs', 'logs_hourly', 'logs_daily', 'latest_values', 'log_rollup_inbox'] as const)
          await storage.db.deleteFrom(table).execute();
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
          if (move !== 'none') await moveInbox(storage.db, move === 'all' ? undefined : [move]);
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
        expect(await storage.db.selectFrom('log_rollup_inbox').selectAll().execute()).toEqual([]);
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

  it('moves by itself on its cycle, and whatever is left when closed', async () => {
    const timers = new ManualTimers();
    const mover = new RollupInboxMover(storage.db, { cycleMs: 1000, timers });
    const inboxRows = async () => (await storage.db.selectFrom('log_rollup_inbox').select('id').execute()).length;
    await insertLogsToRollupInbox(storage.db, [{ device_id: 'dev-a', code: 'c1', t: T0, value: 1 }]);
    timers.advance(0);
    await until(async () => (await inboxRows()) === 0);
    expect(await storedRollups(storage.db, 'logs_hourly')).toHaveLength(1);
    await insertLogsToRollupInbox(storage.db, [{ device_id: 'dev-a', code: 'c1', t: T0 + 1, value: 2 }]);
    await mover.close();
    expect(await inboxRows()).toBe(0);
    expect((await storedRollups(storage.db, 'logs_hourly'))[0]).toMatchObject({ sample_count: 2, sum_value: 3 });
  });
});
