import { describe, expect, it } from 'vitest';
import type { Batch } from '@fieldlink/api/brew';
import type { DeviceLogsAnswer } from '@fieldlink/api/device-logs';
import { tankChartLogs } from './tank-chart';

const START = Date.UTC(2026, 10, 20, 8);
const MINUTE = 60_000;

const batch = {
  id: 'batch-1',
  deviceId: 'device-1',
  state: 'FERMENTING',
  date: { start: START, end: null },
  props: { beerName: 'Cellar Pils', style: '', originalGravity: 1.048, targetGravity: null, notes: '' },
  gravities: [{ id: 'g1', value: 1.031, timestamp: START + 90 * MINUTE, createdBy: 'brew@fieldlink.test' }],
  sensories: [],
  annotations: [],
  transitions: [],
  isDemo: false,
  channelsMap: {
    co2Flow: 'c1',
    co2Total: 'c2',
    temperature: 'c3',
    lowerPressure: 'c4',
    upperPressure: 'c5',
    ph: 'c6',
    temperatureSetpoint: 'c7',
  },
  calibration: { co2TotalGain: 1, tankLevel: null },
  tankLevelAtFermStart: 1000,
  co2TotalAtStart: 0,
  pressurizedAt: null,
  frozenGravity: null,
  reports: [],
} as unknown as Batch;

/** The tank logged every 10 minutes for an hour, was silent for five hours, then logged again. */
const times = [0, 10, 20, 30, 40, 50, 60, 360, 370, 380, 390, 400].map((m) => START + m * MINUTE);
const raw = (value: number) => ({ kind: 'raw' as const, t: times, value: times.map(() => value) });
const answer: DeviceLogsAnswer = {
  deviceId: 'device-1',
  start: START,
  end: START + 400 * MINUTE,
  binCount: 500,
  binWidth: 48_000,
  channels: { c2: raw(10), c3: raw(12), c5: raw(0.5), c7: raw(12) },
};

describe('tank chart data', () => {
  const logs = tankChartLogs(answer, batch);
  const line = (code: string) => logs.series.find((series) => series.code === code)!.line;
  /** Index of the point `minutes` after the batch's start. */
  const at = (minutes: number) => logs.x.indexOf((START + minutes * MINUTE) / 1000);

  it('breaks temperature, setpoint and the gravity estimate where the tank was silent', () => {
    // The gap rule puts one null point half-way through the pause (60 → 360 min): at 210 min.
    const gap = at(210);
    expect(gap).toBeGreaterThan(0);
    for (const code of ['temperature', 'temperatureSetpoint', 'gravity']) {
      expect(line(code)[gap], code).toBeNull();
      expect(
        line(code).filter((value) => value === null),
        code,
      ).toHaveLength(1);
      expect(line(code)[at(60)], code).toEqual(expect.any(Number));
      expect(line(code)[at(360)], code).toEqual(expect.any(Number));
    }
    expect(logs.gapsMarked).toBe(true);
  });

  it("joins the brewer's readings and does not break where the log only lacks a reading's time", () => {
    // The reading at 90 min lies in the gap: it is its own point, the log's lines have none there.
    const reading = at(90);
    expect(line('userGravity')[reading]).toBe(1.031);
    expect(line('temperature')[reading]).toBeUndefined();
    expect(line('userGravity').filter((value) => value === null)).toEqual([]);
  });
});
