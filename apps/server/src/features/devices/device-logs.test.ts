import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BinnedChannelLog, DeviceLogsAnswer } from '@fieldlink/api/device-logs';
import { DIALECTS, signIn, startTestApp, type TestApp } from '../../testing/test-app';

const MINUTE = 60_000;
const T0 = Date.UTC(2026, 0, 1);

/** The bins the API promises, computed the obvious way: the reference the SQL must match. */
function referenceBins(samples: { t: number; value: number }[], start: number, end: number, binCount: number) {
  const width = Math.max(1, Math.ceil((end - start) / binCount));
  const bins = new Map<number, { t: number; min: number; max: number; sum: number; count: number; last: number }>();
  for (const { t, value } of samples) {
    if (t < start || t >= end) continue;
    const index = Math.floor((t - start) / width);
    const bin = bins.get(index);
    if (!bin) bins.set(index, { t: start + index * width, min: value, max: value, sum: value, count: 1, last: value });
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
    for (let i = 0; i < rows.length; i += 1000)
      await db
        .insertInto('logs')
        .values(rows.slice(i, i + 1000))
        .execute();
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
    expect(answer.binWidth).toBe(Math.ceil((end - start) / binCount));
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
