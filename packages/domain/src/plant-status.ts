/**
 * A water plant's state at a glance (issue 36 item 3): the status line a generated plant dashboard
 * opens with. One rule, used by the console's plant dashboard; times are unix milliseconds and "now"
 * is always passed in.
 */

/** What the status line says about the plant (most urgent first: Offline, In alarm, then Running or Stopped). */
export type PlantState = 'Offline' | 'In alarm' | 'Running' | 'Stopped';

/** An alarm flag of the plant that is on, and since when (null: on, start not known). */
export interface ActivePlantAlarm {
  name: string;
  code: string;
  since: number | null;
  /** It was already on when the log looked at begins: `since` is a lower bound. */
  onBefore: boolean;
}

export interface PlantStatusInput {
  /** The plant controller's connection to Fieldlink. */
  connected: boolean;
  /** The plant run output (`do1`): 1 running, 0 stopped, undefined before the first reading. */
  plantRun: number | undefined;
  /** Supply 1 flow (`a1`, L/min), undefined before the first reading. */
  flow: number | undefined;
  /** The plant has a storage tank (its configuration names `waterTank`). */
  hasWaterTank: boolean;
  alarms: readonly ActivePlantAlarm[];
}

export interface PlantStatus {
  state: PlantState;
  /** The active alarms, the most recently raised first (those of unknown start last). */
  alarms: ActivePlantAlarm[];
  /** A sentence explaining what the figures could otherwise seem to contradict, or null. */
  note: string | null;
}

/** Flows at or below this (L/min) are a flowmeter's noise at standstill, not water moving. */
export const STANDSTILL_FLOW = 0.5;

/**
 * The plant's state: Offline when its controller is not connected (its last values are old news);
 * else In alarm while any alarm flag is on; else Running or Stopped by the plant run output. A
 * stopped plant whose supply flowmeter still shows water gets a note: with a storage tank the town
 * is supplied from the tank; without one the flowmeter or the run output is suspect.
 */
export function plantStatus(input: PlantStatusInput): PlantStatus {
  const alarms = [...input.alarms].sort((a, b) => (b.since ?? -Infinity) - (a.since ?? -Infinity));
  const state: PlantState = !input.connected
    ? 'Offline'
    : alarms.length > 0
      ? 'In alarm'
      : input.plantRun === 1
        ? 'Running'
        : 'Stopped';
  return { state, alarms, note: plantNote(input) };
}

function plantNote({ connected, plantRun, flow, hasWaterTank }: PlantStatusInput): string | null {
  if (!connected) return 'Not connected: the figures are the last the plant reported.';
  if (plantRun === undefined) return 'Waiting for the plant’s first reading.';
  if (plantRun !== 0 || flow === undefined || flow <= STANDSTILL_FLOW) return null;
  return hasWaterTank
    ? 'Plant stopped: the supply flow is drawn from the storage tank, which the plant refills when it runs.'
    : 'Water is flowing while the plant is stopped: check the supply flowmeter and the plant run output.';
}

/** A flag's samples or bins, oldest first: `min` and `max` of the bin (a raw sample: both its value). */
export interface FlagSample {
  t: number;
  min: number | null;
  max: number | null;
}

/**
 * When an alarm flag that is on at the end of its log (oldest first) came on: the start of the last
 * bin in which it was seen off as well as on, else the start of the first bin of the final run of
 * "on". Null when the log ends with the flag off or holds no reading. `onBefore` when it was on
 * throughout: it came on before the log begins.
 */
export function flagActiveSince(samples: readonly FlagSample[]): { since: number; onBefore: boolean } | null {
  let since: number | null = null;
  let onBefore = false;
  let seenOff = false;
  for (const sample of samples) {
    if (sample.max === null || sample.min === null) continue;
    if (sample.min < 1) {
      // Off at some time in this bin: on since within it if it was also on, else not on at all.
      since = sample.max < 1 ? null : sample.t;
      seenOff = true;
      onBefore = false;
    } else if (since === null) {
      since = sample.t;
      onBefore = !seenOff;
    }
  }
  return since === null ? null : { since, onBefore };
}

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/**
 * How long an alarm has been active, as the status line says it: "under a minute", "12 min",
 * "3 h 05 min", "2 d 4 h"; with `atLeast` (it came on before the log we looked at) "over …".
 */
export function activeForText(since: number, now: number, atLeast = false): string {
  const elapsed = Math.max(0, now - since);
  const prefix = atLeast ? 'over ' : '';
  if (elapsed < MINUTE_MS) return atLeast ? 'over a minute' : 'under a minute';
  if (elapsed < HOUR_MS) return `${prefix}${Math.floor(elapsed / MINUTE_MS)} min`;
  if (elapsed < DAY_MS) {
    const hours = Math.floor(elapsed / HOUR_MS);
    const minutes = Math.floor((elapsed % HOUR_MS) / MINUTE_MS);
    return `${prefix}${hours} h ${String(minutes).padStart(2, '0')} min`;
  }
  const days = Math.floor(elapsed / DAY_MS);
  const hours = Math.floor((elapsed % DAY_MS) / HOUR_MS);
  return `${prefix}${days} d ${hours} h`;
}

/** A main figure of the status line: the channel, what the line calls it, its unit and decimals. */
export interface PlantFigure {
  code: string;
  label: string;
  units: string;
  decimals: number;
  /** Shown only when the plant has this feature. */
  feature?: 'waterTank';
}

/** The main figures of the status line (issue 36 item 3): flow, tank level and the pressures. */
export const PLANT_MAIN_FIGURES: readonly PlantFigure[] = [
  { code: 'a1', label: 'Flow', units: 'L/min', decimals: 1 },
  { code: 'a16', label: 'Tank level', units: '%', decimals: 0, feature: 'waterTank' },
  { code: 'c2', label: 'Inlet pressure', units: 'bar', decimals: 2 },
  { code: 'c3', label: 'Outlet pressure', units: 'bar', decimals: 2 },
];

/** How long an alarm flag's log is read back to find when it came on. */
export const PLANT_ALARM_LOOKBACK_MS = 7 * DAY_MS;
