import { describe, expect, it } from 'vitest';
import { gravityProblem, readingTimeProblem, READING_BEFORE_BATCH, READING_IN_FUTURE } from './brew';
import {
  ACTIVE_TANK_STATES,
  BREW_REGISTERS,
  CALIBRATION_CONTROLS,
  CALIBRATION_READ_REGISTERS,
  calibrationReadout,
  registerPairValue,
  registerWords,
  type CalibrationReadout,
  CO2_GRAMS_PER_LITRE,
  ETHANOL_PER_CO2,
  TANK_STATES,
  abv,
  advanceBatchTrack,
  annotationColor,
  batchGravity,
  fermentationDay,
  brewLogWindow,
  tankLogQuery,
  type TankLogQuery,
  brewSetpointProblem,
  celsiusToFahrenheit,
  clampCo2Flow,
  defaultChannelsMap,
  deriveTankState,
  shownTankState,
  batchAbv,
  formatAbv,
  isFermentationVessel,
  estimateGravity,
  formatGravity,
  hasBatchEnded,
  isActiveTankState,
  isTankVatMarked,
  levelRatePerMinute,
  tankMoment,
  type LevelSample,
  matchCapacityPreset,
  capacityPresetCalibration,
  capacityPresetLabel,
  tankCapacityPreset,
  TANK_CAPACITY_PRESETS,
  mergeTankMessage,
  pressurizedAt,
  pressurizedThresholdPsi,
  recordTransition,
  saturatedCo2Volumes,
  saturationRatio,
  tankIcon,
  tankLevel,
  PSI_PER_KPA,
  takeBackEndRefusal,
  tankNumbers,
  tastingAverages,
  tastingRatings,
  tastingScore,
  vatStatusRegister,
  type BatchTrack,
  type GravityEstimateInput,
  type TankMoment,
  type TankState,
  type TankStateInput,
} from './brew';

describe('tank states', () => {
  it.each(TANK_STATES.map((state) => [state, ['FILLING', 'FILLED', 'FERMENTING', 'CARBONATING'].includes(state)]))(
    '%s active: %s',
    (state, active) => expect(isActiveTankState(state as TankState)).toBe(active),
  );

  it('lists the active states in the specification’s order', () =>
    expect(ACTIVE_TANK_STATES).toEqual(['FILLING', 'FILLED', 'FERMENTING', 'CARBONATING']));

  it.each<[TankState, string]>([
    ['FILLED', 'filled'],
    ['FILLING', 'filling'],
    ['FERMENTING', 'fermenting'],
    ['CARBONATING', 'fermenting'],
    ['CLEANING', 'cleaning'],
    ['IDLE', 'idle'],
    ['PRESSURIZED', 'idle'],
    ['MANUALLY_ENDED', 'idle'],
  ])('%s shows the %s icon', (state, icon) => expect(tankIcon(state)).toBe(icon));

  const base: TankStateInput = {
    batchState: 'FILLED',
    co2Flow: 0,
    levelRatePerMinute: 0,
    pressurized: false,
  };
  it.each<[string, Partial<TankStateInput>, TankState]>([
    ['batch, level rising', { batchState: 'FILLING', levelRatePerMinute: 12 }, 'FILLING'],
    ['filling, the rise not known yet', { batchState: 'FILLING', levelRatePerMinute: null }, 'FILLING'],
    ['filled, the rise not known', { levelRatePerMinute: null }, 'FILLED'],
    ['filling, the level steady', { batchState: 'FILLING' }, 'FILLED'],
    ['batch, level steady, no CO2', {}, 'FILLED'],
    ['batch, CO2 flowing', { co2Flow: 3 }, 'FERMENTING'],
    ['fermented, flow tailing off', { batchState: 'FERMENTING', co2Flow: 0.05 }, 'FERMENTING'],
    ['negative flow reading counts as none', { co2Flow: -4 }, 'FILLED'],
    ['pressurized, still fermenting', { batchState: 'FERMENTING', co2Flow: 1, pressurized: true }, 'CARBONATING'],
    ['pressurized, quiet', { batchState: 'FERMENTING', co2Flow: 0, pressurized: true }, 'PRESSURIZED'],
    ['pressurized, meter noise', { batchState: 'PRESSURIZED', co2Flow: 0.4, pressurized: true }, 'PRESSURIZED'],
    ['pressurized, CO2 flowing again', { batchState: 'PRESSURIZED', co2Flow: 0.6, pressurized: true }, 'CARBONATING'],
    ['carbonating, flow easing', { batchState: 'CARBONATING', co2Flow: 0.3, pressurized: true }, 'CARBONATING'],
    ['carbonating, flow stopped', { batchState: 'CARBONATING', co2Flow: 0.1, pressurized: true }, 'PRESSURIZED'],
  ])('%s -> %s', (_name, change, state) => expect(deriveTankState({ ...base, ...change })).toBe(state));

  // Issue 35 item 8: the tracked state is shown (a FILLING batch is not re-read as FILLED), and a tank
  // goes idle when its batch ends (§4), beer or rinse water still in it.
  it.each<[TankState | null, TankState]>([
    ['FILLING', 'FILLING'],
    ['FILLED', 'FILLED'],
    ['FERMENTING', 'FERMENTING'],
    ['CARBONATING', 'CARBONATING'],
    ['PRESSURIZED', 'PRESSURIZED'],
    ['MANUALLY_ENDED', 'IDLE'],
    [null, 'IDLE'],
  ])('a tank whose running batch is %s shows %s', (batchState, shown) =>
    expect(shownTankState(batchState)).toBe(shown),
  );

  it.each<[TankState[], TankState, number, TankState[]]>([
    [[], 'FILLING', 1, ['FILLING']],
    [['FILLING'], 'FILLING', 2, ['FILLING']],
    [['FILLING'], 'FERMENTING', 3, ['FILLING', 'FERMENTING']],
  ])('recording %j then %s', (before, state, timestamp, after) => {
    const transitions = before.map((name, index) => ({ state: name, timestamp: index }));
    expect(recordTransition(transitions, state, timestamp).map((transition) => transition.state)).toEqual(after);
  });
});

describe('channel map and registers', () => {
  it.each([
    ['Vats 4.2', 'c3'],
    ['BrewCtl 7.49', 'c3'],
    ['Unfieldlinkd', 'c3'],
    [null, 'c3'],
    ['BrewCtl 7.50', 'a5'],
    ['BrewCtl 8.1', 'a5'],
  ])('%j reads the bottom pressure from %s', (custom, channel) =>
    expect(defaultChannelsMap(custom)).toEqual({
      co2Flow: 'a1',
      co2Total: 't1',
      temperature: 't10',
      lowerPressure: channel,
      upperPressure: 'c2',
      ph: 't9',
      temperatureSetpoint: 'sp1',
    }),
  );

  it('names the registers of §3', () =>
    expect(BREW_REGISTERS).toEqual({
      VAT_NUMBER: 5405,
      INPUT_CHANNEL_REGISTER: 5406,
      LOW_CAL_DISPLAY: 26625,
      HIGH_CAL_DISPLAY: 26627,
      VAT_STATUS_START: 5440,
      CO2_TOTAL: 26643,
    }));

  it('lists the calibration controls gpf-1 to gpf-7', () =>
    expect(CALIBRATION_CONTROLS.map((control) => `${control.code} ${control.label}`)).toEqual([
      'gpf1 CO2 zero offset',
      'gpf2 Tank pressure zero offset',
      'gpf3 Calibration active',
      'gpf4 Capture low',
      'gpf5 Capture high',
      'gpf6 Apply',
      'gpf7 Calibration error',
    ]));

  it.each<[number, [number, number]]>([
    [0, [0, 0]],
    [65_535, [0, 65_535]],
    [65_536, [1, 0]],
    [1_234_567, [18, 54_919]],
    [-1, [65_535, 65_535]],
    [-1850, [65_535, 63_686]],
  ])('%i goes into the register pair %j (high word first)', (value, words) => {
    expect(registerWords(value)).toEqual(words);
    expect(registerPairValue(words[0], words[1], value < 0)).toBe(value);
  });

  it.each<[number, number, boolean, number]>([
    [65_535, 65_535, true, -1],
    [65_535, 65_535, false, 4_294_967_295],
    [0x7fff, 0xffff, true, 2_147_483_647],
    [0x8000, 0, true, -2_147_483_648],
  ])('the pair %i, %i read signed %s is %i', (high, low, signed, value) =>
    expect(registerPairValue(high, low, signed)).toBe(value),
  );

  it.each<[string, Record<number, number>, CalibrationReadout]>([
    [
      'every register read',
      { 5406: 1, 26625: 0, 26626: 1850, 26627: 0, 26628: 2210, 26643: 7, 26644: 41_248 },
      { inputChannel: 'c1', lowCapture: 18.5, highCapture: 22.1, co2Total: 500_000 },
    ],
    [
      'a negative capture (an ice bath below zero)',
      { 5406: 3, 26625: 65_535, 26626: 65_486, 26627: 0, 26628: 0, 26643: 0, 26644: 0 },
      { inputChannel: 'c3', lowCapture: -0.5, highCapture: 0, co2Total: 0 },
    ],
    [
      'nothing read yet, or half a pair',
      { 26625: 0 },
      { inputChannel: null, lowCapture: null, highCapture: null, co2Total: null },
    ],
    [
      'input 0 (none selected)',
      { 5406: 0 },
      { inputChannel: null, lowCapture: null, highCapture: null, co2Total: null },
    ],
  ])('reads the calibration screen from registers: %s', (_name, registers, readout) =>
    expect(calibrationReadout(registers)).toEqual(readout),
  );

  it('reads the input register and each pair of the calibration displays and the CO2 total', () =>
    expect(CALIBRATION_READ_REGISTERS).toEqual([5406, 26625, 26626, 26627, 26628, 26643, 26644]));

  it.each([
    [1, 5440],
    [3, 5442],
  ])('vat %i has its status in register %i', (vat, register) => expect(vatStatusRegister(vat)).toBe(register));

  it.each<[string | null, number | undefined, boolean]>([
    ['Vats 4.2', 0b1100_0000, true],
    ['Vats 4.2', 0b1111_1111, true],
    ['Vats 4.2', 0b0100_0000, false],
    ['Vats 4.2', 0b1000_0000, false],
    ['Vats 4.2', undefined, false],
    ['Vats 3.9', 0b1100_0000, false],
    ['BrewCtl 7.52', 0b1100_0000, false],
    [null, 0b1100_0000, false],
  ])('%j with vat 2 status %s is marked: %s', (custom, status, marked) => {
    const registers: Record<string, number> = status === undefined ? {} : { '5441': status };
    expect(isTankVatMarked(custom, registers, 2)).toBe(marked);
  });

  it.each([
    [
      [{}, {}, {}],
      [1, 2, 3],
    ],
    [
      [{ 5405: 3 }, {}, { 5405: 1 }],
      [3, 2, 1],
    ],
    [
      [{ 5405: 2 }, { 5405: 2 }, {}],
      [2, 1, 3],
    ],
    [
      [{ 5405: 0 }, { 5405: 1.5 }],
      [1, 2],
    ],
  ])('tanks with registers %j are numbered %j', (registers, numbers) =>
    expect(tankNumbers(registers.map((entry) => ({ registers: entry as Record<string, number> })))).toEqual(numbers),
  );
});

describe('tank level and pressure', () => {
  it.each<[number | null, number | null, number, number, number | null]>([
    // 1.45038 psi is 10 kPa.
    [0.5, 1.95038, 1, 0, 10],
    [1.95038, 0.5, 1, 0, 10],
    [0.5, 1.95038, 110, 0, 1100],
    [0.5, 1.95038, 110, 25, 1125],
    [0, 0.1, 1, 0, 1],
    [0, 0.07, 1, 0, 0],
    [null, 2, 1, 0, null],
    [1, null, 1, 0, null],
  ])('upper %s psi, lower %s psi, scale %s, offset %s: %s L', (upper, lower, scale, offset, litres) =>
    expect(tankLevel(upper, lower, { scale, offset })).toBe(litres),
  );

  it('converts the default thresholds 30 and 10 kPa to psi', () => {
    const psi = pressurizedThresholdPsi();
    expect(psi.upper).toBeCloseTo(4.35114, 5);
    expect(psi.lower).toBeCloseTo(1.45038, 5);
  });

  const hour = 3_600_000;
  it.each<[string, { t: number; upper: number; lower: number }[], number | null]>([
    ['never above', [{ t: 5 * hour, upper: 1, lower: 3 }], null],
    [
      'head above, bottom above',
      [
        { t: 5 * hour, upper: 1, lower: 3 },
        { t: 6 * hour, upper: 4.5, lower: 6 },
      ],
      5 * hour,
    ],
    ['head above, bottom not (empty tank)', [{ t: 6 * hour, upper: 4.5, lower: 1.4 }], null],
    ['just at the threshold is not above', [{ t: 6 * hour, upper: 4.35114, lower: 6 }], null],
    [
      'the first reading that passes counts',
      [
        { t: 6 * hour, upper: 5, lower: 1 },
        { t: 7 * hour, upper: 5, lower: 9 },
        { t: 8 * hour, upper: 9, lower: 12 },
      ],
      6 * hour,
    ],
  ])('%s', (_name, samples, at) => expect(pressurizedAt(samples)).toBe(at));

  it('takes other thresholds in kPa', () =>
    expect(pressurizedAt([{ t: 2 * hour, upper: 2, lower: 2 }], { upper: 10, lower: 5 })).toBe(hour));

  it.each([
    [-0.3, 0],
    [0, 0],
    [2.5, 2.5],
  ])('CO2 flow %s reads %s', (flow, clamped) => expect(clampCo2Flow(flow)).toBe(clamped));
});

describe('CO2 and gravity', () => {
  it.each([
    [0, 32],
    [20, 68],
    [-5, 23],
    [100, 212],
  ])('%s °C is %s °F', (celsius, fahrenheit) => expect(celsiusToFahrenheit(celsius)).toBeCloseTo(fahrenheit, 9));

  // The ASBC force-carbonation table (brewery.org/library/CO2charts.html): psi gauge for volumes at °F.
  it.each([
    [32, 3.5, 2.0],
    [38, 12.3, 2.6],
    [40, 11.2, 2.4],
    [50, 16.3, 2.4],
    [60, 23.1, 2.5],
    [68, 19.8, 2.0],
    [44, 12.1, 2.3],
  ])('at %s °F and %s psi the beer holds %s volumes', (fahrenheit, psi, volumes) =>
    expect(Math.abs(saturatedCo2Volumes(psi, (fahrenheit - 32) / 1.8) - volumes)).toBeLessThan(0.06),
  );

  it('holds 0.84 volumes (1.66 g/L) in open beer at 20 °C, as Henry’s law gives', () => {
    // Henry's law for CO2 in beer (braukaiser.com): (0 + 1.013) × e^(−10.73797 + 2617.25 / 293.15) × 10.
    const henry = 1.013 * Math.exp(-10.73797 + 2617.25 / 293.15) * 10;
    expect(saturatedCo2Volumes(0, 20) * CO2_GRAMS_PER_LITRE).toBeCloseTo(henry, 1);
  });

  it.each([
    [1.05, 1.01, 5.25],
    [1.048, 1.012, 4.725],
    [1.06, 1.06, 0],
    [1.08, 1.015, 8.53125],
  ])('ABV of OG %s, gravity %s is %s %%', (og, gravity, percent) => expect(abv(og, gravity)).toBeCloseTo(percent, 9));

  it.each<[number | null | undefined, number | null | undefined, number | null]>([
    [2000, 1000, 2],
    [0, 1000, 0],
    [null, 1000, null],
    [2000, null, null],
    [undefined, 1000, null],
    [2000, 0, null],
  ])('saturation ratio of %s over %s is %s', (saturated, level, ratio) =>
    expect(saturationRatio(saturated, level)).toBe(ratio),
  );

  const input: GravityEstimateInput = {
    originalGravity: 1.05,
    co2TotalAtStart: 500_000,
    co2Total: 500_000,
    co2TotalGain: 1,
    tankLevel: 1000,
    temperature: 20,
    headPressure: 0,
  };
  /** Litres of CO2 gas that fermenting `points` of gravity releases from 1000 L (ABV / 131.25 per point). */
  const co2LitresFor = (gravityDrop: number) =>
    (((gravityDrop * 131.25) / 100) * 789 * 1000) / ETHANOL_PER_CO2 / CO2_GRAMS_PER_LITRE;

  it('estimates the final gravity of a 1.050 wort whose CO2 says it fermented to 1.010 (ABV 5.25 %)', () => {
    // 5.25 % ABV is 41.42 g/L of ethanol, which comes with 39.57 g/L (19,985 L of gas) of CO2.
    const total = co2LitresFor(0.04);
    expect(total).toBeCloseTo(19_985, -1);
    const saturated = saturatedCo2Volumes(0, 20) * 1000;
    const estimate = estimateGravity({ ...input, co2Total: 500_000 + total - saturated });
    expect(estimate.currentGravity).toBeCloseTo(1.01, 6);
    expect(estimate.ethanol).toBeCloseTo(5.25, 4);
    expect(estimate.saturatedCo2).toBeCloseTo(saturated, 6);
    expect(estimate.tankLevel).toBe(1000);
  });

  it.each<[string, Partial<GravityEstimateInput>, number]>([
    // Only dissolved CO2 so far: 0.839 volumes × 1.98 g/L → 1.66 g/L → 0.17 % ABV.
    ['nothing through the meter yet', {}, 1.05 - (saturatedCo2Volumes(0, 20) * 1.98 * ETHANOL_PER_CO2) / 7.89 / 131.25],
    // The gain scales what the meter counted: 1.2 × 10,000 L.
    [
      'a meter reading low by a sixth',
      { co2Total: 510_000, co2TotalGain: 1.2 },
      1.05 - ((((12_000 + saturatedCo2Volumes(0, 20) * 1000) * 1.98) / 1000) * ETHANOL_PER_CO2) / 7.89 / 131.25,
    ],
    // A total below the start (meter reset) counts as nothing evolved.
    [
      'a total that went back',
      { co2Total: 400_000 },
      1.05 - (saturatedCo2Volumes(0, 20) * 1.98 * ETHANOL_PER_CO2) / 7.89 / 131.25,
    ],
  ])('%s', (_name, change, gravity) =>
    expect(estimateGravity({ ...input, ...change }).currentGravity).toBeCloseTo(gravity, 9),
  );

  it('holds more CO2 in cold beer under pressure, so the same meter total means more fermented', () => {
    const warm = estimateGravity({ ...input, co2Total: 510_000 });
    const coldUnderPressure = estimateGravity({ ...input, co2Total: 510_000, temperature: 2, headPressure: 12 });
    expect(coldUnderPressure.saturatedCo2!).toBeGreaterThan(warm.saturatedCo2! * 2.5);
    expect(coldUnderPressure.currentGravity!).toBeLessThan(warm.currentGravity!);
  });

  it.each<[string, Partial<GravityEstimateInput>]>([
    ['no original gravity', { originalGravity: null }],
    ['no level', { tankLevel: null }],
    ['an empty tank', { tankLevel: 0 }],
    ['no start total', { co2TotalAtStart: null }],
    ['no total', { co2Total: null }],
    ['no temperature', { temperature: null }],
    ['no head pressure', { headPressure: null }],
  ])('has no estimate with %s', (_name, change) => {
    const estimate = estimateGravity({ ...input, ...change });
    expect(estimate.currentGravity).toBeNull();
    expect(estimate.ethanol).toBeNull();
    expect(estimate.hasGravityFreezed).toBe(false);
  });

  // Balling: 2.0665 g of extract gives 1 g of ethanol and 0.9565 g of CO2. A 12.4 °P wort (SG 1.050)
  // fermenting 1 °P of real extract releases 0.9565 × 10 × 1.050 / (2.0665 − 0.010665 × 12.4) ≈ 5.16
  // g/L of CO2 (the specification's 5.16 and 12.4); the estimate turns that into the apparent gravity.
  it('agrees with Balling: 5.16 g/L of CO2 from a 12.4 °P wort is 1 °P of real extract, about 5 gravity points apparent', () => {
    const co2 = (5.16 * 1000) / CO2_GRAMS_PER_LITRE;
    const estimate = estimateGravity({ ...input, co2Total: 500_000 + co2 - saturatedCo2Volumes(0, 20) * 1000 });
    // Real extract falls 1 °P (≈ 0.0040 SG); the apparent gravity falls further as ethanol is lighter
    // than water: 1 °P RE = 1 / 0.8192 °P AE minus nothing = ≈ 0.0050 SG.
    expect(1.05 - estimate.currentGravity!).toBeGreaterThan(0.0045);
    expect(1.05 - estimate.currentGravity!).toBeLessThan(0.0056);
  });

  it.each([
    [1.05, '1.0500'],
    [1.01234, '1.0123'],
    [0.99876, '0.9988'],
    [null, '–'],
  ])('gravity %s shows as %s', (gravity, text) => expect(formatGravity(gravity)).toBe(text));
});

describe('capacity presets, setpoint, window, ratings, annotations', () => {
  it.each<[number, number, boolean]>([
    [32, 55, true],
    [35, 55, true],
    [32.003, 55.005, true],
    [32.004, 55, false],
    [35, 55.006, false],
    [33, 55, false],
    [32, 60, false],
  ])('height %s, capacity %s matches a preset: %s', (height, capacity, matched) =>
    expect(matchCapacityPreset(height, capacity) !== null).toBe(matched),
  );

  it.each([
    [TANK_CAPACITY_PRESETS[0], '55 gal drum, 32 in (208 L)', 208.198, 26.12],
    [TANK_CAPACITY_PRESETS[1], '55 gal drum, 35 in (208 L)', 208.198, 23.88],
  ])('preset %j reads %s: %s L at %s L per kPa', (preset, label, litres, scale) => {
    expect(capacityPresetLabel(preset)).toBe(label);
    const calibration = capacityPresetCalibration(preset);
    expect(calibration.capacity).toBeCloseTo(litres, 3);
    expect(calibration.tankLevel.scale).toBeCloseTo(scale, 2);
    // Full at its height: a column of 32 (35) inches of water reads the whole capacity.
    const fullPsi = preset.height * 0.0254 * 9.80665 * PSI_PER_KPA;
    expect(tankLevel(0, fullPsi, calibration.tankLevel)).toBe(Math.round(litres));
  });

  it.each<[string, number | null, { scale: number; offset: number } | null, number | null]>([
    ['the 32 in preset as set', 208.19764812, { scale: 26.120049, offset: 0 }, 32],
    ['the 32 in preset as the form rounds it', 208.198, { scale: 26.12, offset: 0 }, 32],
    ['the 35 in preset as the form rounds it', 208.198, { scale: 23.881, offset: 0 }, 35],
    ['a scale 0.1 % off', 208.198, { scale: 26.146, offset: 0 }, null],
    ['an offset', 208.198, { scale: 26.12, offset: 5 }, null],
    ['a 3500 L fermenter', 3500, { scale: 110, offset: 0 }, null],
    ['no capacity', null, { scale: 26.12, offset: 0 }, null],
    ['no level calibration', 208.198, null, null],
  ])('a tank with %s matches preset height %s', (_name, capacity, level, height) =>
    expect(tankCapacityPreset(capacity, level)?.height ?? null).toBe(height),
  );

  it.each<[number, string | null]>([
    [-5, null],
    [100, null],
    [12.3, null],
    [-5.1, 'The setpoint must be between -5 and 100 °C.'],
    [100.1, 'The setpoint must be between -5 and 100 °C.'],
    [Number.NaN, 'Enter a temperature.'],
  ])('setpoint %s: %s', (value, problem) => expect(brewSetpointProblem(value)).toBe(problem));

  const day = 86_400_000;
  it.each([
    ['a batch of two days', 10 * day, 12 * day, 10 * day - 600_000, 12 * day],
    ['a batch of ten days: 7 days', 10 * day, 20 * day, 10 * day - 600_000, 17 * day - 600_000],
    ['a batch that just began', 10 * day, 10 * day, 10 * day - 600_000, 10 * day],
  ])('%s', (_name, start, now, from, to) => expect(brewLogWindow(start, now)).toEqual({ start: from, end: to }));

  const legacy = defaultChannelsMap('Vats 4.2');
  it.each<[string, { start: number; end: number | null }, number, TankLogQuery]>([
    [
      'a running batch of two days',
      { start: 10 * day, end: null },
      12 * day,
      { channels: ['t10', 'sp1', 't1', 'c2'], start: 10 * day - 600_000, end: 12 * day, binCount: 2000 },
    ],
    [
      'a running batch of ten days: its first 7 days, 2000 bins',
      { start: 10 * day, end: null },
      20 * day,
      { channels: ['t10', 'sp1', 't1', 'c2'], start: 10 * day - 600_000, end: 17 * day - 600_000, binCount: 2000 },
    ],
    [
      'an ended batch: up to its end',
      { start: 10 * day, end: 11 * day },
      30 * day,
      { channels: ['t10', 'sp1', 't1', 'c2'], start: 10 * day - 600_000, end: 11 * day, binCount: 2000 },
    ],
  ])('the tank log of %s', (_name, date, now, query) => expect(tankLogQuery(legacy, date, now)).toEqual(query));

  it('reads a channel the map names twice once', () =>
    expect(
      tankLogQuery({ ...legacy, temperatureSetpoint: 't10' }, { start: day, end: null }, 2 * day).channels,
    ).toEqual(['t10', 't1', 'c2']));

  const note = { aroma: 4, flavor: 3.5, mouthfeel: 3, appearance: 5, overall: 4.5, carbonation: 1 };
  it.each([
    ['a tasting body, its other fields left behind', { ...note, batchId: 'b1', notes: 'crisp', id: 'n1' }],
    ['the ratings alone', note],
  ])('takes the six ratings of %s, in order', (_name, from) => {
    const ratings = tastingRatings(from);
    expect(ratings).toEqual(note);
    expect(Object.keys(ratings)).toEqual(['aroma', 'flavor', 'mouthfeel', 'appearance', 'overall', 'carbonation']);
  });

  it('scores a note by the mean of aroma, flavor, mouthfeel, appearance and overall', () =>
    expect(tastingScore(note)).toBe(4));

  it.each([
    [[], null],
    [[note], { aroma: 4, flavor: 3.5, mouthfeel: 3, appearance: 5, overall: 4.5, score: 4 }],
    [
      [note, { ...note, aroma: 2, overall: 2.5, carbonation: 5 }],
      { aroma: 3, flavor: 3.5, mouthfeel: 3, appearance: 5, overall: 3.5, score: 3.6 },
    ],
  ])('averages %j', (notes, averages) => {
    const result = tastingAverages(notes);
    if (averages === null) expect(result).toBeNull();
    else
      for (const [key, value] of Object.entries(averages))
        expect(result?.[key as keyof typeof result]).toBeCloseTo(value, 9);
  });

  it.each([
    [true, '#2f6fde'],
    [false, '#8a8f98'],
  ])('a sensory annotation (%s) is coloured %s', (sensory, color) => expect(annotationColor(sensory)).toBe(color));
});

describe('cloud messages about tanks', () => {
  const batch = (id: string, notes: number) => ({
    id,
    annotations: Array.from({ length: notes }, (_, index) => index),
    gravities: Array.from({ length: notes }, (_, index) => index),
    sensories: Array.from({ length: notes }, (_, index) => index),
  });
  const tank = (state: TankState, batchInfo: ReturnType<typeof batch> | null, extra = 0) => ({
    state,
    batchInfo,
    extra,
  });

  it.each<[string, ReturnType<typeof tank>, ReturnType<typeof tank>, number, number]>([
    ['an idle tank is replaced', tank('IDLE', null), tank('FILLING', batch('b1', 0), 7), 7, 0],
    ['an active tank keeps its notes', tank('FERMENTING', batch('b1', 3)), tank('FERMENTING', batch('b1', 1), 7), 7, 3],
    [
      'a pressurized tank is replaced',
      tank('PRESSURIZED', batch('b1', 3)),
      tank('PRESSURIZED', batch('b1', 1), 7),
      7,
      1,
    ],
    ['a new batch is replaced whole', tank('FERMENTING', batch('b1', 3)), tank('FILLING', batch('b2', 1), 7), 7, 1],
  ])('%s', (_name, current, incoming, extra, notes) => {
    const merged = mergeTankMessage(current, incoming);
    expect(merged.extra).toBe(extra);
    expect(merged.state).toBe(incoming.state);
    expect(merged.batchInfo?.annotations.length ?? 0).toBe(notes);
    expect(merged.batchInfo?.gravities.length ?? 0).toBe(notes);
    expect(merged.batchInfo?.sensories.length ?? 0).toBe(notes);
  });

  it.each<[string, ReturnType<typeof tank>, ReturnType<typeof tank>, boolean]>([
    ['batch cleared', tank('FERMENTING', batch('b1', 0)), tank('IDLE', null), true],
    ['another batch', tank('FERMENTING', batch('b1', 0)), tank('FILLING', batch('b2', 0)), true],
    ['same batch', tank('FERMENTING', batch('b1', 0)), tank('CARBONATING', batch('b1', 0)), false],
    ['no batch before', tank('IDLE', null), tank('FILLING', batch('b2', 0)), false],
  ])('%s: ended %s', (_name, current, incoming, ended) => expect(hasBatchEnded(current, incoming)).toBe(ended));
});

describe('taking back an end', () => {
  it.each<[string, boolean, boolean, string | null]>([
    ['an ended batch of an idle tank', true, false, null],
    ['a running batch', false, false, 'The batch has not ended.'],
    ['an ended batch whose tank runs another', true, true, 'The tank has another batch running.'],
    ['a running batch of a tank with another', false, true, 'The batch has not ended.'],
  ])('%s', (_name, ended, tankRunsAnotherBatch, refusal) =>
    expect(takeBackEndRefusal({ ended, tankRunsAnotherBatch })).toBe(refusal),
  );
});

describe('a running batch', () => {
  const basis = {
    originalGravity: 1.05,
    co2TotalAtStart: 1000,
    co2TotalGain: 1,
    tankLevelAtFermStart: 1000,
    frozenGravity: null,
  };
  const readings = { co2Total: 11_000, temperature: 18, headPressure: 0.5 };
  const frozen = { currentGravity: 1.012, ethanol: 5, saturatedCo2: 900, hasGravityFreezed: false, tankLevel: 990 };

  it('estimates from the volume at fermentation start and shows the level now', () => {
    const gravity = batchGravity(basis, readings, 960);
    const estimate = estimateGravity({
      ...basis,
      co2Total: 11_000,
      temperature: 18,
      headPressure: 0.5,
      tankLevel: 1000,
    });
    expect(gravity).toEqual({ ...estimate, tankLevel: 960 });
  });

  it.each([
    ['frozen', { ...basis, frozenGravity: frozen }, { ...frozen, hasGravityFreezed: true }],
    [
      'no batch',
      null,
      { currentGravity: null, ethanol: null, saturatedCo2: null, hasGravityFreezed: false, tankLevel: 960 },
    ],
  ] as const)('%s', (_name, batch, expected) => expect(batchGravity(batch, readings, 960)).toEqual(expected));

  it('uses the level now when the start level is unknown', () =>
    expect(batchGravity({ ...basis, tankLevelAtFermStart: null }, readings, 500).currentGravity).toBeCloseTo(
      estimateGravity({ ...basis, ...readings, co2Total: 11_000, tankLevel: 500 }).currentGravity!,
      12,
    ));

  const day = 86_400_000;
  it.each([
    ['before fermentation, from the start', [], 10 * day, 10 * day + 5, 1],
    ['day 3 of the batch', [], 10 * day, 12 * day + 1, 3],
    [
      'from the first FERMENTING',
      [
        { state: 'FILLING', timestamp: 10 * day },
        { state: 'FERMENTING', timestamp: 11 * day },
      ],
      10 * day,
      12 * day + 1,
      2,
    ],
  ] as const)('%s: day %s', (_name, transitions, start, now, expected) =>
    expect(fermentationDay(start, transitions, now)).toBe(expected),
  );
});

describe('a running batch followed from live readings', () => {
  const minute = 60_000;
  const hour = 3_600_000;
  it.each<[string, { t: number; level: number | null } | null, { t: number; level: number | null }, number | null]>([
    ['no earlier reading', null, { t: 10 * minute, level: 500 }, null],
    ['rising 600 L over 5 minutes', { t: 0, level: 400 }, { t: 5 * minute, level: 1000 }, 120],
    ['falling', { t: 0, level: 1000 }, { t: 2 * minute, level: 990 }, -5],
    ['readings under a minute apart', { t: 0, level: 400 }, { t: 30_000, level: 500 }, null],
    ['a level unknown', { t: 0, level: null }, { t: 5 * minute, level: 1000 }, null],
  ])('level rate: %s', (_name, previous, current, rate) => expect(levelRatePerMinute(previous, current)).toBe(rate));

  // Head 0 psi: the level is the bottom pressure in kPa times the scale (1 here), rounded.
  const level = (lowerPsi: number) => Math.round(lowerPsi / PSI_PER_KPA);
  it.each<[string, LevelSample | null, number | null, number | null, LevelSample]>([
    ['nothing kept: this level is kept, no rise yet', null, 10, null, { t: 2 * minute, level: level(10) }],
    [
      'kept a minute or more before: the rise, and this level kept',
      { t: 0, level: level(10) },
      20,
      (level(20) - level(10)) / 2,
      { t: 2 * minute, level: level(20) },
    ],
    [
      'kept under a minute before: no rise, the kept level stays',
      { t: 90_000, level: level(10) },
      20,
      null,
      { t: 90_000, level: level(10) },
    ],
    // A level that could not be read is no base: it is replaced, or no rise would ever be measured.
    [
      'the kept level unknown: replaced by this one',
      { t: 0, level: null },
      20,
      null,
      { t: 2 * minute, level: level(20) },
    ],
    ['this level unknown: the kept one stays', { t: 0, level: level(10) }, null, null, { t: 0, level: level(10) }],
  ])('tank moment: %s', (_name, kept, lowerPsi, rate, next) => {
    const readings = { co2Flow: 0.1, upperPressure: 0, lowerPressure: lowerPsi };
    const { moment, kept: keptNext } = tankMoment(readings, { scale: 1, offset: 0 }, 2 * minute, kept);
    expect(moment).toEqual({
      t: 2 * minute,
      ...readings,
      level: lowerPsi === null ? null : level(lowerPsi),
      levelRatePerMinute: rate,
    });
    expect(keptNext).toEqual(next);
  });

  it('tank moment without a level calibration: no level, no rise', () =>
    expect(tankMoment({ co2Flow: 1, upperPressure: 2, lowerPressure: 9 }, null, minute, null)).toEqual({
      moment: { t: minute, co2Flow: 1, upperPressure: 2, lowerPressure: 9, level: null, levelRatePerMinute: null },
      kept: { t: minute, level: null },
    }));

  const start: BatchTrack = {
    state: 'FILLING',
    transitions: [{ state: 'FILLING', timestamp: 0 }],
    pressurizedAt: null,
  };
  const fermenting: BatchTrack = {
    state: 'FERMENTING',
    transitions: [...start.transitions, { state: 'FERMENTING', timestamp: hour }],
    pressurizedAt: null,
  };
  const moment = (t: number, values: Partial<TankMoment>): TankMoment => ({
    t,
    co2Flow: 0,
    upperPressure: 0.4,
    lowerPressure: 3,
    level: 1500,
    levelRatePerMinute: 0,
    ...values,
  });
  it.each<[string, BatchTrack, TankMoment, BatchTrack, boolean]>([
    [
      'level rising: still filling, nothing recorded',
      start,
      moment(10 * minute, { levelRatePerMinute: 40 }),
      start,
      false,
    ],
    [
      'level steady, no CO2: filled',
      start,
      moment(hour, {}),
      { ...start, state: 'FILLED', transitions: [...start.transitions, { state: 'FILLED', timestamp: hour }] },
      false,
    ],
    [
      'CO2 flowing: fermenting',
      { ...start, state: 'FILLED', transitions: [...start.transitions, { state: 'FILLED', timestamp: hour }] },
      moment(5 * hour, { co2Flow: 3 }),
      {
        state: 'FERMENTING',
        transitions: [
          ...start.transitions,
          { state: 'FILLED', timestamp: hour },
          { state: 'FERMENTING', timestamp: 5 * hour },
        ],
        pressurizedAt: null,
      },
      false,
    ],
    ['fermentation tailing off stays fermenting', fermenting, moment(50 * hour, { co2Flow: 0.05 }), fermenting, false],
    [
      'pressures past both thresholds: pressurized an hour before, the estimate freezes',
      { ...start, state: 'FERMENTING', transitions: [{ state: 'FERMENTING', timestamp: hour }] },
      moment(100 * hour, { upperPressure: 6, lowerPressure: 9 }),
      {
        state: 'PRESSURIZED',
        transitions: [
          { state: 'FERMENTING', timestamp: hour },
          { state: 'PRESSURIZED', timestamp: 99 * hour },
        ],
        pressurizedAt: 99 * hour,
      },
      true,
    ],
    [
      'pressurized while CO2 still flows: carbonating',
      { ...start, state: 'FERMENTING', transitions: [{ state: 'FERMENTING', timestamp: hour }] },
      moment(100 * hour, { upperPressure: 6, lowerPressure: 9, co2Flow: 1 }),
      {
        state: 'CARBONATING',
        transitions: [
          { state: 'FERMENTING', timestamp: hour },
          { state: 'CARBONATING', timestamp: 99 * hour },
        ],
        pressurizedAt: 99 * hour,
      },
      true,
    ],
    [
      'pressurized dated no earlier than the last transition',
      { ...start, state: 'FILLED', transitions: [{ state: 'FILLED', timestamp: 99.5 * hour }] },
      moment(100 * hour, { upperPressure: 6, lowerPressure: 9 }),
      {
        state: 'PRESSURIZED',
        transitions: [
          { state: 'FILLED', timestamp: 99.5 * hour },
          { state: 'PRESSURIZED', timestamp: 99.5 * hour },
        ],
        pressurizedAt: 99 * hour,
      },
      true,
    ],
    [
      'already pressurized: the freeze is not taken again, the head pressure may fall',
      { state: 'PRESSURIZED', transitions: [{ state: 'PRESSURIZED', timestamp: 99 * hour }], pressurizedAt: 99 * hour },
      moment(120 * hour, { upperPressure: 1, lowerPressure: 4 }),
      { state: 'PRESSURIZED', transitions: [{ state: 'PRESSURIZED', timestamp: 99 * hour }], pressurizedAt: 99 * hour },
      false,
    ],
    [
      'head above but bottom below (an empty tank under pressure): not pressurized',
      fermenting,
      moment(100 * hour, { upperPressure: 6, lowerPressure: 1 }),
      fermenting,
      false,
    ],
    [
      'pressures unknown: no freeze',
      fermenting,
      moment(100 * hour, { upperPressure: null, lowerPressure: null }),
      fermenting,
      false,
    ],
  ])('%s', (_name, track, reading, expected, froze) =>
    expect(advanceBatchTrack(track, reading)).toEqual({ track: expected, froze }),
  );
});

// Issue 35 item 8: one ABV for the tank card, the tank view and the batch report.
describe('a batch’s ABV', () => {
  const readings = [
    { value: 1.024, timestamp: 2 },
    { value: 1.022, timestamp: 5 },
    { value: 1.03, timestamp: 1 },
  ];
  it.each<[string, number | null, typeof readings, number | null, string, 'reading' | 'estimate' | null]>([
    ['the latest reading beats the estimate', 1.05, readings, 1.0246, '3.68 %', 'reading'],
    ['the estimate without a reading', 1.05, [], 1.0246, '3.33 %', 'estimate'],
    ['nothing without an original gravity', null, readings, 1.0246, '–', null],
    ['nothing without any gravity', 1.05, [], null, '–', null],
  ])('%s', (_name, og, given, estimate, shown, source) => {
    const value = batchAbv(og, given, estimate);
    expect(formatAbv(value)).toBe(shown);
    expect(value?.source ?? null).toBe(source);
  });

  it('rounds to one decimal where room is short', () => expect(formatAbv(batchAbv(1.05, [], 1.0246), 1)).toBe('3.3 %'));
});

// Issue 35 item 8: only fermentation vessels are tanks of a brew group.
describe('fermentation vessels', () => {
  const tag = (value: string) => [{ key: 'vessel', value }];
  it.each<[string, { base?: string | null; tags: { key: string; value: string }[] }, boolean]>([
    ['a fermenter by tag', { base: null, tags: tag('fermenter') }, true],
    ['a unitank by tag, any case', { tags: tag(' Unitank ') }, true],
    ['a bright tank by tag', { tags: tag('bright tank') }, true],
    [
      'a hot liquor tank by tag, even on a brewing controller',
      { base: 'BREW 3.1', tags: tag('hot liquor tank') },
      false,
    ],
    ['a brewing controller without a tag', { base: 'BREW 3.1', tags: [] }, true],
    ['a generic controller without a tag', { base: 'GEN_CTRL 2.4', tags: [] }, false],
    ['an unknown device without a tag', { base: null, tags: [{ key: 'site', value: 'Cellar' }] }, false],
    ['a device of the account tree: no base, no tag', { tags: [] }, false],
    ['a blank base', { base: '   ', tags: [] }, false],
    ['a brewing controller whose base has spaces around it', { base: '  brew 3.1 ', tags: [] }, true],
  ])('%s: %s', (_name, device, expected) => expect(isFermentationVessel(device)).toBe(expected));
});

describe('a gravity reading as typed (issue 36 item 5)', () => {
  it.each<[string, string | null]>([
    ['', null],
    ['   ', null],
    ['1.012', null],
    ['0.980', null],
    ['1.2', null],
    ['0.979', '0.979 is outside the gravities of wort and beer: 0.980 to 1.200.'],
    ['1.5', '1.5 is outside the gravities of wort and beer: 0.980 to 1.200.'],
    ['12', '12 is outside the gravities of wort and beer: 0.980 to 1.200.'],
    ['1,012', 'A gravity is a number such as 1.012 (0.980 to 1.200).'],
    ['abc', 'A gravity is a number such as 1.012 (0.980 to 1.200).'],
  ])('%j: %s', (text, problem) => expect(gravityProblem(text)).toBe(problem));

  const now = Date.UTC(2026, 10, 29, 12, 0, 0);
  const start = Date.UTC(2026, 10, 20, 8, 0, 0);
  it.each<[string, number, string | null]>([
    ['now', now, null],
    ['at the batch start', start, null],
    ['a day ago', now - 86_400_000, null],
    ['15 minutes ahead (clock tolerance)', now + 900_000, null],
    ['15 minutes and a second ahead', now + 901_000, READING_IN_FUTURE],
    ['a day ahead', now + 86_400_000, READING_IN_FUTURE],
    ['a millisecond before the start', start - 1, READING_BEFORE_BATCH],
    ['a year before the start', start - 365 * 86_400_000, READING_BEFORE_BATCH],
  ])('a reading %s: %s', (_, t, problem) => expect(readingTimeProblem(t, now, start)).toBe(problem));
});
