import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sql } from 'kysely';
import { logBinGrid } from '@fieldlink/api/device-logs';
import { migrate, type Dialect, type Storage } from './database';
import { compactHours, hourOf, storedSamples } from './log-blocks';
import { insertLogs } from './log-writes';
import type { LogsTable } from './schema';
import { testStorages } from '../../testing/test-storage';
import { DIALECTS } from '../../testing/test-app';
import {
  binnedLogs,
  channelLogs,
  intervalBins,
  lastSampleBefore,
  rawLogs,
  type LogBin,
  type LogBinColumns,
} from '../features/devices/log-repository';

const MINUTE = 60_000;
const HOUR = 3_600_000;
/** A Monday, 00:00 UTC: the series start here, so hours and days fall on whole buckets. */
const T0 = Date.UTC(2026, 5, 1);
const SPAN = 3 * 24 * HOUR;

/** A series of one channel: distinct times within {@link SPAN} of T0, values with and without decimals. */
const seriesArbitrary = fc
  .uniqueArray(fc.integer({ min: 0, max: SPAN / 1000 - 1 }), { minLength: 1, maxLength: 250 })
  .chain((seconds) =>
    fc.tuple(
      fc.constant(seconds.map((s) => T0 + s * 1000 + (s % 7) * 13)),
      fc.array(
        fc.oneof(
          fc.integer({ min: -5000, max: 5000 }).map((n) => n / 100),
          fc.double({ min: -1e6, max: 1e6, noNaN: true, noDefaultInfinity: true }),
        ),
        { minLength: seconds.length, maxLength: seconds.length },
      ),
    ),
  );

const windowArbitrary = fc
  .tuple(fc.integer({ min: -2 * HOUR, max: SPAN + 2 * HOUR }), fc.integer({ min: 1, max: SPAN }))
  .map(([from, length]) => ({ start: T0 + from, end: T0 + from + length }));

/** What a query asks of the readers: windows, limits, widths and times. */
const queryArbitrary = fc.record({
  window: windowArbitrary,
  limit: fc.oneof(fc.integer({ min: 1, max: 40 }), fc.constant(10_000)),
  width: fc.constantFrom(MINUTE, 7 * MINUTE, 15 * MINUTE, HOUR, 5 * HOUR),
  binCount: fc.integer({ min: 2, max: 60 }),
  before: fc.integer({ min: -HOUR, max: SPAN + HOUR }).map((offset) => T0 + offset),
});

type Query = typeof queryArbitrary extends fc.Arbitrary<infer Q> ? Q : never;

/** The answers of every reader of samples to one query. */
async function answers(storage: Storage, deviceId: string, query: Query) {
  const db = storage.db;
  const { start, end } = query.window;
  const window = { deviceId, code: 'c1', start, end };
  const count = Math.ceil((end - start) / query.width);
  return {
    raw: await rawLogs(db, window, query.limit),
    binned: await binnedLogs(db, window, query.width, count),
    intervals: binsOf(await intervalBins(db, window, query.width)),
    last: (await lastSampleBefore(db, deviceId, 'c1', query.before)) ?? null,
    channel: await channelLogs(db, deviceId, ['c1'], window, query.binCount, logBinGrid(start, end, query.binCount)),
  };
}

/** A report's bin columns as a list of bins. */
function binsOf(columns: LogBinColumns): LogBin[] {
  return Array.from({ length: columns.length }, (_, at) => ({
    index: columns.index[at]!,
    min: columns.min[at]!,
    max: columns.max[at]!,
    avg: columns.avg[at]!,
    last: columns.last[at]!,
  }));
}

/** Means may differ in their last bits: the database and the fold here sum in other orders. */
function expectSameBins(actual: LogBin[], expected: LogBin[]): void {
  expect(actual.map(({ avg: _avg, ...bin }) => bin)).toEqual(expected.map(({ avg: _avg, ...bin }) => bin));
  actual.forEach((bin, i) => {
    const avg = expected[i]!.avg;
    expect(Math.abs(bin.avg - avg)).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(avg)));
  });
}

function expectSameAnswers(actual: Awaited<ReturnType<typeof answers>>, expected: typeof actual): void {
  expect(actual.raw).toEqual(expected.raw);
  expectSameBins(actual.binned, expected.binned);
  expectSameBins(actual.intervals, expected.intervals);
  expect(actual.last).toEqual(expected.last);
  const channel = actual.channel.c1!;
  const reference = expected.channel.c1!;
  if (channel.kind === 'bins' && reference.kind === 'bins') {
    const { avg, ...rest } = channel;
    const { avg: referenceAvg, ...referenceRest } = reference;
    expect(rest).toEqual(referenceRest);
    avg.forEach((value, i) => expect(value).toBeCloseTo(referenceAvg[i]!, 6));
  } else expect(channel).toEqual(reference);
}

describe.each(DIALECTS)('log blocks migration on %s', (dialect: Dialect) => {
  it('adds the blocks to a database with samples, which all read the same before and after compaction', async () => {
    const storages = testStorages(dialect);
    const storage = await storages.open();
    try {
      const db = storage.db;
      await migrate(db, '2026-12-06T0000-rollups-per-batch');
      const now = Date.now();
      const samples: LogsTable[] = [];
      // Minute samples of two channels 14 months back, 40 days back and now, and one stamped 1970.
      for (const code of ['c1', 'sp2'])
        for (const back of [420, 40, 0])
          for (let i = 0; i < 150; i += 1)
            samples.push({ device_id: 'dev-a', code, t: now - back * 24 * HOUR - i * MINUTE, value: (i % 13) / 4 });
      samples.push({ device_id: 'dev-a', code: 'c1', t: 42_000, value: 7 });
      for (let i = 0; i < samples.length; i += 500) {
        await db
          .insertInto('logs')
          .values(samples.slice(i, i + 500))
          .execute();
      }
      await migrate(db);
      const window = { deviceId: 'dev-a', codes: ['c1', 'sp2'], from: 0, to: now + HOUR };
      const expected = [...samples]
        .sort((a, b) => a.code.localeCompare(b.code) || a.t - b.t)
        .map(({ code, t, value }) => ({ code, t, value }));
      expect(await storedSamples(db, window)).toEqual(expected);
      if (dialect === 'postgres') {
        // Every month the samples have a partition for has one for the blocks too.
        const parts = async (parent: string) =>
          (
            await sql<{
              name: string;
            }>`select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
              where i.inhparent = ${parent}::regclass order by 1`.execute(db)
          ).rows.map((row) => row.name.replace(/^log_blocks_/, 'logs_'));
        expect(await parts('log_blocks')).toEqual(await parts('logs'));
      }
      const hours = new Set(samples.map((sample) => `${sample.code} ${hourOf(sample.t)}`));
      for (const key of hours) {
        const [code, hour] = key.split(' ') as [string, string];
        await compactHours(db, 'dev-a', code, Number(hour), Number(hour) + HOUR);
      }
      expect(await db.selectFrom('logs').select('t').execute()).toEqual([]);
      expect(await storedSamples(db, window)).toEqual(expected);
    } finally {
      await storages.close();
    }
  });
});

describe.each(DIALECTS)('samples in hourly blocks on %s', (dialect: Dialect) => {
  const storages = testStorages(dialect);
  let storage: Storage;
  let run = 0;

  beforeAll(async () => {
    storage = await storages.openMigrated();
  });
  afterAll(() => storages.close());

  it('compacts an hour into one block and reads it back with the rows around it', async () => {
    const db = storage.db;
    const samples: LogsTable[] = Array.from({ length: 180 }, (_, i) => ({
      device_id: 'fixed',
      code: 'c1',
      t: T0 + i * MINUTE,
      value: i % 3 === 0 ? i / 10 : Math.sin(i),
    }));
    await insertLogs(db, samples);
    expect(await compactHours(db, 'fixed', 'c1', T0 + HOUR, T0 + 2 * HOUR)).toBe(60);
    expect(await compactHours(db, 'fixed', 'c1', T0 + HOUR, T0 + 2 * HOUR)).toBe(0);
    const blocks = await db
      .selectFrom('log_blocks')
      .select(['t', 'sample_count'])
      .where('device_id', '=', 'fixed')
      .execute();
    expect(blocks).toEqual([{ t: T0 + HOUR, sample_count: 60 }]);
    const rows = await db.selectFrom('logs').select('t').where('device_id', '=', 'fixed').execute();
    expect(rows).toHaveLength(120);
    const all = { deviceId: 'fixed', codes: ['c1'], from: T0, to: T0 + 3 * HOUR };
    const expected = samples.map(({ code, t, value }) => ({ code, t, value }));
    expect(await storedSamples(db, all)).toEqual(expected);
    expect(await storedSamples(db, all, { descending: true })).toEqual([...expected].reverse());
    expect(await storedSamples(db, all, { limit: 70 })).toEqual(expected.slice(0, 70));
    expect(await storedSamples(db, all, { limit: 130, descending: true })).toEqual(
      [...expected].reverse().slice(0, 130),
    );
  });

  it('merges a late sample into its block, keeping the sample already stored at the same time', async () => {
    const db = storage.db;
    const at = (minute: number, value: number) => ({ device_id: 'late', code: 'c1', t: T0 + minute * MINUTE, value });
    await insertLogs(db, [at(0, 1), at(10, 2), at(20, 3)]);
    await compactHours(db, 'late', 'c1', T0, T0 + HOUR);
    // Stored late, as rows beside the block: a new time, and a time the block holds with another value.
    await db
      .insertInto('logs')
      .values([at(5, 9), at(10, 99)])
      .execute();
    const hour = { deviceId: 'late', codes: ['c1'], from: T0, to: T0 + HOUR };
    const expected = [at(0, 1), at(5, 9), at(10, 2), at(20, 3)].map(({ code, t, value }) => ({ code, t, value }));
    expect(await storedSamples(db, hour)).toEqual(expected);
    expect(await storedSamples(db, hour, { limit: 3 })).toEqual(expected.slice(0, 3));
    expect(await compactHours(db, 'late', 'c1', T0, T0 + HOUR)).toBe(2);
    expect(await storedSamples(db, hour)).toEqual(expected);
    const block = await db.selectFrom('log_blocks').select('sample_count').where('device_id', '=', 'late').execute();
    expect(block).toEqual([{ sample_count: 4 }]);
    expect(await db.selectFrom('logs').select('t').where('device_id', '=', 'late').execute()).toEqual([]);
  });

  it('skips a sample sent again for an hour already compacted, in the log and in the roll-ups', async () => {
    const db = storage.db;
    const at = (minute: number, value: number) => ({ device_id: 'resent', code: 'c1', t: T0 + minute * MINUTE, value });
    await insertLogs(db, [at(0, 1), at(10, 2), at(20, 3)]);
    await compactHours(db, 'resent', 'c1', T0, T0 + HOUR);
    expect(await insertLogs(db, [at(10, 50), at(30, 4)])).toBe(1);
    const hour = { deviceId: 'resent', codes: ['c1'], from: T0, to: T0 + HOUR };
    expect(await storedSamples(db, hour)).toEqual(
      [at(0, 1), at(10, 2), at(20, 3), at(30, 4)].map(({ code, t, value }) => ({ code, t, value })),
    );
    const rollup = await db
      .selectFrom('logs_hourly')
      .select(['sample_count', 'sum_value', 'max_value'])
      .where('device_id', '=', 'resent')
      .execute();
    expect(rollup).toEqual([{ sample_count: 4, sum_value: 10, max_value: 4 }]);
  });

  it('answers every reader identically before and after compaction, late samples included', async () => {
    await fc.assert(
      fc.asyncProperty(
        seriesArbitrary,
        fc.array(fc.boolean(), { minLength: 72, maxLength: 72 }),
        fc.array(queryArbitrary, { minLength: 1, maxLength: 4 }),
        async ([times, values], compacted, queries) => {
          const db = storage.db;
          const deviceId = `prop-${(run += 1)}`;
          const samples = times.map((t, i) => ({ device_id: deviceId, code: 'c1', t, value: values[i]! }));
          await insertLogs(db, samples);
          const before = [];
          for (const query of queries) before.push(await answers(storage, deviceId, query));
          // Some hours become blocks; then late copies of their samples arrive as rows (a frame sent
          // again), which every reader must skip as a duplicate, before and after the next compaction.
          const hours = [...new Set(times.map(hourOf))].filter((hour) => compacted[(hour - T0) / HOUR]);
          for (const hour of hours) await compactHours(db, deviceId, 'c1', hour, hour + HOUR);
          const late = samples
            .filter((sample, i) => i % 3 === 0 && hours.includes(hourOf(sample.t)))
            .map((sample) => ({ ...sample, value: sample.value + 1 }));
          if (late.length > 0) await db.insertInto('logs').values(late).execute();
          for (const [i, query] of queries.entries()) {
            expectSameAnswers(await answers(storage, deviceId, query), before[i]!);
          }
          // Then every hour at once, in one transaction: blocks with late rows, and hours never compacted.
          await compactHours(db, deviceId, 'c1', T0, T0 + SPAN);
          expect(await db.selectFrom('logs').select('t').where('device_id', '=', deviceId).execute()).toEqual([]);
          for (const [i, query] of queries.entries()) {
            expectSameAnswers(await answers(storage, deviceId, query), before[i]!);
          }
        },
      ),
      { numRuns: 20 },
    );
    // A run stores, compacts and reads a few hundred samples about a dozen times: seconds under load.
  }, 240_000);
});
