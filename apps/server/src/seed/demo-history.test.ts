import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeviceModel } from '@fieldlink/simulation/plant-model';
import type { BinnedChannelLog, DeviceLogsAnswer } from '@fieldlink/api/device-logs';
import { connectedMs, uptimePercent } from '@fieldlink/domain/reports';
import { DIALECTS, signIn, startTestApp, type TestApp } from '../../testing/test-app';
import { DEMO_YEAR_DEVICE, seedDemoHistory } from './demo-history';

const DAY = 86_400_000;
const DAYS = 30;

describe.each(DIALECTS)('demo history on %s', (dialect) => {
  let t: TestApp;
  let viewer: string;
  const now = Date.now();
  const liveModels = new Map<string, DeviceModel>();
  const ids = new Map<string, string>();
  const devices = [
    { thingName: DEMO_YEAR_DEVICE, kind: 'generic' as const },
    { thingName: 'ACME-COLD01', kind: 'generic' as const },
    { thingName: 'CRS-SHELF01', kind: 'retailShelf' as const },
  ];

  const samplesOf = (thingName: string) =>
    t.app.storage.db
      .selectFrom('logs')
      .select(['code', 't', 'value'])
      .where('device_id', '=', ids.get(thingName)!)
      .orderBy('code')
      .orderBy('t')
      .execute();

  beforeAll(async () => {
    t = await startTestApp(dialect);
    viewer = await signIn(t.app, 'viewer@fieldlink.test');
    for (const row of await t.app.storage.db.selectFrom('devices').select(['id', 'thing_name']).execute()) {
      ids.set(row.thing_name, row.id);
    }
    await seedDemoHistory(t.app.storage.db, devices, DAYS, now, liveModels);
    // Two plant models stepped through a month: seconds on a quiet machine, more on a busy one.
  }, 180_000);
  afterAll(() => t?.close());

  it('gives every device 30 days of samples up to now', async () => {
    for (const { thingName } of devices) {
      const samples = await samplesOf(thingName);
      const times = samples.map((sample) => sample.t);
      expect(Math.min(...times)).toBeLessThanOrEqual(now - DAYS * DAY + DAY);
      expect(Math.max(...times)).toBeGreaterThan(now - 10 * 60_000);
      // No day without samples: a month's chart is full.
      const days = new Set(times.map((time) => Math.floor((now - time) / DAY)));
      for (let day = 0; day < DAYS; day += 1) expect(days.has(day)).toBe(true);
    }
  });

  // Issue 36 item 4: "Stock, last 90 days" drew data only in its last 30.
  it('gives a smart shelf the 90 days of samples its store chart shows', async () => {
    const times = (await samplesOf('CRS-SHELF01')).map((sample) => sample.t);
    expect(Math.min(...times)).toBeLessThanOrEqual(now - 90 * DAY + DAY);
    const days = new Set(times.map((time) => Math.floor((now - time) / DAY)));
    for (let day = 0; day < 90; day += 1) expect(days.has(day)).toBe(true);
  });

  // Issue 35 item 10: reports of the seeded month read 0.1 % uptime, the connection history starting
  // at server start while the logs went back 30 days.
  it('gives every device a connection history as long as its logs, with a plausible uptime', async () => {
    for (const { thingName } of devices) {
      const [samples, changes] = await Promise.all([
        samplesOf(thingName),
        t.app.storage.db
          .selectFrom('connections')
          .select(['t', 'connected'])
          .where('device_id', '=', ids.get(thingName)!)
          .orderBy('t')
          .execute(),
      ]);
      const firstSample = Math.min(...samples.map((sample) => sample.t));
      expect(Number(changes[0]!.t)).toBeLessThanOrEqual(firstSample);
      expect(changes[0]!.connected).toBe(1);
      expect([Number(changes.at(-1)!.t), changes.at(-1)!.connected]).toEqual([now, 0]);
      const start = now - DAYS * DAY;
      const before = changes.filter((change) => Number(change.t) < start).at(-1);
      const within = changes
        .filter((change) => Number(change.t) >= start && Number(change.t) < now)
        .map((change) => ({ t: Number(change.t), connected: change.connected === 1 }));
      const uptime = uptimePercent(connectedMs(before?.connected === 1, within, start, now), start, now);
      expect(uptime).toBeGreaterThan(97);
    }
  });

  it('gives one device a year, answered by GET /device-logs from its roll-ups', async () => {
    const start = now - 365 * DAY;
    const search = new URLSearchParams({
      format: 'GROUPED_BY_CHANNEL',
      deviceId: ids.get(DEMO_YEAR_DEVICE)!,
      channels: 'c1',
      start: String(start),
      end: String(now),
      binCount: '2000',
    });
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/v1/device-logs?${search}`,
      headers: { authorization: viewer },
    });
    expect(response.statusCode).toBe(200);
    const log = response.json<DeviceLogsAnswer>().channels.c1 as BinnedChannelLog;
    expect(log.kind).toBe('bins');
    // Bins from the first week of the year to today, and no month without any.
    expect(log.t[0]!).toBeLessThan(start + 7 * DAY);
    expect(log.t.at(-1)!).toBeGreaterThan(now - DAY);
    const months = new Set(log.t.map((time) => Math.floor((time - start) / (30 * DAY))));
    expect(months.size).toBeGreaterThanOrEqual(12);
  });

  it('leaves each plant model where the history ends, so the live values carry on without a jump', async () => {
    for (const { thingName } of devices) {
      const model = liveModels.get(thingName)!;
      expect(Math.abs(model.timeMs - now)).toBeLessThan(5 * 60_000);
      const samples = await samplesOf(thingName);
      // The fleet's first step is seconds; the history's steps between samples are 5 minutes.
      model.step(5);
      const live = model.values();
      const byCode = new Map<string, typeof samples>();
      for (const sample of samples) byCode.set(sample.code, [...(byCode.get(sample.code) ?? []), sample]);
      for (const [code, history] of byCode) {
        const recent = history.filter((sample) => sample.t > now - DAY);
        const largestStep = Math.max(
          ...recent.slice(1).map((sample, i) => Math.abs(sample.value - recent[i]!.value)),
          1e-9,
        );
        expect(Math.abs(live[code]! - history.at(-1)!.value), `${thingName} ${code}`).toBeLessThanOrEqual(largestStep);
      }
    }
  });
});
