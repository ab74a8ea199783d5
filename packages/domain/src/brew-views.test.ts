import { describe, expect, it } from 'vitest';
import { batchGravity, defaultChannelsMap, tankLevel, type ChannelsMap, type GravityParameters } from './brew';
import {
  DEFAULT_CO2_TOTAL_GAIN,
  batchListEntry,
  batchStart,
  brewSummary,
  followRunningBatch,
  numberedTanks,
  tankSettings,
  tankView,
  tastingMarkText,
  type FollowedBatch,
  type TankDevice,
  type TankSettings,
} from './brew-views';

const hour = 3_600_000;
const device: TankDevice = {
  id: 'dev-1',
  thingName: 'brew-1',
  name: 'FV 1',
  isConnected: true,
  custom: 'Vats 4.2',
  registers: {},
};
const calibration = { scale: 2, offset: 10 };
const calibrated: TankSettings = { capacity: 1200, co2TotalGain: 1.5, tankLevel: calibration };
/** The channels of `defaultChannelsMap('Vats 4.2')` with their latest values. */
const map = defaultChannelsMap(device.custom);
const values = (readings: Partial<Record<keyof ChannelsMap, number>>) =>
  new Map(Object.entries(readings).map(([role, value]) => [map[role as keyof ChannelsMap], value]));
const frozen: GravityParameters = {
  currentGravity: 1.012,
  ethanol: 5.1,
  saturatedCo2: 900,
  hasGravityFreezed: true,
  tankLevel: 1000,
};
const batch = (values: Partial<FollowedBatch> = {}): FollowedBatch & { id: string } => ({
  id: 'batch-1',
  state: 'FERMENTING',
  transitions: [
    { state: 'FILLING', timestamp: 0 },
    { state: 'FERMENTING', timestamp: hour },
  ],
  pressurizedAt: null,
  channelsMap: map,
  props: { originalGravity: 1.05 },
  calibration: { co2TotalGain: 2, tankLevel: { scale: 3, offset: 0 } },
  co2TotalAtStart: 100,
  tankLevelAtFermStart: 1000,
  frozenGravity: null,
  ...values,
});
const readings = { co2Total: 900, temperature: 12, upperPressure: 2, lowerPressure: 9, co2Flow: 1 };

describe('a tank as the summary and the tank view show it', () => {
  it.each<[string, TankSettings | null, ReturnType<typeof batch> | null, Record<string, number>, object]>([
    [
      'never set up, no batch: idle, default channels and gain, no level',
      null,
      null,
      {},
      {
        state: 'IDLE',
        capacity: null,
        channelsMap: map,
        calibration: { co2TotalGain: DEFAULT_CO2_TOTAL_GAIN, tankLevel: null },
        batchInfo: null,
        gravityParameters: batchGravity(null, { co2Total: 900, temperature: 12, headPressure: 2 }, null),
      },
    ],
    [
      'calibrated, no batch: its capacity and its level from its own calibration',
      calibrated,
      null,
      {},
      {
        state: 'IDLE',
        capacity: 1200,
        calibration: { co2TotalGain: 1.5, tankLevel: calibration },
        gravityParameters: {
          ...batchGravity(null, { co2Total: 900, temperature: 12, headPressure: 2 }, null),
          tankLevel: tankLevel(2, 9, calibration),
        },
      },
    ],
    [
      'running batch: its state, its channels, its level calibration and its estimate',
      calibrated,
      batch({ channelsMap: { ...map, co2Total: 't7' } }),
      { t7: 950 },
      {
        state: 'FERMENTING',
        channelsMap: { ...map, co2Total: 't7' },
        calibration: { co2TotalGain: 1.5, tankLevel: calibration },
        gravityParameters: batchGravity(
          {
            originalGravity: 1.05,
            co2TotalAtStart: 100,
            co2TotalGain: 2,
            tankLevelAtFermStart: 1000,
            frozenGravity: null,
          },
          { co2Total: 950, temperature: 12, headPressure: 2 },
          tankLevel(2, 9, { scale: 3, offset: 0 }),
        ),
      },
    ],
    [
      'pressurized batch: the frozen estimate',
      null,
      batch({ state: 'PRESSURIZED', frozenGravity: frozen }),
      {},
      { state: 'PRESSURIZED', gravityParameters: frozen },
    ],
    ['ended batch still found running: idle', null, batch({ state: 'MANUALLY_ENDED' }), {}, { state: 'IDLE' }],
  ])('%s', (_name, settings, running, extra, expected) => {
    const latest = new Map([...values(readings), ...Object.entries(extra)]);
    const tank = tankView({ device, tankNumber: 2, settings, batch: running, latest: (code) => latest.get(code) });
    expect(tank).toMatchObject({
      tankNumber: 2,
      deviceId: 'dev-1',
      thingName: 'brew-1',
      name: 'FV 1',
      isConnected: true,
      rawDeviceLogs: null,
      isVatMarked: false,
      ...expected,
    });
    if (running) expect(tank.batchInfo).toBe(running);
  });

  it('answers the API shape, key for key, in the order the server has always sent', () =>
    expect(Object.keys(tankView({ device, tankNumber: 1, settings: null, batch: null, latest: () => null }))).toEqual([
      'tankNumber',
      'deviceId',
      'thingName',
      'name',
      'isConnected',
      'state',
      'capacity',
      'channelsMap',
      'gravityParameters',
      'batchInfo',
      'rawDeviceLogs',
      'calibration',
      'isVatMarked',
    ]));

  it.each<[string, Record<string, number>, number, boolean]>([
    ['vat 2 marked (bits 6 and 7)', { '5441': 0b1100_0000 }, 2, true],
    ['vat 2 only sealed', { '5441': 0b0100_0000 }, 2, false],
    ['another vat marked', { '5440': 0b1100_0000 }, 2, false],
  ])('%s', (_name, registers, tankNumber, marked) =>
    expect(
      tankView({ device: { ...device, registers }, tankNumber, settings: null, batch: null, latest: () => null })
        .isVatMarked,
    ).toBe(marked),
  );

  it.each<[string, TankSettings | null | undefined, TankSettings]>([
    ['none kept', null, { capacity: null, co2TotalGain: DEFAULT_CO2_TOTAL_GAIN, tankLevel: null }],
    ['none read', undefined, { capacity: null, co2TotalGain: DEFAULT_CO2_TOTAL_GAIN, tankLevel: null }],
    ['kept', calibrated, calibrated],
  ])('tank settings: %s', (_name, kept, settings) => expect(tankSettings(kept)).toEqual(settings));
});

describe('a group’s tanks', () => {
  const candidate = (name: string, base: string | null, tags: [string, string][], registers = {}) => ({
    name,
    base,
    tags: tags.map(([key, value]) => ({ key, value })),
    registers,
  });
  it.each([
    [
      'brewing controllers numbered in order',
      [candidate('A', 'BREW 1.2', []), candidate('B', 'BREW 1.2', [])],
      [
        ['A', 1],
        ['B', 2],
      ],
    ],
    [
      'a mash tun and a chiller are no tanks; a vessel tag makes one',
      [
        candidate('Mash', 'BREW 1.2', [['vessel', 'mash tun']]),
        candidate('Chiller', 'GLYCOL 1', []),
        candidate('Uni', 'PLC 2', [['Vessel', 'Unitank']]),
      ],
      [['Uni', 1]],
    ],
    [
      'a VAT_NUMBER register wins; the others take the free numbers',
      [candidate('A', 'BREW 1', []), candidate('B', 'BREW 1', [], { 5405: 1 })],
      [
        ['A', 2],
        ['B', 1],
      ],
    ],
  ])('%s', (_name, devices, numbered) =>
    expect(
      numberedTanks(devices, (entry) => entry).map(({ device: entry, tankNumber }) => [entry.name, tankNumber]),
    ).toEqual(numbered),
  );
});

describe('the brew summary and the batch list', () => {
  it.each([
    [null, null],
    [3, 3],
  ])('selected tank %s', (selected, answered) =>
    expect(brewSummary({ id: 'g1', name: 'Cellar' }, ['tank'], selected)).toEqual({
      groupId: 'g1',
      groupName: 'Cellar',
      tanks: ['tank'],
      pressurizedThreshold: { upper: 30, lower: 10 },
      selectedBrewTankNumber: answered,
    }),
  );

  const line = {
    id: 'b1',
    deviceId: 'dev-1',
    state: 'FERMENTING' as const,
    date: { start: 1, end: null },
    props: { name: 'Stout' },
    sensoryCount: 2,
    isDemo: false,
  };
  it.each<[string, { value: number }[], string | null, number | null]>([
    ['no readings, no report', [], null, null],
    ['the latest of its readings, its report', [{ value: 1.05 }, { value: 1.02 }], 'report-1', 1.02],
  ])('%s', (_name, gravities, report, lastGravity) =>
    expect(batchListEntry({ ...line, gravities }, { tankNumber: 4, name: 'FV 4' }, report)).toEqual({
      id: 'b1',
      deviceId: 'dev-1',
      tankNumber: 4,
      tankName: 'FV 4',
      state: 'FERMENTING',
      date: { start: 1, end: null },
      props: { name: 'Stout' },
      lastGravity,
      sensoryCount: 2,
      isDemo: false,
      latestReport: report,
    }),
  );

  const ratings = { aroma: 4, flavor: 4, mouthfeel: 3, appearance: 5, overall: 4, carbonation: 2 };
  it.each([
    ['', 'Tasting 4.0/5'],
    ['Roasty\nsecond line', 'Tasting 4.0/5: Roasty'],
    ['x'.repeat(130), `Tasting 4.0/5: ${'x'.repeat(120)}`],
  ])('tasting note %j is marked %j', (notes, text) => expect(tastingMarkText(ratings, notes)).toBe(text));
});

describe('a batch starting on a tank', () => {
  it.each<[string, TankSettings | null, Partial<ReturnType<typeof batchStart>>]>([
    [
      'never set up: default gain, no level',
      null,
      { calibration: { co2TotalGain: DEFAULT_CO2_TOTAL_GAIN, tankLevel: null }, tankLevelAtFermStart: null },
    ],
    [
      'calibrated: the tank’s gain and calibration, its level now',
      calibrated,
      {
        calibration: { co2TotalGain: 1.5, tankLevel: calibration },
        tankLevelAtFermStart: tankLevel(2, 9, calibration),
      },
    ],
  ])('%s', (_name, settings, expected) => {
    const latest = values(readings);
    expect(batchStart(device.custom, settings, (code) => latest.get(code), 5 * hour)).toEqual({
      state: 'FILLING',
      transitions: [{ state: 'FILLING', timestamp: 5 * hour }],
      channelsMap: map,
      co2TotalAtStart: 900,
      ...expected,
    });
  });
});

describe('a running batch followed by its tank', () => {
  it.each<[string, ReturnType<typeof batch>, Partial<Record<keyof ChannelsMap, number>>, object, boolean]>([
    ['fermenting on: nothing to store', batch(), { co2Flow: 1, upperPressure: 0.4, lowerPressure: 3 }, {}, false],
    [
      'CO2 stopped before any pressure: a fermenting batch stays fermenting',
      batch(),
      { co2Flow: 0, upperPressure: 0.4, lowerPressure: 3 },
      { state: 'FERMENTING' },
      false,
    ],
    [
      'pressures past both thresholds: PRESSURIZED recorded an hour back, the estimate frozen as it stands',
      batch(),
      { co2Flow: 0, upperPressure: 6, lowerPressure: 9, co2Total: 900, temperature: 12 },
      {
        state: 'PRESSURIZED',
        pressurizedAt: 99 * hour,
        transitions: [
          { state: 'FILLING', timestamp: 0 },
          { state: 'FERMENTING', timestamp: hour },
          { state: 'PRESSURIZED', timestamp: 99 * hour },
        ],
        frozenGravity: batchGravity(
          {
            originalGravity: 1.05,
            co2TotalAtStart: 100,
            co2TotalGain: 2,
            tankLevelAtFermStart: 1000,
            frozenGravity: null,
          },
          { co2Total: 900, temperature: 12, headPressure: 6 },
          tankLevel(6, 9, { scale: 3, offset: 0 }),
        ),
      },
      true,
    ],
  ])('%s', (_name, running, readingsNow, expected, changed) => {
    const latest = values(readingsNow);
    const followed = followRunningBatch(running, null, (code) => latest.get(code), 100 * hour);
    expect(followed.changed).toBe(changed);
    expect(followed.batch).toMatchObject(changed ? expected : running);
    if (!changed) expect(followed.batch).toBe(running);
    expect(followed.kept).toEqual({
      t: 100 * hour,
      level: tankLevel(readingsNow.upperPressure, readingsNow.lowerPressure, { scale: 3, offset: 0 }),
    });
  });

  it('a filling batch whose level rises stays FILLING; once steady it is FILLED, and the change is recorded', () => {
    const filling = batch({ state: 'FILLING', transitions: [{ state: 'FILLING', timestamp: 0 }] });
    const at = (lower: number) => {
      const latest = values({ co2Flow: 0, upperPressure: 0, lowerPressure: lower });
      return (code: string) => latest.get(code);
    };
    const first = followRunningBatch(filling, null, at(1), hour);
    const rising = followRunningBatch(first.batch, first.kept, at(100), 2 * hour);
    expect(rising.batch.state).toBe('FILLING');
    const steady = followRunningBatch(rising.batch, rising.kept, at(100), 3 * hour);
    expect(steady.changed).toBe(true);
    expect(steady.batch.transitions.at(-1)).toEqual({ state: 'FILLED', timestamp: 3 * hour });
  });
});
