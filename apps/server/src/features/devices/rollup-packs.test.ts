import { afterEach, describe, expect, it } from 'vitest';
import { migrate, type Dialect, type Storage } from '../../db/database';
import { insertLogs, rollUp, ROLLUP_LEVELS } from '../../db/log-writes';
import type { LogsTable } from '../../db/schema';
import { allRollups, referenceRollups, storedLogs, storedRollups } from '../../../testing/log-rollups';
import { DIALECTS } from '../../../testing/test-app';
import { testStorages } from '../../../testing/test-storage';
import { deletePackedBefore, firstRowsBefore, monthStartOf, packClosedMonths } from './rollup-packs';

const BEFORE = '2026-12-06T0000-rollups-per-batch';
const HOUR = 3_600_000;
const DAY = 86_400_000;
const DEVICES = ['dev-a', 'dev-b'];

describe.each(DIALECTS)('packed roll-ups on %s', (dialect: Dialect) => {
  const storages = testStorages(dialect);
  const open = () => storages.open();
  afterEach(() => storages.close());

  const thisMonth = monthStartOf(Date.now());
  /** Two devices, two channels, 7-minute samples in four months (one 14 months back, one this month). */
  const samples = (): LogsTable[] => {
    const made: LogsTable[] = [];
    for (const device_id of DEVICES)
      for (const code of ['c1', 'sp2'])
        for (const monthStart of [thisMonth - 420 * DAY, thisMonth - 40 * DAY, thisMonth - 20 * DAY, thisMonth])
          for (let i = 0; i < 400; i += 1) {
            made.push({ device_id, code, t: monthStart + i * 7 * 60_000 + 1234, value: ((i * 37) % 101) - 50.5 });
          }
    return made;
  };
  const store = async (db: Storage, rows: readonly LogsTable[]) => {
    for (let i = 0; i < rows.length; i += 500) await insertLogs(db.db, rows.slice(i, i + 500));
  };
  /**
   * A database at {@link BEFORE} as the writers of its time left it, samples and their roll-ups:
   * today's `insertLogs` also reads tables made after it (the hourly sample blocks).
   */
  const storeBefore = async (db: Storage, rows: readonly LogsTable[]) => {
    for (let i = 0; i < rows.length; i += 500) {
      await db.db
        .insertInto('logs')
        .values(rows.slice(i, i + 500))
        .execute();
    }
    for (const { table, width } of ROLLUP_LEVELS) {
      const buckets = rollUp(rows, width);
      for (let i = 0; i < buckets.length; i += 500) {
        await db.db
          .insertInto(table)
          .values(buckets.slice(i, i + 500))
          .execute();
      }
    }
  };
  const packAll = async (db: Storage) => {
    let moved = 0;
    for (const deviceId of DEVICES) moved += await packClosedMonths(db.db, deviceId, thisMonth);
    return moved;
  };

  it('moves the roll-ups of an existing database to packed periods without loss', async () => {
    const db = await open();
    await migrate(db.db, BEFORE);
    await storeBefore(db, samples());
    const hourly = await storedRollups(db.db, 'logs_hourly');
    const daily = await storedRollups(db.db, 'logs_daily');

    await migrate(db.db);
    const moved = await packAll(db);

    const openMonth = (rows: readonly { t: number }[]) => rows.filter((row) => row.t >= thisMonth);
    expect(moved).toBe(hourly.length + daily.length - openMonth(hourly).length - openMonth(daily).length);
    expect(await allRollups(db.db, 'logs_hourly')).toEqual(hourly);
    expect(await allRollups(db.db, 'logs_daily')).toEqual(daily);
    // Only the running month stays in rows; the closed ones are one row per channel and period: a
    // month of hours, a year of days.
    expect(await storedRollups(db.db, 'logs_hourly')).toEqual(openMonth(hourly));
    expect(await storedRollups(db.db, 'logs_daily')).toEqual(openMonth(daily));
    const closed = samples().filter((s) => s.t < thisMonth);
    const months = new Set(closed.map((s) => monthStartOf(s.t))).size;
    const years = new Set(closed.map((s) => new Date(s.t).getUTCFullYear())).size;
    const packs = await db.db.selectFrom('logs_rollup_packs').select('level').execute();
    expect(packs.filter((row) => row.level === HOUR)).toHaveLength(DEVICES.length * 2 * months);
    expect(packs.filter((row) => row.level === DAY)).toHaveLength(DEVICES.length * 2 * years);
    // A second run finds nothing to pack.
    expect(await packAll(db)).toBe(0);
  });

  it('counts samples that come late for a packed month, and packs them into it at the next run', async () => {
    const db = await storages.openMigrated();
    const first = samples();
    await store(db, first);
    await packAll(db);
    // Late samples of a packed month: in a bucket that has samples (before and after its last one),
    // in a new hour and day, and a sample sent again (skipped, not counted twice).
    const packedMonth = thisMonth - 40 * DAY;
    const late: LogsTable[] = [
      { device_id: 'dev-a', code: 'c1', t: packedMonth + 30, value: 1e6 },
      { device_id: 'dev-a', code: 'c1', t: packedMonth + HOUR - 1, value: -1e6 },
      { device_id: 'dev-a', code: 'c1', t: packedMonth + 10 * DAY + 5, value: 3.25 },
      { ...first[1]!, value: 99 },
    ];
    await insertLogs(db.db, late);
    const stored = await storedLogs(db.db);
    expect(stored).toHaveLength(first.length + 3);
    const expectedHourly = referenceRollups(stored, HOUR);
    const expectedDaily = referenceRollups(stored, DAY);
    expect(await allRollups(db.db, 'logs_hourly')).toEqual(expectedHourly);
    expect(await allRollups(db.db, 'logs_daily')).toEqual(expectedDaily);
    expect(await packAll(db)).toBe(2 + 2);
    expect(await allRollups(db.db, 'logs_hourly')).toEqual(expectedHourly);
    expect(await allRollups(db.db, 'logs_daily')).toEqual(expectedDaily);
    expect((await storedRollups(db.db, 'logs_daily')).every((row) => row.t >= thisMonth)).toBe(true);
  });

  it('deletes packed buckets past their retention: whole periods, and the period holding the cutoff in part', async () => {
    const db = await storages.openMigrated();
    await store(db, samples());
    await packAll(db);
    const before = await allRollups(db.db, 'logs_hourly');
    // A cutoff inside the month packed 40 days back.
    const cutoff = thisMonth - 40 * DAY + 10 * HOUR + 1;
    const removed = await deletePackedBefore(db.db, 'dev-a', cutoff);
    const gone = (bucket: { device_id: string; t: number }) => bucket.device_id === 'dev-a' && bucket.t < cutoff;
    const expectedHourly = before.filter((bucket) => !gone(bucket));
    expect(await allRollups(db.db, 'logs_hourly')).toEqual(expectedHourly);
    const daily = await allRollups(db.db, 'logs_daily');
    expect(daily.some(gone)).toBe(false);
    expect(daily.some((bucket) => bucket.device_id === 'dev-b' && bucket.t < cutoff)).toBe(true);
    expect(removed).toBeGreaterThan(before.length - expectedHourly.length);
    // Nothing more to remove at the same cutoff.
    expect(await deletePackedBefore(db.db, 'dev-a', cutoff)).toBe(0);
  });
  it('finds, in one statement per device, the channels with a row before a time and their first', async () => {
    const db = await storages.openMigrated();
    const at = (code: string, t: number) => ({ device_id: 'dev-a', code, t, value: 1 });
    await insertLogs(db.db, [at('c1', 5000), at('c1', 9000), at('c2', 7000), at('c3', 20_000)]);
    await insertLogs(db.db, [{ device_id: 'dev-b', code: 'c1', t: 1000, value: 1 }]);
    const firsts = (codes: string[], before: number) =>
      firstRowsBefore(db.db, 'logs', 'dev-a', codes, before).then((found) => Object.fromEntries(found));
    expect(await firsts(['c1', 'c2', 'c3', 'none'], 10_000)).toEqual({ c1: 5000, c2: 7000 });
    expect(await firsts(['c2', 'c3'], 7000)).toEqual({});
    expect(await firsts(['c3'], 20_001)).toEqual({ c3: 20_000 });
    expect(await firsts([], 1e12)).toEqual({});
  });
});
