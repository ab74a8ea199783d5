import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { logBinGrid, type BinnedChannelLog, type DeviceLogsAnswer } from '@fieldlink/api/device-logs';
import { DIALECTS, signIn, startTestApp, type TestApp } from '../../../testing/test-app';
import { appendToInbox } from '../../db/log-inbox';
import { insertLogs } from '../../db/log-writes';
import { packClosedMonths } from './rollup-packs';

const MINUTE = 60_000;
const T0 = Date.UTC(2026, 0, 1);

/** The bins the API promises, computed the obvious way from the samples: the reference the SQL must match. */
function referenceBins(samples: { t: number; value: number }[], start: number, end: number, binCount: number) {
  const { width, origin } = logBinGrid(start, end, binCount);
  const bins = new Map<number, { t: number; min: number; max: number; sum: number; count: number; last: number }>();
  for (const { t, value } of [...samples].sort((a, b) => a.t - b.t)) {
    if (t < start || t >= end) continue;
    const index = Math.floor((t - origin) / width);
    const bin = bins.get(index);
    const binStart = Math.max(start, origin + index * width);
    if (!bin) bins.set(index, { t: binStart, min: value, max: value, sum: value, count: 1, last: value });
    else
      Object.assign(bin, {
        min: Math.min(bin.min, value),
        max: Math.max(bin.max, value),
        sum: bin.sum + value,
        count: bin.count + 1,
        last: value,
      });
  }
  return [...bins.entries()].sort(([a], [b]) => a - b).map(([, bin]) => bin);
}

describe.each(DIALECTS)('GET /device-logs on %s', (dialect) => {
  let t: TestApp;
  let viewer: string;
  let water: string;
  let deviceId: string;
  // A day of minute samples on c1 with one spike, a sparse c2, and a neighbour device's c1.
  const c1 = Array.from({ length: 1440 }, (_, i) => ({
    t: T0 + i * MINUTE,
    value: i === 777 ? 250 : Math.sin(i / 50) * 10,
  }));
  const c2 = [0, 5, 300, 1439].map((i) => ({ t: T0 + i * MINUTE, value: i }));

  const logs = async (query: Record<string, string | number>, token = viewer) => {
    const search = new URLSearchParams(
      Object.entries({ format: 'GROUPED_BY_CHANNEL', deviceId, ...query }).map(([k, v]): [string, string] => [
        k,
        String(v),
      ]),
    );
    return t.app.inject({ method: 'GET', url: `/api/v1/device-logs?${search}`, headers: { authorization: token } });
  };

  beforeAll(async () => {
    t = await startTestApp(dialect);
    viewer = await signIn(t.app, 'viewer@fieldlink.test');
    water = await signIn(t.app, 'water@fieldlink.test');
    const db = t.app.storage.db;
    const ids = await db
      .selectFrom('devices')
      .select(['id', 'thing_name'])
      .where('thing_name', 'in', ['ACME-BLR01', 'ACME-BLR02'])
      .execute();
    deviceId = ids.find((row) => row.thing_name === 'ACME-BLR01')!.id;
    const neighbour = ids.find((row) => row.thing_name !== 'ACME-BLR01')!.id;
    const rows = [
      ...c1.map((s) => ({ device_id: deviceId, code: 'c1', ...s })),
      ...c2.map((s) => ({ device_id: deviceId, code: 'c2', ...s })),
      ...c1.map((s) => ({ device_id: neighbour, code: 'c1', t: s.t, value: 9999 })),
    ];
    for (let i = 0; i < rows.length; i += 1000) await insertLogs(db, rows.slice(i, i + 1000));
  });
  afterAll(() => t?.close());

  it('answers every sample when the window holds no more samples than bins', async () => {
    const response = await logs({ channels: 'c2', start: T0, end: T0 + 1440 * MINUTE, binCount: 4 });
    expect(response.statusCode).toBe(200);
    const answer = response.json<DeviceLogsAnswer>();
    expect(answer.channels.c2).toEqual({ kind: 'raw', t: c2.map((s) => s.t), value: c2.map((s) => s.value) });
  });

  it.each([
    ['a whole day into 10 bins', 0, 1440, 10],
    ['a day into 2000 bins (fewer samples than bins: raw)', 0, 1440, 2000],
    ['an uneven window into 7 bins', 13, 1001, 7],
    ['a window into bins narrower than the samples', 0, 100, 99],
    ['a window reaching past the data', 1400, 2000, 5],
  ])('matches the reference for %s', async (_name, from, to, binCount) => {
    const start = T0 + from * MINUTE;
    const end = T0 + to * MINUTE;
    const answer = (await logs({ channels: 'c1', start, end, binCount })).json<DeviceLogsAnswer>();
    const inWindow = c1.filter((s) => s.t >= start && s.t < end);
    const log = answer.channels.c1!;
    if (inWindow.length <= binCount) {
      expect(log).toEqual({ kind: 'raw', t: inWindow.map((s) => s.t), value: inWindow.map((s) => s.value) });
      return;
    }
    expect(log.kind).toBe('bins');
    const bins = log as BinnedChannelLog;
    const expected = referenceBins(c1, start, end, binCount);
    expect(bins.t).toEqual(expected.map((bin) => bin.t));
    expect(bins.min).toEqual(expected.map((bin) => bin.min));
    expect(bins.max).toEqual(expected.map((bin) => bin.max));
    expect(bins.last).toEqual(expected.map((bin) => bin.last));
    bins.avg.forEach((avg, i) => expect(avg).toBeCloseTo(expected[i]!.sum / expected[i]!.count, 9));
    expect(bins.t.length).toBeLessThanOrEqual(binCount);
    expect(answer.binWidth).toBe(logBinGrid(start, end, binCount).width);
  });

  it('reads start and end of 12 digits or fewer as unix seconds (core §4), like their milliseconds', async () => {
    const window = { channels: 'c2', start: T0, end: T0 + 1440 * MINUTE, binCount: 4 };
    const inMillis = (await logs(window)).json<DeviceLogsAnswer>();
    const inSeconds = await logs({ ...window, start: T0 / 1000, end: (T0 + 1440 * MINUTE) / 1000 });
    expect(inSeconds.statusCode).toBe(200);
    expect(inSeconds.json()).toEqual(inMillis);
    expect(inMillis.channels.c2).toMatchObject({ kind: 'raw', t: c2.map((s) => s.t) });
  });

  it('keeps every spike: the maximum of the bins is the maximum of the window', async () => {
    const answer = (
      await logs({ channels: 'c1', start: T0, end: T0 + 1440 * MINUTE, binCount: 3 })
    ).json<DeviceLogsAnswer>();
    const bins = answer.channels.c1 as BinnedChannelLog;
    expect(bins.t).toHaveLength(3);
    expect(Math.max(...bins.max)).toBe(250);
    expect(Math.min(...bins.min)).toBe(Math.min(...c1.map((s) => s.value)));
  });

  it('leaves out bins without samples and answers channels without any as empty raw logs', async () => {
    const answer = (
      await logs({ channels: 'c2,c7', start: T0, end: T0 + 1440 * MINUTE, binCount: 3 })
    ).json<DeviceLogsAnswer>();
    expect(answer.channels.c2).toMatchObject({ kind: 'bins', t: [T0, T0 + 960 * MINUTE], last: [300, 1439] });
    expect(answer.channels.c7).toEqual({ kind: 'raw', t: [], value: [] });
  });

  it('answers another account’s device as not found', async () => {
    const response = await logs({ channels: 'c1', start: T0, end: T0 + MINUTE, binCount: 10 }, water);
    expect(response.statusCode).toBe(404);
  });

  it.each([
    ['end before start', { start: T0, end: T0 - 1, binCount: 10, channels: 'c1' }],
    ['a bad channel code', { start: T0, end: T0 + 1, binCount: 10, channels: 'c1,drop table' }],
    ['too many bins', { start: T0, end: T0 + 1, binCount: 10_001, channels: 'c1' }],
    ['an unknown parameter', { start: T0, end: T0 + 1, binCount: 10, channels: 'c1', extra: 1 }],
    ['a window over ten years', { start: 0, end: T0, binCount: 10, channels: 'c1' }],
  ])('refuses %s with 400', async (_name, query) => {
    expect((await logs(query)).statusCode).toBe(400);
  });
});

describe.each(DIALECTS)('GET /device-logs from the roll-ups on %s', (dialect) => {
  let t: TestApp;
  let viewer: string;
  let deviceId: string;
  const HOUR = 3_600_000;
  const DAY = 24 * HOUR;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    viewer = await signIn(t.app, 'viewer@fieldlink.test');
    const device = await t.app.storage.db
      .selectFrom('devices')
      .select('id')
      .where('thing_name', '=', 'ACME-COLD01')
      .executeTakeFirstOrThrow();
    deviceId = device.id;
  });
  afterAll(() => t?.close());

  // Channels asked for together: one statement per piece of the window reads them all.
  const CODES = ['c1', 'c2', 'c3'] as const;
  const answerOf = async (start: number, end: number, binCount: number) => {
    const search = new URLSearchParams({
      format: 'GROUPED_BY_CHANNEL',
      deviceId,
      channels: CODES.join(','),
      start: String(start),
      end: String(end),
      binCount: String(binCount),
    });
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/v1/device-logs?${search}`,
      headers: { authorization: viewer },
    });
    expect(response.statusCode).toBe(200);
    return response.json<DeviceLogsAnswer>();
  };

  // Samples at any millisecond of 40 days, in bursts and gaps, stored as ingest stores them (batches,
  // duplicates skipped); windows of an hour to 60 days from anywhere around them, 1 to 400 bins.
  const sample = fc.record({
    code: fc.constantFrom(...CODES),
    t: fc.integer({ min: T0, max: T0 + 40 * DAY - 1 }),
    // JSON has no -0: the answer's is 0.
    value: fc.oneof(
      fc.integer({ min: -1000, max: 1000 }),
      fc.double({ min: -1e6, max: 1e6, noNaN: true }).map((value) => value + 0),
    ),
  });
  const query = fc.record({
    start: fc.integer({ min: T0 - 2 * DAY, max: T0 + 40 * DAY }),
    length: fc.oneof(fc.integer({ min: 1, max: 60 * DAY }), fc.constantFrom(HOUR, DAY, 7 * DAY, 30 * DAY)),
    binCount: fc.oneof(fc.integer({ min: 1, max: 400 }), fc.constantFrom(1, 24, 100, 2000)),
  });

  // When the log maintenance job packs the closed months: after which batch of samples (the later
  // batches then bring late samples for packed months), and which months count as closed (January, or
  // January and February).
  const packing = fc.record({
    afterBatch: fc.integer({ min: 0, max: 6 }),
    closedBefore: fc.constantFrom(Date.UTC(2026, 1, 1), Date.UTC(2026, 2, 1)),
  });

  // A sample every 20 minutes over 40 days, on two channels.
  const everyTwentyMinutes = Array.from({ length: 2880 }, (_, i) => ({
    code: CODES[i % 2]!,
    t: T0 + i * 20 * MINUTE,
    value: (i * 37) % 101,
  }));

  it('answers what the samples give, whichever level the window is read from and packed or not (property)', async () => {
    // Bins answered per level of the grid (0: cut from the samples), so the run shows each was tried.
    const binnedByLevel = new Map<number, number>();
    // Runs whose roll-ups were partly packed when read.
    let packedRuns = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(sample, { minLength: 1, maxLength: 3000, size: 'max' }),
        fc.array(query, { minLength: 4, maxLength: 4 }),
        fc.option(packing, { nil: undefined }),
        async (samples, queries, pack) => {
          const db = t.app.storage.db;
          for (const table of ['logs', 'logs_hourly', 'logs_daily', 'logs_rollup_packs'] as const) {
            await db.deleteFrom(table).where('device_id', '=', deviceId).execute();
          }
          if (dialect === 'sqlite') await db.deleteFrom('log_inbox_runs').execute();
          const stored = new Map<string, { code: string; t: number; value: number }>();
          for (let i = 0; i < samples.length; i += 500) {
            const batch = samples.slice(i, i + 500).map((s) => ({ device_id: deviceId, ...s }));
            // On SQLite the later half is committed into the inbox as the frame writer commits it, so
            // the samples are split between `logs` and the inbox (duplicates across both) when read.
            if (dialect === 'sqlite' && i >= samples.length / 2) {
              await db.transaction().execute((trx) => appendToInbox(trx, batch));
            } else await insertLogs(db, batch);
            for (const s of batch) if (!stored.has(`${s.code}/${s.t}`)) stored.set(`${s.code}/${s.t}`, s);
            if (pack?.afterBatch === i / 500) await packClosedMonths(db, deviceId, pack.closedBefore);
          }
          if (pack && pack.afterBatch * 500 >= samples.length) await packClosedMonths(db, deviceId, pack.closedBefore);
          const kept = [...stored.values()];
          if (
            pack &&
            (await db.selectFrom('logs_rollup_packs').select('t').where('device_id', '=', deviceId).execute()).length >
              0
          ) {
            packedRuns += 1;
          }
          const answers = await Promise.all(
            queries.map(async (query) => ({
              ...query,
              answer: await answerOf(query.start, query.start + query.length, query.binCount),
            })),
          );
          for (const [{ start, length, binCount, answer }, code] of answers.flatMap((a) =>
            CODES.map((c) => [a, c] as const),
          )) {
            const end = start + length;
            expect(Object.keys(answer.channels).sort()).toEqual([...CODES]);
            const log = answer.channels[code]!;
            const inWindow = kept
              .filter((s) => s.code === code && s.t >= start && s.t < end)
              .map((s) => ({ t: s.t, value: s.value }))
              .sort((a, b) => a.t - b.t);
            expect(answer.binWidth).toBe(logBinGrid(start, end, binCount).width);
            if (inWindow.length <= binCount) {
              expect(log).toEqual({ kind: 'raw', t: inWindow.map((s) => s.t), value: inWindow.map((s) => s.value) });
              continue;
            }
            const { level } = logBinGrid(start, end, binCount);
            binnedByLevel.set(level, (binnedByLevel.get(level) ?? 0) + 1);
            const expected = referenceBins(inWindow, start, end, binCount);
            expect(log.kind).toBe('bins');
            const bins = log as BinnedChannelLog;
            expect(bins.t.length).toBeLessThanOrEqual(binCount);
            expect(bins.t).toEqual(expected.map((bin) => bin.t));
            expect(bins.min).toEqual(expected.map((bin) => bin.min));
            expect(bins.max).toEqual(expected.map((bin) => bin.max));
            expect(bins.last).toEqual(expected.map((bin) => bin.last));
            bins.avg.forEach((avg, i) => {
              // Sums added in another order differ in their last bits only.
              const { sum, count, min, max } = expected[i]!;
              expect(Math.abs(avg - sum / count)).toBeLessThanOrEqual(1e-9 * Math.max(1, -min, max));
            });
          }
        },
      ),
      {
        numRuns: 25,
        // A sample every 20 minutes, and a window binned at each level: 48-minute bins from the
        // samples, 5-hour bins from the hourly roll-up, 2-day bins from the daily one.
        examples: [
          [
            everyTwentyMinutes,
            [
              { start: T0 + 5 * MINUTE, length: 10 * DAY, binCount: 300 },
              { start: T0 + 17 * MINUTE, length: 20 * DAY, binCount: 100 },
              { start: T0 + 3 * HOUR, length: 39 * DAY, binCount: 20 },
              { start: T0, length: DAY, binCount: 2000 },
            ],
            undefined,
          ],
          // The same, January packed after the first batch: most of its samples then come late.
          [
            everyTwentyMinutes,
            [
              { start: T0 + 5 * MINUTE, length: 10 * DAY, binCount: 300 },
              { start: T0 + 17 * MINUTE, length: 38 * DAY, binCount: 100 },
              { start: T0 + 3 * HOUR, length: 39 * DAY, binCount: 20 },
              { start: T0 + 29 * DAY, length: 5 * DAY, binCount: 20 },
            ],
            { afterBatch: 0, closedBefore: Date.UTC(2026, 1, 1) },
          ],
        ],
      },
    );
    expect([...binnedByLevel.keys()].sort((a, b) => a - b)).toEqual([0, HOUR, DAY]);
    expect(packedRuns).toBeGreaterThan(0);
    // 26 databases' worth of samples written and read: seconds on a quiet machine, more on a busy one.
  }, 180_000);
});
