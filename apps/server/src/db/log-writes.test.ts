import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { migrate, openStorage, type Dialect, type Storage } from './database';
import { compareKeys, insertLogs, rollUp, rollUpStoredSamples, ROLLUP_LEVELS } from './log-writes';
import type { LogsTable } from './schema';
import { freshPostgres, type TestDatabase } from '../../testing/cluster/cluster-apps';
import { referenceRollups, storedLatest, storedLogs, storedRollups } from '../../testing/log-rollups';
import { DIALECTS } from '../../testing/test-app';

const HOUR = 3_600_000;
const DAY = 86_400_000;
const T0 = Date.UTC(2026, 10, 20);

describe('rollUp', () => {
  it.each([
    {
      name: 'one bucket: min, max, sum, count, and the value at the latest time (not the last given)',
      samples: [
        { device_id: 'a', code: 'c1', t: T0 + 5000, value: 2 },
        { device_id: 'a', code: 'c1', t: T0 + 9000, value: -1 },
        { device_id: 'a', code: 'c1', t: T0 + 1000, value: 7 },
      ],
      width: HOUR,
      expected: [
        {
          device_id: 'a',
          code: 'c1',
          t: T0,
          min_value: -1,
          max_value: 7,
          sum_value: 8,
          sample_count: 3,
          last_t: T0 + 9000,
          last_value: -1,
        },
      ],
    },
    {
      name: 'buckets per device, channel and UTC hour, in key order; before 1970 floors down',
      samples: [
        { device_id: 'b', code: 'c1', t: T0 + HOUR, value: 1 },
        { device_id: 'a', code: 'c2', t: T0, value: 2 },
        { device_id: 'a', code: 'c1', t: -1, value: 3 },
      ],
      width: HOUR,
      expected: [
        {
          device_id: 'a',
          code: 'c1',
          t: -HOUR,
          min_value: 3,
          max_value: 3,
          sum_value: 3,
          sample_count: 1,
          last_t: -1,
          last_value: 3,
        },
        {
          device_id: 'a',
          code: 'c2',
          t: T0,
          min_value: 2,
          max_value: 2,
          sum_value: 2,
          sample_count: 1,
          last_t: T0,
          last_value: 2,
        },
        {
          device_id: 'b',
          code: 'c1',
          t: T0 + HOUR,
          min_value: 1,
          max_value: 1,
          sum_value: 1,
          sample_count: 1,
          last_t: T0 + HOUR,
          last_value: 1,
        },
      ],
    },
    {
      name: 'a UTC day holds its 24 hours',
      samples: [
        { device_id: 'a', code: 'c1', t: T0, value: 4 },
        { device_id: 'a', code: 'c1', t: T0 + DAY - 1, value: 6 },
      ],
      width: DAY,
      expected: [
        {
          device_id: 'a',
          code: 'c1',
          t: T0,
          min_value: 4,
          max_value: 6,
          sum_value: 10,
          sample_count: 2,
          last_t: T0 + DAY - 1,
          last_value: 6,
        },
      ],
    },
    {
      name: 'of samples at the same time, the later in order is the last value',
      samples: [
        { device_id: 'a', code: 'c1', t: T0 + 5000, value: 2 },
        { device_id: 'a', code: 'c1', t: T0 + 5000, value: 9 },
      ],
      width: HOUR,
      expected: [
        {
          device_id: 'a',
          code: 'c1',
          t: T0,
          min_value: 2,
          max_value: 9,
          sum_value: 11,
          sample_count: 2,
          last_t: T0 + 5000,
          last_value: 9,
        },
      ],
    },
  ])('$name', ({ samples, width, expected }) => {
    expect(rollUp(samples, width)).toEqual(expected);
  });

  it('gives the buckets of the raw computation, in key order, whatever order the samples come in (property)', () => {
    const sample = fc.record({
      device_id: fc.constantFrom('dev-a', 'dev-b', 'dev-c10', 'x'),
      code: fc.constantFrom('c1', 'c2', 'c10', 'temp'),
      t: fc.integer({ min: -3 * DAY, max: T0 + 3 * DAY }),
      // Quarters: exact in binary, so sums do not depend on the order of addition.
      value: fc.integer({ min: -4e6, max: 4e6 }).map((quarters) => quarters / 4 + 0),
    });
    const key = (s: LogsTable) => `${s.device_id}/${s.code}/${s.t}`;
    fc.assert(
      fc.property(
        // One sample per key, as `logs` stores them; spread over a few buckets or over days.
        fc.uniqueArray(sample, { maxLength: 400, selector: key }),
        fc.boolean(),
        (samples, sorted) => {
          // Sorted by key, as the inbox's mover hands them over; or in any order.
          const given = sorted
            ? [...samples].sort(
                (a, b) =>
                  (a.device_id < b.device_id ? -1 : a.device_id > b.device_id ? 1 : 0) ||
                  (a.code < b.code ? -1 : a.code > b.code ? 1 : 0) ||
                  a.t - b.t,
              )
            : samples;
          for (const { width } of ROLLUP_LEVELS) {
            expect(rollUp(given, width)).toEqual(referenceRollups(samples, width));
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe.each(DIALECTS)('insertLogs on %s', (dialect: Dialect) => {
  let database: TestDatabase | null = null;
  let storage: Storage;

  beforeAll(async () => {
    if (dialect === 'postgres') {
      database = await freshPostgres();
      storage = openStorage(database.url);
    } else storage = openStorage(':memory:');
    await migrate(storage.db);
  });
  afterAll(async () => {
    await storage.close();
    await database?.drop();
  });
  beforeEach(async () => {
    for (const table of ['logs', 'logs_hourly', 'logs_daily'] as const) await storage.db.deleteFrom(table).execute();
  });

  const stored = () => storedLogs(storage.db);
  const rollups = (table: 'logs_hourly' | 'logs_daily') => storedRollups(storage.db, table);

  it('skips a sample stored before or given twice in the batch, and rolls up only what it inserted', async () => {
    const first = [{ device_id: 'dev-a', code: 'c1', t: T0 + 1000, value: 5 }];
    expect(await insertLogs(storage.db, first)).toBe(1);
    const second = [
      { device_id: 'dev-a', code: 'c1', t: T0 + 1000, value: 99 },
      { device_id: 'dev-a', code: 'c1', t: T0 + 2000, value: 1 },
      { device_id: 'dev-a', code: 'c1', t: T0 + 2000, value: 50 },
      { device_id: 'dev-b', code: 'c1', t: T0 + 500, value: -2 },
    ];
    expect(await insertLogs(storage.db, second)).toBe(2);
    expect(await stored()).toEqual([
      { device_id: 'dev-a', code: 'c1', t: T0 + 1000, value: 5 },
      { device_id: 'dev-a', code: 'c1', t: T0 + 2000, value: 1 },
      { device_id: 'dev-b', code: 'c1', t: T0 + 500, value: -2 },
    ]);
    expect((await rollups('logs_hourly'))[0]).toMatchObject({
      device_id: 'dev-a',
      sum_value: 6,
      sample_count: 2,
      last_t: T0 + 2000,
      last_value: 1,
    });
  });

  it('stores latest values with the samples, an older one never replacing a newer, with or without samples', async () => {
    await storage.db.deleteFrom('latest_values').execute();
    const latest = (t: number, value: number, extra: string | null = null) => ({
      device_id: 'dev-a',
      code: 'c1',
      t,
      value,
      extra,
    });
    const sample = { device_id: 'dev-a', code: 'c1', t: T0 + 2000, value: 7 };
    expect(await insertLogs(storage.db, [sample], [latest(T0 + 2000, 7, '{"unit":"C"}')])).toBe(1);
    // Latest values alone (a frame of latest values only), one older and one of another channel.
    expect(await insertLogs(storage.db, [], [latest(T0 + 1000, 1), { ...latest(T0, 3), code: 'c2' }])).toBe(0);
    expect(await storedLatest(storage.db)).toEqual([
      latest(T0 + 2000, 7, '{"unit":"C"}'),
      { ...latest(T0, 3), code: 'c2' },
    ]);
    expect(await storage.db.transaction().execute((trx) => insertLogs(trx, [], [latest(T0 + 3000, 9)]))).toBe(0);
    expect((await storedLatest(storage.db))[0]).toEqual(latest(T0 + 3000, 9));
    expect(await stored()).toEqual([sample]);
  });

  it('makes the roll-ups of samples loaded by SQL from them, over whole days, replacing what was there', async () => {
    const loaded = [
      { device_id: 'dev-a', code: 'c1', t: T0 + 10, value: 3 },
      { device_id: 'dev-a', code: 'c1', t: T0 + HOUR + 10, value: -4 },
      { device_id: 'dev-a', code: 'c1', t: T0 + DAY - 1, value: 8 },
      { device_id: 'dev-a', code: 'c2', t: T0 + 20, value: 100 },
    ];
    await storage.db.insertInto('logs').values(loaded).execute();
    await storage.db
      .insertInto('logs_hourly')
      .values({ ...rollUp([loaded[0]!], HOUR)[0]!, sample_count: 99 })
      .execute();
    await rollUpStoredSamples(storage.db, { deviceId: 'dev-a', code: 'c1', from: T0 + HOUR, to: T0 + HOUR + 1 });
    const c1 = loaded.filter((sample) => sample.code === 'c1');
    expect(await rollups('logs_hourly')).toEqual(referenceRollups(c1, HOUR));
    expect(await rollups('logs_daily')).toEqual(referenceRollups(c1, DAY));
  });

  it('keeps the roll-ups equal to the stored samples, batch after batch (property)', async () => {
    const sample = (t: fc.Arbitrary<number>) =>
      fc.record({
        device_id: fc.constantFrom('dev-a', 'dev-b'),
        code: fc.constantFrom('c1', 'c2'),
        t,
        value: fc.integer({ min: -1000, max: 1000 }),
      });
    // Batches over days (rarely a repeat: on PostgreSQL the buckets folded by the server) and batches
    // within a few ms (repeats within and across batches: the buckets folded by the statement).
    const batch = fc.oneof(
      fc.array(sample(fc.integer({ min: T0 - 2 * DAY, max: T0 + 3 * DAY })), { maxLength: 300 }),
      fc.array(sample(fc.integer({ min: T0 - 20, max: T0 + 20 })), { maxLength: 300 }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(batch, { minLength: 1, maxLength: 5 }), async (batches) => {
        for (const table of ['logs', 'logs_hourly', 'logs_daily'] as const)
          await storage.db.deleteFrom(table).execute();
        const kept = new Map<string, LogsTable>();
        for (const [index, batch] of batches.entries()) {
          let fresh = 0;
          for (const s of batch) {
            const key = `${s.device_id}/${s.code}/${s.t}`;
            if (!kept.has(key)) {
              kept.set(key, s);
              fresh += 1;
            }
          }
          // On its own (the frame writer's batches of samples) and inside a caller's transaction (its
          // batches that change devices too): on PostgreSQL one statement either way.
          const insert = (db: typeof storage.db) => insertLogs(db, batch);
          const inserted = index % 2 === 0 ? await insert(storage.db) : await storage.db.transaction().execute(insert);
          expect(inserted).toBe(fresh);
        }
        for (const { table, width } of ROLLUP_LEVELS) {
          expect(await rollups(table)).toEqual(referenceRollups([...kept.values()], width));
        }
      }),
      { numRuns: 25 },
    );
  });

  it('inserts runs of rising times as the inbox moves them, new or reaching back to stored ones (property)', async () => {
    // Each channel's samples in one run of rising times, the batch in key order (the inbox's moves):
    // a batch whose runs all start past every stored sample of their channel is inserted without a
    // savepoint; one whose run reaches back to a stored time (a frame sent again) goes through the undo.
    const CHANNELS = [
      ['dev-a', 'c1'],
      ['dev-a', 'c2'],
      ['dev-b', 'c1'],
    ] as const;
    const run = fc.record({
      back: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 40 })),
      gaps: fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 40 }),
      values: fc.array(fc.integer({ min: -1000, max: 1000 }), { minLength: 40, maxLength: 40 }),
      skip: fc.boolean(),
    });
    const batch = fc.array(run, { minLength: CHANNELS.length, maxLength: CHANNELS.length });
    await fc.assert(
      fc.asyncProperty(fc.array(batch, { minLength: 1, maxLength: 4 }), async (batches) => {
        for (const table of ['logs', 'logs_hourly', 'logs_daily'] as const)
          await storage.db.deleteFrom(table).execute();
        const kept = new Map<string, LogsTable>();
        const latest = new Map<string, number>();
        for (const runs of batches) {
          const samples: LogsTable[] = [];
          for (const [c, { back, gaps, values, skip }] of runs.entries()) {
            if (skip) continue;
            const [device_id, code] = CHANNELS[c]!;
            // Past the latest stored time (back 0), or back over stored ones.
            let t = (latest.get(`${device_id}/${code}`) ?? T0 + HOUR - 60) - back;
            for (const [i, gap] of gaps.entries()) {
              t += gap;
              samples.push({ device_id, code, t, value: values[i]! });
            }
          }
          let fresh = 0;
          for (const s of samples) {
            const key = `${s.device_id}/${s.code}/${s.t}`;
            if (kept.has(key)) continue;
            kept.set(key, s);
            fresh += 1;
            const channel = `${s.device_id}/${s.code}`;
            latest.set(channel, Math.max(latest.get(channel) ?? -Infinity, s.t));
          }
          expect(await storage.db.transaction().execute((trx) => insertLogs(trx, samples))).toBe(fresh);
        }
        expect(await stored()).toEqual([...kept.values()].sort(compareKeys));
        for (const { table, width } of ROLLUP_LEVELS) {
          expect(await rollups(table)).toEqual(referenceRollups([...kept.values()], width));
        }
      }),
      { numRuns: 40 },
    );
  });
});
