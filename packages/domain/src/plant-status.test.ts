import { describe, expect, it } from 'vitest';
import {
  activeForText,
  flagActiveSince,
  PLANT_ALARM_LOOKBACK_MS,
  PLANT_MAIN_FIGURES,
  plantStatus,
  STANDSTILL_FLOW,
  type ActivePlantAlarm,
  type FlagSample,
  type PlantState,
  type PlantStatusInput,
} from './plant-status';

const NOW = Date.UTC(2026, 10, 29, 12, 0, 0);
const MIN = 60_000;
const lowUv: ActivePlantAlarm = { name: 'UV dose low', code: 's4', since: NOW - 30 * MIN, onBefore: false };
const lowTank: ActivePlantAlarm = { name: 'Tank low level', code: 's5', since: NOW - 5 * MIN, onBefore: false };
const base: PlantStatusInput = { connected: true, plantRun: 1, flow: 70, hasWaterTank: true, alarms: [] };

describe('plant status', () => {
  it.each<[string, Partial<PlantStatusInput>, PlantState]>([
    ['running, connected, no alarm', {}, 'Running'],
    ['run output off', { plantRun: 0, flow: 0 }, 'Stopped'],
    ['no reading of the run output yet', { plantRun: undefined, flow: undefined }, 'Stopped'],
    ['an alarm while running', { alarms: [lowUv] }, 'In alarm'],
    ['an alarm while stopped', { plantRun: 0, alarms: [lowTank] }, 'In alarm'],
    ['not connected, running when last heard', { connected: false }, 'Offline'],
    ['not connected, with alarms', { connected: false, alarms: [lowUv] }, 'Offline'],
  ])('%s: %s', (_, change, state) => {
    expect(plantStatus({ ...base, ...change }).state).toBe(state);
  });

  it.each<[string, Partial<PlantStatusInput>, string | null]>([
    ['running with flow', {}, null],
    ['stopped, no flow', { plantRun: 0, flow: 0 }, null],
    ['stopped, flowmeter noise at standstill', { plantRun: 0, flow: 0.4 }, null],
    ['stopped, flow exactly at the standstill limit', { plantRun: 0, flow: STANDSTILL_FLOW }, null],
    [
      'stopped, flow just above the standstill limit',
      { plantRun: 0, flow: STANDSTILL_FLOW + 0.1 },
      'Plant stopped: the supply flow is drawn from the storage tank, which the plant refills when it runs.',
    ],
    ['stopped, no flow reading yet', { plantRun: 0, flow: undefined }, null],
    [
      'stopped, water drawn from the tank',
      { plantRun: 0, flow: 57.9 },
      'Plant stopped: the supply flow is drawn from the storage tank, which the plant refills when it runs.',
    ],
    [
      'stopped, water flowing, no tank',
      { plantRun: 0, flow: 57.9, hasWaterTank: false },
      'Water is flowing while the plant is stopped: check the supply flowmeter and the plant run output.',
    ],
    ['not connected', { connected: false }, 'Not connected: the figures are the last the plant reported.'],
    ['no reading yet', { plantRun: undefined, flow: undefined }, 'Waiting for the plant’s first reading.'],
  ])('explains %s', (_, change, note) => {
    expect(plantStatus({ ...base, ...change }).note).toBe(note);
  });

  const unknown: ActivePlantAlarm = { name: 'Power failure', code: 's10', since: null, onBefore: false };
  it.each([
    [[unknown, lowUv, lowTank]],
    [[lowUv, lowTank, unknown]],
    [[lowTank, unknown, lowUv]],
    [[lowUv, unknown, lowTank]],
  ])('lists the most recently raised alarm first, those of unknown start last (given %#)', (alarms) => {
    const status = plantStatus({ ...base, alarms });
    expect(status.alarms.map((alarm) => alarm.code)).toEqual(['s5', 's4', 's10']);
  });
});

describe('when an alarm flag came on', () => {
  const raw = (...values: [number, number][]): FlagSample[] => values.map(([t, v]) => ({ t, min: v, max: v }));
  const bin = (t: number, min: number | null, max: number | null): FlagSample => ({ t, min, max });
  it.each<[string, FlagSample[], ReturnType<typeof flagActiveSince>]>([
    ['no reading', [], null],
    ['off at the end', raw([1, 0], [2, 1], [3, 0]), null],
    ['came on at the third sample', raw([1, 0], [2, 0], [3, 1], [4, 1]), { since: 3, onBefore: false }],
    ['on throughout the log', raw([1, 1], [2, 1]), { since: 1, onBefore: true }],
    ['came on, went off, came on again', raw([1, 1], [2, 0], [5, 1], [6, 1]), { since: 5, onBefore: false }],
    ['came on within a bin', [bin(0, 0, 0), bin(300, 0, 1), bin(600, 1, 1)], { since: 300, onBefore: false }],
    [
      'bins without readings are passed over',
      [bin(0, 0, 0), bin(300, null, null), bin(600, 1, 1)],
      { since: 600, onBefore: false },
    ],
    ['on since the first bin, which began off', [bin(0, 0, 1), bin(300, 1, 1)], { since: 0, onBefore: false }],
    ['a bin without its low is passed over', [bin(0, 1, 1), bin(300, null, 0)], { since: 0, onBefore: true }],
    ['a bin without its high is passed over', [bin(0, 1, 1), bin(300, 0, null)], { since: 0, onBefore: true }],
  ])('%s', (_, samples, expected) => {
    expect(flagActiveSince(samples)).toEqual(expected);
  });
});

describe('the status line', () => {
  it('shows flow, the tank level (with a tank) and both pressures, in their units', () => {
    expect(PLANT_MAIN_FIGURES).toEqual([
      { code: 'a1', label: 'Flow', units: 'L/min', decimals: 1 },
      { code: 'a16', label: 'Tank level', units: '%', decimals: 0, feature: 'waterTank' },
      { code: 'c2', label: 'Inlet pressure', units: 'bar', decimals: 2 },
      { code: 'c3', label: 'Outlet pressure', units: 'bar', decimals: 2 },
    ]);
  });

  it("reads an alarm flag's log back a week to find when it came on", () => {
    expect(PLANT_ALARM_LOOKBACK_MS).toBe(7 * 24 * 60 * MIN);
  });
});

describe('how long an alarm has been active', () => {
  it.each<[number, boolean, string]>([
    [0, false, 'under a minute'],
    [59_999, false, 'under a minute'],
    [MIN, false, '1 min'],
    [59 * MIN, false, '59 min'],
    [60 * MIN, false, '1 h 00 min'],
    [3 * 60 * MIN + 5 * MIN, false, '3 h 05 min'],
    [24 * 60 * MIN, false, '1 d 0 h'],
    [(2 * 24 + 4) * 60 * MIN + 59 * MIN, false, '2 d 4 h'],
    [7 * 24 * 60 * MIN, true, 'over 7 d 0 h'],
    [30_000, true, 'over a minute'],
  ])('%i ms (on before the log: %s) reads "%s"', (elapsed, onBefore, text) => {
    expect(activeForText(NOW - elapsed, NOW, onBefore)).toBe(text);
  });

  it('never reads negative for a clock slightly behind the device', () => {
    expect(activeForText(NOW + 5_000, NOW)).toBe('under a minute');
  });
});
