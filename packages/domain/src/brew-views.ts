import {
  DEFAULT_PRESSURIZED_THRESHOLD,
  advanceBatchTrack,
  batchGravity,
  defaultChannelsMap,
  isFermentationVessel,
  isTankVatMarked,
  recordTransition,
  shownTankState,
  tankLevel,
  tankMoment,
  tankNumbers,
  tastingScore,
  type BatchTrack,
  type ChannelsMap,
  type GravityParameters,
  type LevelSample,
  type PressurizedThreshold,
  type TankLevelCalibration,
  type TankState,
  type TastingRating,
  type Transition,
} from './brew';

/**
 * The brewing screens' read models (application §3, §7): the tank on the brew summary and the tank
 * view, the brew summary itself, a batch's line in the batch list, and the chart mark of a tasting
 * note. Each is assembled here once from plain values; the server (rows it read) and the browser
 * demo (records it keeps and its simulated devices) only fetch what goes in and store what comes out,
 * so the demo's screens are the server's by construction.
 */

/** The CO2 total gain of a tank nobody has calibrated. */
export const DEFAULT_CO2_TOTAL_GAIN = 1;

/** What the brewer set on a tank (capacity and calibration); none yet when never set. */
export interface TankSettings {
  capacity: number | null;
  co2TotalGain: number;
  tankLevel: TankLevelCalibration | null;
}

/** A device of a brew group as a tank needs it. */
export interface TankDevice {
  id: string;
  thingName: string;
  name: string;
  isConnected: boolean;
  custom: string | null;
  registers: Readonly<Record<string, number>>;
}

/** What the tank's running batch brings to its tank (the API's batch has all of it). */
export interface TankBatch {
  state: TankState;
  channelsMap: ChannelsMap;
  props: { originalGravity: number | null };
  calibration: { co2TotalGain: number; tankLevel: TankLevelCalibration | null };
  co2TotalAtStart: number | null;
  tankLevelAtFermStart: number | null;
  /** The estimate as it stood when the tank was pressurized; it no longer moves. */
  frozenGravity: GravityParameters | null;
}

/** A tank as the brew summary and the tank view show it (the API's `Tank`, without its log yet). */
export interface TankView<B extends TankBatch> {
  tankNumber: number;
  deviceId: string;
  thingName: string;
  name: string;
  isConnected: boolean;
  state: TankState;
  capacity: number | null;
  channelsMap: ChannelsMap;
  gravityParameters: GravityParameters;
  batchInfo: B | null;
  /** The selected tank's log is read by the caller and put here; null otherwise. */
  rawDeviceLogs: null;
  calibration: { co2TotalGain: number; tankLevel: TankLevelCalibration | null };
  isVatMarked: boolean;
}

/** What decides whether a device is a tank and which number it has. */
export interface TankCandidate {
  base: string | null;
  tags: readonly { key: string; value: string }[];
  registers: Readonly<Record<string, number>>;
}

/**
 * A group's tanks: its fermentation vessels ({@link isFermentationVessel}; a mash tun or a chiller is
 * no tank), numbered by {@link tankNumbers}, in the order given (by name).
 */
export function numberedTanks<D>(
  devices: readonly D[],
  describe: (device: D) => TankCandidate,
): { device: D; tankNumber: number }[] {
  const vessels = devices.flatMap((device) => {
    const candidate = describe(device);
    return isFermentationVessel(candidate) ? [{ device, registers: candidate.registers }] : [];
  });
  const numbers = tankNumbers(vessels);
  return vessels.map(({ device }, index) => ({ device, tankNumber: numbers[index]! }));
}

/** The settings of a tank: those kept for it, or those of a tank nobody set up. */
export function tankSettings(kept: TankSettings | null | undefined): TankSettings {
  return kept
    ? { capacity: kept.capacity, co2TotalGain: kept.co2TotalGain, tankLevel: kept.tankLevel }
    : { capacity: null, co2TotalGain: DEFAULT_CO2_TOTAL_GAIN, tankLevel: null };
}

/**
 * A tank now (§3): its running batch's state as tracked ({@link shownTankState}), the channels it
 * reads (the batch's map, else the device's default), its level from the batch's calibration (else
 * the tank's), the gravity estimate ({@link batchGravity}) and the vat mark. `latest` answers a
 * channel's latest value.
 */
export function tankView<B extends TankBatch>(input: {
  device: TankDevice;
  tankNumber: number;
  settings: TankSettings | null | undefined;
  batch: B | null | undefined;
  latest: (code: string) => number | null | undefined;
}): TankView<B> {
  const { device, tankNumber } = input;
  const batch = input.batch ?? null;
  const settings = tankSettings(input.settings);
  const channelsMap = batch ? batch.channelsMap : defaultChannelsMap(device.custom);
  const reading = (role: keyof ChannelsMap) => input.latest(channelsMap[role]) ?? null;
  const levelCalibration = batch ? batch.calibration.tankLevel : settings.tankLevel;
  const level = levelCalibration
    ? tankLevel(reading('upperPressure'), reading('lowerPressure'), levelCalibration)
    : null;
  const gravityParameters = batchGravity(
    batch
      ? {
          originalGravity: batch.props.originalGravity,
          co2TotalAtStart: batch.co2TotalAtStart,
          co2TotalGain: batch.calibration.co2TotalGain,
          tankLevelAtFermStart: batch.tankLevelAtFermStart,
          frozenGravity: batch.frozenGravity,
        }
      : null,
    { co2Total: reading('co2Total'), temperature: reading('temperature'), headPressure: reading('upperPressure') },
    level,
  );
  return {
    tankNumber,
    deviceId: device.id,
    thingName: device.thingName,
    name: device.name,
    isConnected: device.isConnected,
    state: shownTankState(batch ? batch.state : null),
    capacity: settings.capacity,
    channelsMap,
    gravityParameters,
    batchInfo: batch,
    rawDeviceLogs: null,
    calibration: { co2TotalGain: settings.co2TotalGain, tankLevel: settings.tankLevel },
    isVatMarked: isTankVatMarked(device.custom, device.registers, tankNumber),
  };
}

/** A running batch as its tank follows it: where it stands and what its estimate is made of. */
export type FollowedBatch = TankBatch & BatchTrack;

/**
 * A running batch advanced by its tank's readings at `now` ({@link tankMoment}, then
 * {@link advanceBatchTrack}, as the server's tracker advances it on every stored frame): its state
 * with each change recorded as a transition, and, the moment the tank is first found pressurized, the
 * gravity estimate frozen as it stands. For a caller without a stream of frames (the browser demo
 * follows its tanks whenever they are read). `changed` says whether the batch is to be stored again.
 */
export function followRunningBatch<B extends FollowedBatch>(
  batch: B,
  kept: LevelSample | null,
  latest: (code: string) => number | null | undefined,
  now: number,
): { batch: B; kept: LevelSample; changed: boolean } {
  const reading = (role: keyof ChannelsMap) => latest(batch.channelsMap[role]) ?? null;
  const readings = {
    co2Flow: reading('co2Flow'),
    upperPressure: reading('upperPressure'),
    lowerPressure: reading('lowerPressure'),
  };
  const { moment, kept: next } = tankMoment(readings, batch.calibration.tankLevel, now, kept);
  const { track, froze } = advanceBatchTrack(batch, moment);
  const changed = froze || track.state !== batch.state || track.transitions.length !== batch.transitions.length;
  if (!changed) return { batch, kept: next, changed };
  const frozenGravity = froze
    ? batchGravity(
        {
          originalGravity: batch.props.originalGravity,
          co2TotalAtStart: batch.co2TotalAtStart,
          co2TotalGain: batch.calibration.co2TotalGain,
          tankLevelAtFermStart: batch.tankLevelAtFermStart,
          frozenGravity: null,
        },
        { co2Total: reading('co2Total'), temperature: reading('temperature'), headPressure: readings.upperPressure },
        moment.level,
      )
    : batch.frozenGravity;
  return {
    batch: {
      ...batch,
      state: track.state,
      transitions: [...track.transitions],
      pressurizedAt: track.pressurizedAt,
      frozenGravity,
    },
    kept: next,
    changed,
  };
}

/** What a batch takes from its tank when it starts (§4), besides what the brewer entered. */
export interface BatchStart {
  state: TankState;
  transitions: Transition[];
  channelsMap: ChannelsMap;
  calibration: { co2TotalGain: number; tankLevel: TankLevelCalibration | null };
  /** The level and the CO2 total at the start: the estimate measures fermentation from them. */
  tankLevelAtFermStart: number | null;
  co2TotalAtStart: number | null;
}

/**
 * A batch starting on a tank at `now`: FILLING, the device's default channels, the tank's calibration
 * (it corrects the batch's estimate from then on), its level and CO2 total now.
 */
export function batchStart(
  custom: string | null,
  settings: TankSettings | null | undefined,
  latest: (code: string) => number | null | undefined,
  now: number,
): BatchStart {
  const { co2TotalGain, tankLevel: levelCalibration } = tankSettings(settings);
  const channelsMap = defaultChannelsMap(custom);
  const reading = (role: keyof ChannelsMap) => latest(channelsMap[role]) ?? null;
  return {
    state: 'FILLING',
    transitions: recordTransition([], 'FILLING', now),
    channelsMap,
    calibration: { co2TotalGain, tankLevel: levelCalibration },
    tankLevelAtFermStart: levelCalibration
      ? tankLevel(reading('upperPressure'), reading('lowerPressure'), levelCalibration)
      : null,
    co2TotalAtStart: reading('co2Total'),
  };
}

/** The brew summary (brew meta, §3): a group's tanks, the pressurized threshold and the selected tank. */
export function brewSummary<T>(
  group: { id: string; name: string },
  tanks: readonly T[],
  selectedTankNumber: number | null,
): {
  groupId: string;
  groupName: string;
  tanks: T[];
  pressurizedThreshold: PressurizedThreshold;
  selectedBrewTankNumber: number | null;
} {
  return {
    groupId: group.id,
    groupName: group.name,
    tanks: [...tanks],
    pressurizedThreshold: { ...DEFAULT_PRESSURIZED_THRESHOLD },
    selectedBrewTankNumber: selectedTankNumber,
  };
}

/** What a batch's line in the batch list is made of. */
export interface BatchListSource<P> {
  id: string;
  deviceId: string;
  state: TankState;
  date: { start: number; end: number | null };
  props: P;
  /** Its gravity readings, oldest first. */
  gravities: readonly { value: number }[];
  sensoryCount: number;
  isDemo: boolean;
}

/** A batch's line in the batch list (§7): its tank, dates, latest gravity, tasting notes and report. */
export function batchListEntry<P, R>(
  batch: BatchListSource<P>,
  tank: { tankNumber: number; name: string },
  latestReport: R | null,
) {
  return {
    id: batch.id,
    deviceId: batch.deviceId,
    tankNumber: tank.tankNumber,
    tankName: tank.name,
    state: batch.state,
    date: batch.date,
    props: batch.props,
    lastGravity: batch.gravities.at(-1)?.value ?? null,
    sensoryCount: batch.sensoryCount,
    isDemo: batch.isDemo,
    latestReport,
  };
}

/** Characters of a tasting note's first line its chart mark shows. */
export const TASTING_MARK_NOTE_LENGTH = 120;

/** The text of a tasting note's mark on the chart: its score out of 5 and the start of its notes. */
export function tastingMarkText(ratings: Readonly<Record<TastingRating, number>>, notes: string): string {
  const score = tastingScore(ratings).toFixed(1);
  return notes
    ? `Tasting ${score}/5: ${notes.split('\n')[0]!.slice(0, TASTING_MARK_NOTE_LENGTH)}`
    : `Tasting ${score}/5`;
}
