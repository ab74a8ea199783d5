import { LONG_RANGE_BIN_COUNT } from './chart';
import { hasVatsFlag, isVatMarked, tankChannel } from './macro';
import { isTooFarInFuture } from './timestamps';

/**
 * Brewing rules (application §3, §4, §5, §9): tank states and icons, the channel map, tank level from
 * the pressure difference, the pressurized rule and the gravity freeze, the gravity and CO2 estimate,
 * tasting ratings, registers and the vat mark. docs/decisions.md ("Brewing") cites the sources of the
 * formulas the specification does not show.
 */

/** Pounds per square inch in one kilopascal (§9). */
export const PSI_PER_KPA = 0.145038;
/** Atmospheric pressure in psi: gauge readings plus this are absolute. */
export const ATMOSPHERIC_PSI = 14.7;
/** °F = °C × 1.8 + 32. */
export const FAHRENHEIT_PER_CELSIUS = 1.8;
export const FAHRENHEIT_AT_ZERO_CELSIUS = 32;
/** Density of CO2 at 0 °C and 1 atm, g/L: one "volume" of CO2 and one litre of the CO2 total weigh this. */
export const CO2_GRAMS_PER_LITRE = 1.98;
/** Density of ethanol, g/mL. */
export const ETHANOL_GRAMS_PER_ML = 0.789;
/** ABV (% v/v) = (original gravity − current gravity) × 131.25. */
export const ABV_PER_GRAVITY_POINT = 131.25;
/**
 * Grams of ethanol per gram of CO2 fermentation releases: C6H12O6 → 2 C2H5OH + 2 CO2, so the ratio of
 * the molar masses (46.07 / 44.01).
 */
export const ETHANOL_PER_CO2 = 46.07 / 44.01;

/** Tank states (§3); the first four are active. */
export const TANK_STATES = [
  'FILLING',
  'FILLED',
  'FERMENTING',
  'CARBONATING',
  'IDLE',
  'CLEANING',
  'PRESSURIZED',
  'MANUALLY_ENDED',
] as const;
export type TankState = (typeof TANK_STATES)[number];
export const ACTIVE_TANK_STATES: readonly TankState[] = ['FILLING', 'FILLED', 'FERMENTING', 'CARBONATING'];

/** True for FILLING, FILLED, FERMENTING and CARBONATING. */
export function isActiveTankState(state: TankState): boolean {
  return ACTIVE_TANK_STATES.includes(state);
}

export type TankIcon = 'filled' | 'filling' | 'fermenting' | 'cleaning' | 'idle';

/** The tank's icon (§4): filled, filling, fermenting (also carbonating), cleaning, otherwise idle. */
export function tankIcon(state: TankState): TankIcon {
  switch (state) {
    case 'FILLED':
      return 'filled';
    case 'FILLING':
      return 'filling';
    case 'FERMENTING':
    case 'CARBONATING':
      return 'fermenting';
    case 'CLEANING':
      return 'cleaning';
    default:
      return 'idle';
  }
}

/** What a tank state is called on screen. */
export function tankStateLabel(state: TankState): string {
  return state === 'MANUALLY_ENDED' ? 'Ended' : state.charAt(0) + state.slice(1).toLowerCase();
}

/** The roles of a tank's channel map (§3) and the device channel behind each. */
export const TANK_CHANNEL_ROLES = [
  'co2Flow',
  'co2Total',
  'temperature',
  'lowerPressure',
  'upperPressure',
  'ph',
  'temperatureSetpoint',
] as const;
export type TankChannelRole = (typeof TANK_CHANNEL_ROLES)[number];
export type ChannelsMap = Record<TankChannelRole, string>;

/** Brew channel names (§3), the map's roles plus the derived series. */
export const BREW_CHANNEL_NAMES = [
  'ph',
  'co2Flow',
  'tankLevel',
  'temperature',
  'co2Total',
  'gravity',
  'userGravity',
  'upperPressure',
  'lowerPressure',
] as const;
export type BrewChannelName = (typeof BREW_CHANNEL_NAMES)[number];

/** Units of the brew channels (§3; the CO2 total is litres of gas, like its flow per minute). */
export const BREW_CHANNEL_UNITS: Readonly<Partial<Record<BrewChannelName | TankChannelRole, string>>> = {
  co2Flow: 'L/min',
  co2Total: 'L',
  tankLevel: 'L',
  temperature: '°C',
  temperatureSetpoint: '°C',
  upperPressure: 'psi',
  lowerPressure: 'psi',
};

/** Live pH and live temperature channels (§3). */
export const LIVE_PH_CHANNEL = 't9';
export const LIVE_TEMPERATURE_CHANNEL = 't10';

/**
 * A tank's channel map on a brewing controller: the bottom (lower) pressure sensor is the tank channel
 * of the custom macro (`c3` below 7.50 or without a macro, else `a5`), the head (upper) sensor `c2`,
 * live pH `t9` and temperature `t10`, CO2 flow `a1` and its total `t1`, the cooling setpoint `sp1`.
 */
export function defaultChannelsMap(custom: string | null | undefined): ChannelsMap {
  return {
    co2Flow: 'a1',
    co2Total: 't1',
    temperature: LIVE_TEMPERATURE_CHANNEL,
    lowerPressure: tankChannel(custom),
    upperPressure: 'c2',
    ph: LIVE_PH_CHANNEL,
    temperatureSetpoint: 'sp1',
  };
}

/** Calibration and vat registers (§3). */
export const BREW_REGISTERS = {
  VAT_NUMBER: 5405,
  INPUT_CHANNEL_REGISTER: 5406,
  LOW_CAL_DISPLAY: 26625,
  HIGH_CAL_DISPLAY: 26627,
  VAT_STATUS_START: 5440,
  CO2_TOTAL: 26643,
} as const;

/** The status register of a vat: one per vat from VAT_STATUS_START, vat 1 first. */
export function vatStatusRegister(vatNumber: number): number {
  return BREW_REGISTERS.VAT_STATUS_START + vatNumber - 1;
}

/**
 * True when the tank's vat is marked (§4): the device has the Vats flag (custom macro with Vats, 4.0
 * or later) and bits 6 and 7 of the vat's status register are both set.
 */
export function isTankVatMarked(
  custom: string | null | undefined,
  registers: Readonly<Record<string, number>>,
  vatNumber: number,
): boolean {
  if (!hasVatsFlag(custom)) return false;
  const status = registers[String(vatStatusRegister(vatNumber))];
  return status !== undefined && isVatMarked(custom, status);
}

/**
 * Vat status bits a brewing controller sets itself (the mark is bits 6 and 7, `VAT_MARK_MASK`): bit 0
 * while the glycol valve is open, bit 6 once the spunding valve has closed (the vat is sealed) and bit 7
 * once the head holds the spunding pressure. Bits 6 and 7 latch until the vat is refilled or a person
 * writes the register.
 */
export const VAT_STATUS_BITS = { cooling: 1 << 0, sealed: 1 << 6, atPressure: 1 << 7 } as const;

/**
 * LOW_CAL_DISPLAY, HIGH_CAL_DISPLAY and CO2_TOTAL are 32-bit values in two registers each (the named
 * register holds the high word, the next one the low word): the specification's addresses are two
 * apart. The calibration displays are signed, in hundredths of the input's unit; the CO2 total is
 * unsigned, in litres (the `t1` total passes 65,535 within days).
 */
export const CALIBRATION_DISPLAY_SCALE = 100;

/** The two 16-bit words (high, low) of a 32-bit register value; a negative value as its two's complement. */
export function registerWords(value: number): [number, number] {
  const word32 = Math.trunc(value) >>> 0;
  return [word32 >>> 16, word32 & 0xffff];
}

/** The 32-bit value of a register pair (high word first), signed or unsigned. */
export function registerPairValue(high: number, low: number, signed: boolean): number {
  const word32 = (((high & 0xffff) << 16) | (low & 0xffff)) >>> 0;
  return signed ? word32 | 0 : word32;
}

/** The registers a tank's calibration screen reads, each a pair but the input channel. */
export const CALIBRATION_READ_REGISTERS = [
  BREW_REGISTERS.INPUT_CHANNEL_REGISTER,
  BREW_REGISTERS.LOW_CAL_DISPLAY,
  BREW_REGISTERS.LOW_CAL_DISPLAY + 1,
  BREW_REGISTERS.HIGH_CAL_DISPLAY,
  BREW_REGISTERS.HIGH_CAL_DISPLAY + 1,
  BREW_REGISTERS.CO2_TOTAL,
  BREW_REGISTERS.CO2_TOTAL + 1,
] as const;

/** What the calibration screen shows from the controller's registers (null where a register is unread). */
export interface CalibrationReadout {
  /** The input being calibrated (INPUT_CHANNEL_REGISTER: input n is channel `c<n>`), e.g. `c1`. */
  inputChannel: string | null;
  /** The reading captured at the low point, and at the high point, in the input's unit. */
  lowCapture: number | null;
  highCapture: number | null;
  /** The controller's CO2 total, litres. */
  co2Total: number | null;
}

/** The calibration readout of the registers read (by register number). */
export function calibrationReadout(registers: Readonly<Record<number, number | undefined>>): CalibrationReadout {
  const pair = (register: number, signed: boolean) => {
    const high = registers[register];
    const low = registers[register + 1];
    return high === undefined || low === undefined ? null : registerPairValue(high, low, signed);
  };
  const input = registers[BREW_REGISTERS.INPUT_CHANNEL_REGISTER];
  const display = (register: number) => {
    const value = pair(register, true);
    return value === null ? null : value / CALIBRATION_DISPLAY_SCALE;
  };
  return {
    inputChannel: input !== undefined && input > 0 ? `c${input}` : null,
    lowCapture: display(BREW_REGISTERS.LOW_CAL_DISPLAY),
    highCapture: display(BREW_REGISTERS.HIGH_CAL_DISPLAY),
    co2Total: pair(BREW_REGISTERS.CO2_TOTAL, false),
  };
}

/** Calibration controls gpf-1 to gpf-7 (§3), in order. */
export const CALIBRATION_CONTROLS = [
  { code: 'gpf1', label: 'CO2 zero offset' },
  { code: 'gpf2', label: 'Tank pressure zero offset' },
  { code: 'gpf3', label: 'Calibration active' },
  { code: 'gpf4', label: 'Capture low' },
  { code: 'gpf5', label: 'Capture high' },
  { code: 'gpf6', label: 'Apply' },
  { code: 'gpf7', label: 'Calibration error' },
] as const;

/** The tag that names what vessel a device watches (`vessel`: `fermenter`, `hot liquor tank`, …). */
const VESSEL_TAG_KEY = 'vessel';
/** Vessels a batch ferments or conditions in: the tanks of the brew summary. */
const FERMENTATION_VESSELS = ['fermenter', 'unitank', 'bright tank'] as const;
/** The base firmware of the brewing (vat) controller, the kind of device that watches a fermenter. */
const BREW_CONTROLLER_BASE = 'BREW';

/**
 * True when a device of a brew group is a tank of the summary (§3, §4): its `vessel` tag decides when
 * it has one (one of {@link FERMENTATION_VESSELS}, any case); without one, its kind: a brewing
 * controller (base firmware `BREW …`). A hot liquor tank, a mash tun or a glycol chiller in the same
 * group is not a tank, and cannot be given a batch.
 */
export function isFermentationVessel(device: {
  base?: string | null;
  tags: readonly { key: string; value: string }[];
}): boolean {
  const vessel = device.tags.find((tag) => tag.key.trim().toLowerCase() === VESSEL_TAG_KEY);
  if (vessel) return (FERMENTATION_VESSELS as readonly string[]).includes(vessel.value.trim().toLowerCase());
  // No text work for a device without a firmware base (the account tree's 100,000: issue 41 item 5).
  const base = device.base?.trim();
  return base ? base.split(/\s+/)[0]!.toUpperCase() === BREW_CONTROLLER_BASE : false;
}

/**
 * Tank numbers of a group's tanks: the VAT_NUMBER register when it is set and not taken by an earlier
 * tank, else the next free number. Tanks are taken in the given order (by name).
 */
export function tankNumbers(tanks: readonly { registers: Readonly<Record<string, number>> }[]): number[] {
  const taken = new Set<number>();
  const wanted = tanks.map((tank) => {
    const vat = tank.registers[String(BREW_REGISTERS.VAT_NUMBER)];
    return vat !== undefined && Number.isInteger(vat) && vat > 0 && !taken.has(vat) ? (taken.add(vat), vat) : null;
  });
  let next = 1;
  return wanted.map((number) => {
    if (number !== null) return number;
    while (taken.has(next)) next += 1;
    taken.add(next);
    return next;
  });
}

// ---- Tank level and pressure ---------------------------------------------------------------------

/** Litres of the tank per kilopascal of liquid column, and litres added. */
export interface TankLevelCalibration {
  scale: number;
  offset: number;
}

/**
 * Tank level in litres (§9): the absolute difference of the bottom and head pressures in psi,
 * divided by 0.145038 (kPa), times scale, plus offset, rounded. Null when a reading is missing.
 */
export function tankLevel(
  upperPsi: number | null | undefined,
  lowerPsi: number | null | undefined,
  calibration: TankLevelCalibration,
): number | null {
  if (upperPsi == null || lowerPsi == null) return null;
  return Math.round((Math.abs(lowerPsi - upperPsi) / PSI_PER_KPA) * calibration.scale + calibration.offset);
}

/** Pressurized thresholds in kPa-equivalent (§9 defaults: upper 30, lower 10). */
export interface PressurizedThreshold {
  upper: number;
  lower: number;
}
export const DEFAULT_PRESSURIZED_THRESHOLD: PressurizedThreshold = { upper: 30, lower: 10 };
/** A tank is taken as pressurized this long before the reading that shows it (§9). */
export const PRESSURIZED_LEAD_SECONDS = 3600;

/** The thresholds in psi. */
export function pressurizedThresholdPsi(threshold: PressurizedThreshold = DEFAULT_PRESSURIZED_THRESHOLD) {
  return { upper: threshold.upper * PSI_PER_KPA, lower: threshold.lower * PSI_PER_KPA };
}

/** One reading of a tank's head (upper) and bottom (lower) pressure, in psi, at unix ms `t`. */
export interface PressureSample {
  t: number;
  upper: number;
  lower: number;
}

/**
 * When the tank was pressurized (§9): the first reading whose head pressure is above the upper
 * threshold while the matching bottom reading exceeds the lower threshold, less 3600 s; null if none.
 * The hour back covers the closing of the valve, when CO2 already stopped reaching the flow meter.
 */
export function pressurizedAt(
  samples: readonly PressureSample[],
  threshold: PressurizedThreshold = DEFAULT_PRESSURIZED_THRESHOLD,
): number | null {
  const psi = pressurizedThresholdPsi(threshold);
  const first = samples.find((sample) => sample.upper > psi.upper && sample.lower > psi.lower);
  return first ? first.t - PRESSURIZED_LEAD_SECONDS * 1000 : null;
}

/** Negative CO2 flow readings (sensor offset) count as no flow (§5). */
export function clampCo2Flow(flow: number): number {
  return Math.max(0, flow);
}

// ---- CO2 and gravity ----------------------------------------------------------------------------

/** Degrees Fahrenheit of a Celsius temperature. */
export function celsiusToFahrenheit(celsius: number): number {
  return celsius * FAHRENHEIT_PER_CELSIUS + FAHRENHEIT_AT_ZERO_CELSIUS;
}

/**
 * CO2 dissolved in beer at equilibrium, in volumes (litres of gas at 0 °C and 1 atm per litre of
 * beer), at a head pressure in psi gauge and a beer temperature in °C: the ASBC carbonation table's fit
 * V = (P + 14.7) × (0.01821 + 0.090115 × e^(−(T°F − 32) / 43.11)) − 0.003342.
 */
export function saturatedCo2Volumes(headPsi: number, temperatureC: number): number {
  const fahrenheit = celsiusToFahrenheit(temperatureC);
  const solubility = 0.01821 + 0.090115 * Math.exp(-(fahrenheit - FAHRENHEIT_AT_ZERO_CELSIUS) / 43.11);
  return Math.max(0, (Math.max(0, headPsi) + ATMOSPHERIC_PSI) * solubility - 0.003342);
}

/** Saturation ratio (§5): saturated CO2 over tank level; null if either is missing (or no level). */
export function saturationRatio(saturatedCo2: number | null | undefined, level: number | null | undefined) {
  if (saturatedCo2 == null || level == null || level === 0) return null;
  return saturatedCo2 / level;
}

/** ABV (% v/v) from the original and current gravity. */
export function abv(originalGravity: number, currentGravity: number): number {
  return (originalGravity - currentGravity) * ABV_PER_GRAVITY_POINT;
}

/** Where a batch's ABV comes from: the brewer's latest gravity reading, or the estimate. */
export type AbvSource = 'reading' | 'estimate';

/** A batch's ABV, with the gravity it was taken from. */
export interface BatchAbv {
  abv: number;
  gravity: number;
  source: AbvSource;
}

/** The newest gravity reading (the later of two at the same time), or null without one. */
export function latestGravityReading<T extends { value: number; timestamp: number }>(readings: readonly T[]): T | null {
  return readings.reduce<T | null>(
    (last, reading) => (last === null || reading.timestamp >= last.timestamp ? reading : last),
    null,
  );
}

/**
 * A batch's ABV, one figure for the tank card, the tank view and the batch report: from the latest
 * gravity reading (a hydrometer or refractometer: measured beats estimated) when the batch has one,
 * else from the estimated gravity; null without an original gravity or any gravity.
 */
export function batchAbv(
  originalGravity: number | null,
  readings: readonly { value: number; timestamp: number }[],
  estimatedGravity: number | null,
): BatchAbv | null {
  if (originalGravity === null) return null;
  const latest = latestGravityReading(readings);
  if (latest) return { abv: abv(originalGravity, latest.value), gravity: latest.value, source: 'reading' };
  if (estimatedGravity === null) return null;
  return { abv: abv(originalGravity, estimatedGravity), gravity: estimatedGravity, source: 'estimate' };
}

/** ABV as shown: `3.68 %` (two decimals; the tank card, short of room, one), or `–`. */
export function formatAbv(value: BatchAbv | null, decimals = 2): string {
  return value === null ? '–' : `${value.abv.toFixed(decimals)} %`;
}

/** Gravity parameters of a tank (§3). */
export interface GravityParameters {
  /** Estimated specific gravity now (or when the estimate froze). */
  currentGravity: number | null;
  /** Estimated alcohol, % v/v. */
  ethanol: number | null;
  /** CO2 held in the beer at saturation, litres of gas. */
  saturatedCo2: number | null;
  hasGravityFreezed: boolean;
  /** Litres in the tank. */
  tankLevel: number | null;
}

/** What the estimate needs: the batch's start values and the readings now. */
export interface GravityEstimateInput {
  originalGravity: number | null;
  /** The CO2 total channel (litres) at fermentation start and now. */
  co2TotalAtStart: number | null;
  co2Total: number | null;
  /** Gain applied to the CO2 total (calibration co2TotalGain). */
  co2TotalGain: number;
  /** Litres of beer: the level at fermentation start (the beer's volume, before its density falls). */
  tankLevel: number | null;
  temperature: number | null;
  headPressure: number | null;
}

/**
 * The gravity estimate. Every gram of CO2 fermentation releases comes with 46.07 / 44.01 g of ethanol;
 * the CO2 is what left through the flow meter (the CO2 total since the start, times its gain, at
 * 1.98 g/L) plus what stays dissolved in the saturated beer. Ethanol over its density (0.789) gives
 * the ABV, and ABV / 131.25 the fall in gravity from the original gravity.
 */
export function estimateGravity(input: GravityEstimateInput): GravityParameters {
  const level = input.tankLevel !== null && input.tankLevel > 0 ? input.tankLevel : null;
  const saturatedCo2 =
    level !== null && input.temperature !== null && input.headPressure !== null
      ? saturatedCo2Volumes(input.headPressure, input.temperature) * level
      : null;
  const empty = { currentGravity: null, ethanol: null, saturatedCo2, hasGravityFreezed: false, tankLevel: level };
  if (
    input.originalGravity === null ||
    level === null ||
    saturatedCo2 === null ||
    input.co2Total === null ||
    input.co2TotalAtStart === null
  ) {
    return empty;
  }
  const evolvedLitres = Math.max(0, input.co2Total - input.co2TotalAtStart) * input.co2TotalGain;
  const co2GramsPerLitre = ((evolvedLitres + saturatedCo2) * CO2_GRAMS_PER_LITRE) / level;
  const ethanol = ((co2GramsPerLitre * ETHANOL_PER_CO2) / (ETHANOL_GRAMS_PER_ML * 1000)) * 100;
  return {
    currentGravity: input.originalGravity - ethanol / ABV_PER_GRAVITY_POINT,
    ethanol,
    saturatedCo2,
    hasGravityFreezed: false,
    tankLevel: level,
  };
}

/** Gravity is shown with 4 decimals (§9). */
export const GRAVITY_DECIMALS = 4;
export function formatGravity(gravity: number | null | undefined): string {
  return gravity == null ? '–' : gravity.toFixed(GRAVITY_DECIMALS);
}

/** Plausible specific gravities of wort and beer, for validating what a brewer types. */
export const GRAVITY_RANGE = { min: 0.98, max: 1.2 } as const;

/**
 * Why a gravity as typed cannot be saved, or null when it can (or nothing is typed yet: an empty
 * field is not a mistake). The reason names {@link GRAVITY_RANGE}, so the person knows what to fix.
 */
export function gravityProblem(text: string): string | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const value = Number(trimmed);
  const range = `${GRAVITY_RANGE.min.toFixed(3)} to ${GRAVITY_RANGE.max.toFixed(3)}`;
  if (!Number.isFinite(value)) return `A gravity is a number such as 1.012 (${range}).`;
  if (value < GRAVITY_RANGE.min || value > GRAVITY_RANGE.max) {
    return `${trimmed} is outside the gravities of wort and beer: ${range}.`;
  }
  return null;
}

export const READING_IN_FUTURE = 'The time lies in the future.';
export const READING_BEFORE_BATCH = 'The time lies before the batch started.';

/**
 * Why a reading's time cannot be taken, or null: not later than now plus the clock tolerance
 * ({@link FUTURE_TOLERANCE_S}, so a browser clock a little ahead of the server's is no error), and not
 * before the batch started (a reading of a batch is taken while it exists). All unix milliseconds.
 */
export function readingTimeProblem(t: number, now: number, batchStart: number): string | null {
  if (isTooFarInFuture(t, now)) return READING_IN_FUTURE;
  if (t < batchStart) return READING_BEFORE_BATCH;
  return null;
}

// ---- Tank capacity presets ----------------------------------------------------------------------

/**
 * Capacity presets (§5): tanks of height 32 and 35 with capacity 55. The figures are a 55 US gallon
 * drum's (22.5 in across: 55 gal fills 32 in of it; the taller drum of the same volume is 35 in),
 * heights in inches and capacities in US gallons, as the plastic and steel drums small breweries and
 * cellars ferment and hold in are sold.
 */
export const TANK_CAPACITY_PRESETS = [
  { height: 32, capacity: 55 },
  { height: 35, capacity: 55 },
] as const;
export type TankCapacityPreset = (typeof TANK_CAPACITY_PRESETS)[number];
/** How close a tank must be to a preset to match it, as a fraction (0.01 %). */
export const CAPACITY_PRESET_TOLERANCE = 0.0001;
/** Litres in a US gallon, and metres in an inch. */
export const LITRES_PER_US_GALLON = 3.785411784;
export const METRES_PER_INCH = 0.0254;
/** kPa of a one-metre column of water (1000 kg/m³ × 9.80665 m/s²): the level scale's liquid. */
const WATER_KPA_PER_METRE = 9.80665;

/** The preset a tank's height and capacity match within 0.01 %, or null. */
export function matchCapacityPreset(height: number, capacity: number): TankCapacityPreset | null {
  const near = (value: number, target: number) => Math.abs(value - target) <= target * CAPACITY_PRESET_TOLERANCE;
  return TANK_CAPACITY_PRESETS.find((preset) => near(height, preset.height) && near(capacity, preset.capacity)) ?? null;
}

/** A preset as it is shown: `55 gal drum, 32 in` (with litres). */
export function capacityPresetLabel(preset: TankCapacityPreset): string {
  return `${preset.capacity} gal drum, ${preset.height} in (${Math.round(preset.capacity * LITRES_PER_US_GALLON)} L)`;
}

/**
 * The calibration a preset stands for: its capacity in litres, and the level scale (litres per kPa
 * of liquid column) of a straight-sided tank that holds it over its height, for a water-like liquid.
 */
export function capacityPresetCalibration(preset: TankCapacityPreset): {
  capacity: number;
  tankLevel: TankLevelCalibration;
} {
  const capacity = preset.capacity * LITRES_PER_US_GALLON;
  const fullColumnKpa = preset.height * METRES_PER_INCH * WATER_KPA_PER_METRE;
  return { capacity, tankLevel: { scale: capacity / fullColumnKpa, offset: 0 } };
}

/**
 * The preset a tank's calibration matches (within 0.01 %: capacity in litres, and the height its level
 * scale gives that capacity), or null: a tank set by hand to other figures has none.
 */
export function tankCapacityPreset(
  capacity: number | null,
  tankLevel: TankLevelCalibration | null,
): TankCapacityPreset | null {
  if (capacity === null || tankLevel === null || tankLevel.offset !== 0 || !(tankLevel.scale > 0)) return null;
  const heightInches = capacity / tankLevel.scale / WATER_KPA_PER_METRE / METRES_PER_INCH;
  return matchCapacityPreset(heightInches, capacity / LITRES_PER_US_GALLON);
}

// ---- Tank state ----------------------------------------------------------------------------------

/** CO2 flow above this (L/min) means yeast is at work. */
export const FERMENTING_FLOW = 0.2;
/**
 * A pressurized tank starts CARBONATING only above this flow (L/min), and stays so until the flow
 * falls to {@link FERMENTING_FLOW}: the gap keeps a flow meter's noise around zero (a tenth of a
 * litre) from flipping a quiet tank between PRESSURIZED and CARBONATING.
 */
export const CARBONATING_FLOW = 0.5;
/** A level rising faster than this (litres per minute) means the tank is being filled. */
export const FILLING_RATE = 2;

/** What a running batch's state is decided from. */
export interface TankStateInput {
  /** The running batch's state as tracked so far. */
  batchState: TankState;
  co2Flow: number | null;
  /** The level's rise per minute over the last minutes (null when unknown). */
  levelRatePerMinute: number | null;
  /** True once the batch passed the pressurized thresholds. */
  pressurized: boolean;
}

/**
 * The next state of a running batch, from one moment of its tank's readings: pressurized and still
 * releasing CO2 it is CARBONATING, pressurized and quiet PRESSURIZED (with the hysteresis of
 * {@link CARBONATING_FLOW}); else FERMENTING while CO2 flows, FILLING while the level rises, FILLED
 * otherwise (a FILLING batch stays so until the rise is known). A batch that fermented stays FERMENTING as it tails off (it does not go back to FILLED).
 * Only the tracker, which sees every reading and so the level's rise, decides it
 * ({@link advanceBatchTrack}); a screen shows what it decided ({@link shownTankState}).
 */
export function deriveTankState(input: TankStateInput): TankState {
  const flow = input.co2Flow === null ? 0 : clampCo2Flow(input.co2Flow);
  if (input.pressurized) {
    const carbonating = flow > (input.batchState === 'CARBONATING' ? FERMENTING_FLOW : CARBONATING_FLOW);
    return carbonating ? 'CARBONATING' : 'PRESSURIZED';
  }
  if (flow > FERMENTING_FLOW || input.batchState === 'FERMENTING' || input.batchState === 'CARBONATING') {
    return 'FERMENTING';
  }
  // Until the level's rise is known (a minute of readings) a filling batch stays FILLING.
  if (input.levelRatePerMinute === null) return input.batchState === 'FILLING' ? 'FILLING' : 'FILLED';
  return input.levelRatePerMinute > FILLING_RATE ? 'FILLING' : 'FILLED';
}

/**
 * The state a tank shows (§3, §4): its running batch's state as tracked (a summary cannot derive it
 * again: it does not see the level rise, and a FILLING batch would read FILLED); IDLE without one,
 * since "a tank goes idle when its batch ends" (§4), whatever liquid is still in it.
 */
export function shownTankState(runningBatchState: TankState | null): TankState {
  return runningBatchState === null || runningBatchState === 'MANUALLY_ENDED' ? 'IDLE' : runningBatchState;
}

/** The parts of a tank a cloud message may replace. */
export interface TankMessageShape {
  state: TankState;
  batchInfo: {
    id: string;
    annotations: readonly unknown[];
    gravities: readonly unknown[];
    sensories: readonly unknown[];
  } | null;
}

/**
 * A cloud message's tank replaces the one shown (§4), unless the shown tank is active: then the new
 * tank keeps the shown batch's annotations, gravities and sensories (edited here, perhaps not yet
 * echoed back), as long as it is still the same batch.
 */
export function mergeTankMessage<T extends TankMessageShape>(current: T, incoming: T): T {
  if (!isActiveTankState(current.state) || !current.batchInfo || incoming.batchInfo?.id !== current.batchInfo.id) {
    return incoming;
  }
  const { annotations, gravities, sensories } = current.batchInfo;
  return { ...incoming, batchInfo: { ...incoming.batchInfo, annotations, gravities, sensories } };
}

/** True when a message shows that the batch of the tank being viewed has ended (§4). */
export function hasBatchEnded(current: TankMessageShape, incoming: TankMessageShape): boolean {
  return current.batchInfo !== null && incoming.batchInfo?.id !== current.batchInfo.id;
}

/** The warning shown when the viewed tank's batch ends (§4). */
export const BATCH_ENDED_MESSAGE = 'Batch has been ended.';

/**
 * Why an end cannot be taken back (`DELETE /brew/batch/end`), or null when it can: the batch must have
 * ended, and its tank must not be running another batch (a tank holds one batch at a time). The
 * server, the browser demo and the console's "Take back end" control all ask this one rule.
 */
export function takeBackEndRefusal(batch: { ended: boolean; tankRunsAnotherBatch: boolean }): string | null {
  if (!batch.ended) return 'The batch has not ended.';
  if (batch.tankRunsAnotherBatch) return 'The tank has another batch running.';
  return null;
}

/** A tank state and when it began. */
export interface Transition {
  state: TankState;
  timestamp: number;
}

/** The transitions with `state` appended at `timestamp` when it differs from the last one. */
export function recordTransition(transitions: readonly Transition[], state: TankState, timestamp: number) {
  return transitions.at(-1)?.state === state ? [...transitions] : [...transitions, { state, timestamp }];
}

/** A level rise per minute between two readings at least this far apart (shorter gaps are noise). */
export const LEVEL_RATE_MIN_GAP_MS = 60_000;

/** Litres per minute the level rose from `previous` to `current`; null without both or too close. */
export function levelRatePerMinute(
  previous: { t: number; level: number | null } | null,
  current: { t: number; level: number | null },
): number | null {
  if (!previous || previous.level === null || current.level === null) return null;
  const gap = current.t - previous.t;
  return gap >= LEVEL_RATE_MIN_GAP_MS ? ((current.level - previous.level) / gap) * 60_000 : null;
}

/** Where a running batch stands, as the server keeps it from the tank's live readings. */
export interface BatchTrack {
  state: TankState;
  transitions: readonly Transition[];
  /** When the tank was pressurized (the 3600 s rule), once it was; the gravity estimate froze then. */
  pressurizedAt: number | null;
}

/** One moment of a tank's readings, with the level derived from them. */
export interface TankMoment {
  t: number;
  co2Flow: number | null;
  upperPressure: number | null;
  lowerPressure: number | null;
  level: number | null;
  levelRatePerMinute: number | null;
}

/**
 * A running batch advanced by one moment of its tank's readings: pressurized once the head and
 * bottom pressures pass the thresholds (dated 3600 s before, {@link pressurizedAt}), then the state
 * of {@link deriveTankState}, a change recorded as a transition at the moment's time (pressurizing
 * at the time it is dated, never before the last transition). `froze` is true on the moment the
 * tank is first found pressurized: the gravity estimate is to be frozen as it stood then.
 */
export function advanceBatchTrack(
  track: BatchTrack,
  moment: TankMoment,
  threshold: PressurizedThreshold = DEFAULT_PRESSURIZED_THRESHOLD,
): { track: BatchTrack; froze: boolean } {
  let pressurized = track.pressurizedAt;
  const froze =
    pressurized === null &&
    moment.upperPressure !== null &&
    moment.lowerPressure !== null &&
    (pressurized = pressurizedAt(
      [{ t: moment.t, upper: moment.upperPressure, lower: moment.lowerPressure }],
      threshold,
    )) !== null;
  const state = deriveTankState({
    batchState: track.state,
    co2Flow: moment.co2Flow,
    levelRatePerMinute: moment.levelRatePerMinute,
    pressurized: pressurized !== null,
  });
  const last = track.transitions.at(-1)?.timestamp ?? -Infinity;
  const at = froze ? Math.max(pressurized!, last) : moment.t;
  return {
    track: { state, transitions: recordTransition(track.transitions, state, at), pressurizedAt: pressurized },
    froze,
  };
}

/** A tank's level as kept to measure its rise against. */
export interface LevelSample {
  t: number;
  level: number | null;
}

/**
 * One moment of a running batch's tank at `t`: its level from the batch's calibration, its rise per
 * minute against the level kept before ({@link levelRatePerMinute}), and the level to keep next: this
 * one once a rise was measured, or when none was kept or the one kept could not be read (an unknown
 * level is no base to measure a rise from).
 */
export function tankMoment(
  readings: { co2Flow: number | null; upperPressure: number | null; lowerPressure: number | null },
  calibration: TankLevelCalibration | null,
  t: number,
  kept: LevelSample | null,
): { moment: TankMoment; kept: LevelSample } {
  const level = calibration ? tankLevel(readings.upperPressure, readings.lowerPressure, calibration) : null;
  const rate = levelRatePerMinute(kept, { t, level });
  const next = rate !== null || kept === null || kept.level === null ? { t, level } : kept;
  return { moment: { t, ...readings, level, levelRatePerMinute: rate }, kept: next };
}

// ---- Tasting -------------------------------------------------------------------------------------

/** Ratings of a tasting note (§3). */
export const TASTING_RATINGS = ['aroma', 'flavor', 'mouthfeel', 'appearance', 'overall', 'carbonation'] as const;
export type TastingRating = (typeof TASTING_RATINGS)[number];
/** The ratings the averages cover (§3): carbonation is a style choice, not a quality score. */
export const AVERAGED_RATINGS = ['aroma', 'flavor', 'mouthfeel', 'appearance', 'overall'] as const;
/** Ratings run from 0 to 5 in half steps. */
export const RATING_SCALE = { min: 0, max: 5, step: 0.5 } as const;

/** A note's six ratings, taken from whatever carries them (a tasting body), in {@link TASTING_RATINGS} order. */
export function tastingRatings(from: Readonly<Record<TastingRating, number>>): Record<TastingRating, number> {
  return Object.fromEntries(TASTING_RATINGS.map((rating) => [rating, from[rating]])) as Record<TastingRating, number>;
}

/** A note's score: the mean of its averaged ratings. */
export function tastingScore(note: Readonly<Record<TastingRating, number>>): number {
  return AVERAGED_RATINGS.reduce((sum, rating) => sum + note[rating], 0) / AVERAGED_RATINGS.length;
}

/** Each averaged rating's mean over the notes, and their overall score; null without notes. */
export function tastingAverages(notes: readonly Readonly<Record<TastingRating, number>>[]) {
  if (notes.length === 0) return null;
  const averages = Object.fromEntries(
    AVERAGED_RATINGS.map((rating) => [rating, notes.reduce((sum, note) => sum + note[rating], 0) / notes.length]),
  ) as Record<(typeof AVERAGED_RATINGS)[number], number>;
  return { ...averages, score: tastingScore({ ...averages, carbonation: 0 }) };
}

// ---- Annotations, setpoint and the log window ---------------------------------------------------

export const ANNOTATION_KINDS = ['plotLine', 'channel'] as const;
const SENSORY_ANNOTATION_COLOR = '#2f6fde';
const ANNOTATION_COLOR = '#8a8f98';
/** An annotation's colour (§3): blue for a sensory note's mark, grey otherwise. */
export function annotationColor(isSensory: boolean): string {
  return isSensory ? SENSORY_ANNOTATION_COLOR : ANNOTATION_COLOR;
}

/** The temperature setpoint control (§9). */
export const BREW_SETPOINT = { min: -5, max: 100, step: 0.1, unit: '°C' } as const;

/** Why a setpoint cannot be sent, or null. */
export function brewSetpointProblem(value: number): string | null {
  if (!Number.isFinite(value)) return 'Enter a temperature.';
  if (value < BREW_SETPOINT.min || value > BREW_SETPOINT.max) {
    return `The setpoint must be between ${BREW_SETPOINT.min} and ${BREW_SETPOINT.max} ${BREW_SETPOINT.unit}.`;
  }
  return null;
}

/** The tank log covers 7 days and starts 10 minutes before the batch (§9). */
export const BREW_LOG_SECONDS = 7 * 86_400;
export const BREW_LOG_LEAD_SECONDS = 600;

/** The tank view's log window in unix ms: from 10 minutes before the batch, 7 days long, not past now. */
export function brewLogWindow(batchStart: number, now: number): { start: number; end: number } {
  const start = batchStart - BREW_LOG_LEAD_SECONDS * 1000;
  return { start, end: Math.max(start + 60_000, Math.min(start + BREW_LOG_SECONDS * 1000, now)) };
}

/** What a tank's log (the tank view's chart, its `rawDeviceLogs`) is read for: channels, window, bins. */
export interface TankLogQuery {
  channels: string[];
  start: number;
  end: number;
  binCount: number;
}

/**
 * Bins of a tank's log: the chart's count for a long range (§9: 2000 beyond 3 days) whatever the
 * batch's age, since the tank carries its log with every read of its view: a 5-minute bin of a 7-day
 * window, 2000 points across a chart narrower than that, and no 10,000-bin answer for a young batch.
 */
export const TANK_LOG_BIN_COUNT = LONG_RANGE_BIN_COUNT;

/**
 * The log a tank carries for its running batch (§3 rawDeviceLogs, §9): the channels the chart draws
 * and the gravity estimate needs (temperature, setpoint, CO2 total, head pressure) over the batch's
 * 7-day window from 10 minutes before it started, in {@link TANK_LOG_BIN_COUNT} bins.
 */
export function tankLogQuery(
  channelsMap: ChannelsMap,
  batchDate: { start: number; end: number | null },
  now: number,
): TankLogQuery {
  const window = brewLogWindow(batchDate.start, batchDate.end ?? now);
  const channels = [
    ...new Set([
      channelsMap.temperature,
      channelsMap.temperatureSetpoint,
      channelsMap.co2Total,
      channelsMap.upperPressure,
    ]),
  ];
  return { channels, ...window, binCount: TANK_LOG_BIN_COUNT };
}

// ---- A running batch -----------------------------------------------------------------------------

/** What a running batch brings to its gravity estimate. */
export interface BatchEstimateBasis {
  originalGravity: number | null;
  co2TotalAtStart: number | null;
  co2TotalGain: number;
  tankLevelAtFermStart: number | null;
  /** The estimate stored when the tank was pressurized; it no longer moves. */
  frozenGravity: GravityParameters | null;
}

/** The tank's readings the estimate needs, now. */
export interface TankReadings {
  co2Total: number | null;
  temperature: number | null;
  headPressure: number | null;
}

/**
 * A tank's gravity parameters: frozen once pressurized, else estimated from its readings now, with
 * the beer's volume from fermentation start (or the level now) and the level now as `tankLevel`.
 */
export function batchGravity(
  batch: BatchEstimateBasis | null,
  readings: TankReadings,
  levelNow: number | null,
): GravityParameters {
  if (batch?.frozenGravity) return { ...batch.frozenGravity, hasGravityFreezed: true };
  if (!batch) {
    return { currentGravity: null, ethanol: null, saturatedCo2: null, hasGravityFreezed: false, tankLevel: levelNow };
  }
  const estimate = estimateGravity({
    originalGravity: batch.originalGravity,
    co2TotalAtStart: batch.co2TotalAtStart,
    co2Total: readings.co2Total,
    co2TotalGain: batch.co2TotalGain,
    tankLevel: batch.tankLevelAtFermStart ?? levelNow,
    temperature: readings.temperature,
    headPressure: readings.headPressure,
  });
  return { ...estimate, tankLevel: levelNow };
}

/** Day of fermentation: day 1 from the first FERMENTING transition (else the batch's start). */
export function fermentationDay(start: number, transitions: readonly Transition[], now: number): number {
  const from = transitions.find((transition) => transition.state === 'FERMENTING')?.timestamp ?? start;
  return Math.max(1, Math.floor((now - from) / 86_400_000) + 1);
}
