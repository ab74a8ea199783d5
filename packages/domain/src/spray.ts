import { activeAlarmBits } from './status-alarms';
import { isUint16, toSigned16, toUnsigned16 } from './int16';

/**
 * The spray and tank-control app (application §1, §3, §5, §8): spray schedules packed into device
 * registers, the sprayer's parameter codes and channels, its alarm bits, which alarms stop which
 * sprays, which alarms are counted, and the broadcast spray's cool-down and messages.
 */

// ---------------------------------------------------------------------------------------------
// Register packing (§5)

/** Minutes of the day: bits 0-10 of the time register. */
export const SPRAY_TIME_MASK = 0x07ff;
/** Duration steps: bits 11-14 of the time register, so at most 15 steps. */
export const SPRAY_DURATION_SHIFT = 11;
export const SPRAY_DURATION_MASK = 0x0f;
/** Enabled flag: bit 15 of the time register. The day register holds days in bits 0-6 ({@link WEEKDAYS}). */
export const SPRAY_ENABLED_BIT = 15;
export const MINUTES_PER_DAY = 1440;

/** Weekday numbers as the day bits count them: 0 Sunday to 6 Saturday. */
export const WEEKDAYS = [0, 1, 2, 3, 4, 5, 6] as const;
export type Weekday = (typeof WEEKDAYS)[number];
export const WEEKDAY_NAMES: Readonly<Record<Weekday, string>> = {
  0: 'Sunday',
  1: 'Monday',
  2: 'Tuesday',
  3: 'Wednesday',
  4: 'Thursday',
  5: 'Friday',
  6: 'Saturday',
};

/** One spray schedule as the device holds it. */
export interface SpraySchedule {
  enabled: boolean;
  /** Start, minutes after local midnight (0-1439 when valid; the 11 bits could hold up to 2047). */
  minuteOfDay: number;
  /** Spray length in duration steps of the unit's step (SP-1), 0-15. */
  durationSteps: number;
  /** Days it runs, ascending, 0 Sunday to 6 Saturday. */
  days: Weekday[];
}

/** The two registers of a schedule, as signed 16-bit values (what a register write sends). */
export interface SprayScheduleRegisters {
  time: number;
  days: number;
}

/** A register value read from a device as an unsigned word, whether reported signed or unsigned. */
function wordOf(value: number): number {
  if (value < 0) return toUnsigned16(value);
  if (!isUint16(value)) throw new RangeError(`Not a 16-bit register value: ${value}`);
  return value;
}

/**
 * Packs a schedule into its two registers: time in bits 0-10, duration steps in 11-14, enabled in
 * 15; day bits 0-6. The words are converted to signed 16-bit, as registers are written. Throws a
 * RangeError for a schedule whose fields do not fit their bits.
 */
export function packSpraySchedule(schedule: SpraySchedule): SprayScheduleRegisters {
  const { minuteOfDay, durationSteps } = schedule;
  if (!Number.isInteger(minuteOfDay) || minuteOfDay < 0 || minuteOfDay > SPRAY_TIME_MASK) {
    throw new RangeError(`Time does not fit bits 0-10: ${minuteOfDay}`);
  }
  if (!Number.isInteger(durationSteps) || durationSteps < 0 || durationSteps > SPRAY_DURATION_MASK) {
    throw new RangeError(`Duration steps do not fit bits 11-14: ${durationSteps}`);
  }
  const time = minuteOfDay | (durationSteps << SPRAY_DURATION_SHIFT) | (schedule.enabled ? 1 << SPRAY_ENABLED_BIT : 0);
  let days = 0;
  for (const day of schedule.days) days |= 1 << day;
  return { time: toSigned16(time), days: toSigned16(days) };
}

/** Reads a schedule from its two registers (signed or unsigned 16-bit values). */
export function unpackSpraySchedule(registers: SprayScheduleRegisters): SpraySchedule {
  const time = wordOf(registers.time);
  const dayBits = wordOf(registers.days);
  return {
    enabled: ((time >>> SPRAY_ENABLED_BIT) & 1) === 1,
    minuteOfDay: time & SPRAY_TIME_MASK,
    durationSteps: (time >>> SPRAY_DURATION_SHIFT) & SPRAY_DURATION_MASK,
    days: WEEKDAYS.filter((day) => ((dayBits >>> day) & 1) === 1),
  };
}

// ---------------------------------------------------------------------------------------------
// Validation (§5 and §8's spray schedule messages)

export const UNSUPPORTED_TIME = 'Error: Unsupported time.';
export const ZERO_DURATION = 'Cannot have a duration of zero.';
export const DURATION_ERROR = 'Error processing duration.';
export const NO_DAY_SELECTED = 'Please select at least one day.';

/** The schedule form as a person fills it in. */
export interface SprayScheduleForm {
  enabled: boolean;
  /** `hours:minutes`, 24-hour (`06:30`, `6:30`). */
  time: string;
  /** Seconds, as typed (a number, or text from a field). */
  durationSeconds: number | string;
  days: readonly Weekday[];
}

export type SprayScheduleCheck = { ok: true; schedule: SpraySchedule } | { ok: false; message: string };

const TIME_RE = /^([0-9]{1,2}):([0-9]{2})$/;

/** Minutes after midnight of an `hours:minutes` time, or null when it is not one. */
export function parseSprayTime(text: string): number | null {
  const match = TIME_RE.exec(text.trim());
  if (!match) return null;
  const hours = Number(match[1]);
  const minutes = Number(match[2]);
  if (hours > 23 || minutes > 59) return null;
  return hours * 60 + minutes;
}

/** `HH:MM` of minutes after midnight (a value past the day, as a device may report, is shown as is). */
export function formatSprayTime(minuteOfDay: number): string {
  const hours = Math.floor(minuteOfDay / 60);
  return `${String(hours).padStart(2, '0')}:${String(minuteOfDay % 60).padStart(2, '0')}`;
}

/**
 * Duration steps of a duration: whole steps of `stepSeconds` (a part step is not sprayed). A value
 * that cannot be calculated (not a number, no step, more steps than four bits hold) answers
 * {@link DURATION_ERROR}; fewer than one step {@link ZERO_DURATION}.
 */
export function durationSteps(durationSeconds: number | string, stepSeconds: number): number | string {
  const seconds =
    typeof durationSeconds === 'string'
      ? durationSeconds.trim() === ''
        ? Number.NaN
        : Number(durationSeconds)
      : durationSeconds;
  const steps = Math.floor(seconds / stepSeconds);
  if (!Number.isFinite(steps) || !(stepSeconds > 0) || seconds < 0) return DURATION_ERROR;
  if (steps < 1) return ZERO_DURATION;
  if (steps > SPRAY_DURATION_MASK) return DURATION_ERROR;
  return steps;
}

/**
 * The rule behind {@link ZERO_DURATION} and {@link DURATION_ERROR}, said plainly: §5 fixes those two
 * messages, but neither tells a person that 7 s with a 10 s step is "zero" because durations are
 * whole steps of SP-1 (a part step is not sprayed), 1 to 15 steps (four bits). Shown beside the
 * message, never instead of it. Null when the duration is fine.
 */
export function durationRule(durationSeconds: number | string, stepSeconds: number): string | null {
  const steps = durationSteps(durationSeconds, stepSeconds);
  if (typeof steps === 'number') return null;
  if (!(stepSeconds > 0)) return 'The duration step (SP-1) is not known, so no duration can be worked out.';
  const rule = `Durations are whole steps of ${stepSeconds} s (SP-1): ${stepSeconds} s to ${SPRAY_DURATION_MASK * stepSeconds} s.`;
  const seconds = typeof durationSeconds === 'string' ? Number(durationSeconds.trim() || Number.NaN) : durationSeconds;
  if (!Number.isFinite(seconds) || seconds < 0) return `Give the duration in seconds. ${rule}`;
  if (steps === ZERO_DURATION) return `${seconds} s is less than one step, and a part step is not sprayed. ${rule}`;
  return `${seconds} s is more than ${SPRAY_DURATION_MASK} steps. ${rule}`;
}

/**
 * Checks a schedule form in the order of §5 (time, duration, days) and answers the schedule to pack
 * or the first message.
 */
export function checkSprayScheduleForm(form: SprayScheduleForm, stepSeconds: number): SprayScheduleCheck {
  const minuteOfDay = parseSprayTime(form.time);
  if (minuteOfDay === null) return { ok: false, message: UNSUPPORTED_TIME };
  const steps = durationSteps(form.durationSeconds, stepSeconds);
  if (typeof steps === 'string') return { ok: false, message: steps };
  if (form.days.length === 0) return { ok: false, message: NO_DAY_SELECTED };
  const days = WEEKDAYS.filter((day) => form.days.includes(day));
  return { ok: true, schedule: { enabled: form.enabled, minuteOfDay, durationSteps: steps, days } };
}

// ---------------------------------------------------------------------------------------------
// Parameter codes and channels (§3)

/** Schedules a sprayer holds: T-1 to T-5. */
export const SPRAY_SCHEDULE_COUNT = 5;
/** Register of T-1's time word; T-n uses this + 2(n-1) (time) and the next (days). */
export const SPRAY_SCHEDULE_REGISTER_BASE = 5400;

/** Registers of schedule `index` (0 for T-1). */
export function sprayScheduleRegisters(index: number): { time: number; days: number } {
  const time = SPRAY_SCHEDULE_REGISTER_BASE + 2 * index;
  return { time, days: time + 1 };
}

/** Parameter code of schedule `index` (0 -> `T-1`). */
export function sprayScheduleCode(index: number): string {
  return `T-${index + 1}`;
}

/** A spray parameter held in a setpoint or flag channel (`SP-1` is channel `sp1`). */
export interface SprayParameter {
  code: 'SP-1' | 'SP-2' | 'SP-4' | 'SP-5' | 'SP-6' | 'SP-7' | 'GPF-9' | 'GPF-11';
  /** The device's channel. */
  channel: string;
  name: string;
  unit: string;
  /** Allowed values; a flag is 0 or 1. */
  min: number;
  max: number;
  step: number;
  help: string;
}

/**
 * The spray parameter codes of §3 besides the schedules T-1 to T-5: SP-1, SP-2, SP-4 to SP-7,
 * GPF-9, GPF-11. What each means is ours (the specification names only the codes).
 */
export const SPRAY_PARAMETERS: readonly SprayParameter[] = [
  {
    code: 'SP-1',
    channel: 'sp1',
    name: 'Duration step',
    unit: 's',
    min: 1,
    max: 60,
    step: 1,
    help: 'Schedule durations are whole steps of this length (1 to 15 steps).',
  },
  {
    code: 'SP-2',
    channel: 'sp2',
    name: 'Skip time',
    unit: 'h',
    min: 1,
    max: 168,
    step: 1,
    help: 'How long a skip-spray holds scheduled sprays back.',
  },
  {
    code: 'SP-4',
    channel: 'sp4',
    name: 'Wind speed limit',
    unit: 'km/h',
    min: 1,
    max: 150,
    step: 1,
    help: 'Above it the High Wind Speed Warning stops sprays until the wind drops.',
  },
  {
    code: 'SP-5',
    channel: 'sp5',
    name: 'Leak tolerance',
    unit: '%',
    min: 0.5,
    max: 50,
    step: 0.5,
    help: 'A level drop larger than this between sprays raises the Tank Leak Alarm.',
  },
  {
    code: 'SP-6',
    channel: 'sp6',
    name: 'Excessive spray margin',
    unit: '%',
    min: 5,
    max: 200,
    step: 5,
    help: 'A spray rate this far above a zone’s max spray rate raises Excessive Spray.',
  },
  {
    code: 'SP-7',
    channel: 'sp7',
    name: 'Pump check drop',
    unit: '%',
    min: 0.1,
    max: 10,
    step: 0.1,
    help: 'A spray that lowers the tank by less than this raises the Pump Alarm.',
  },
  {
    code: 'GPF-9',
    channel: 'gpf9',
    name: 'Skip spray enabled',
    unit: '',
    min: 0,
    max: 1,
    step: 1,
    help: 'Allows skip-spray: scheduled sprays held back for the skip time.',
  },
  {
    code: 'GPF-11',
    channel: 'gpf11',
    name: 'Broadcast spray accepted',
    unit: '',
    min: 0,
    max: 1,
    step: 1,
    help: 'The unit sprays when a broadcast spray is sent to its group.',
  },
];

/**
 * The other channels of a sprayer (§3: spray counts, durations, max spray rates, empty and refill
 * levels, and the spray state). Counts and durations are of the unit's local day.
 */
export const SPRAYER_CHANNELS = {
  tankLevel: 'a16',
  pumpPressure: 'c1',
  windSpeed: 'c2',
  zone1: 'do1',
  zone2: 'do2',
  spraysTodayZone1: 't6',
  spraysTodayZone2: 't7',
  sprayTimeTodayZone1: 't8',
  sprayTimeTodayZone2: 't9',
  maxSprayRateZone1: 'sp8',
  maxSprayRateZone2: 'sp9',
  emptyLevel: 'sp10',
  refillLevel: 'sp11',
  /** Manual spray control: write 1 or 2 to spray that zone, 0 to stop; it reads the zone spraying. */
  manualSprayControl: 'gpf1',
  /** Skip spray active: write 1 to hold scheduled sprays back for the skip time, 0 to resume. */
  skipSprayActive: 'gpf2',
  /** Test spray: write 1 for a short spray of both zones, allowed during the Empty Alarm. */
  testSpray: 'gpf3',
  /** Broadcast spray: the server writes 1 to every sprayer of a group. */
  broadcastSpray: 'gpf4',
  /** Minutes of skip time left while skip-spray is active. */
  skipTime: 'a15',
} as const;

/** Seconds a test spray runs each zone. */
export const TEST_SPRAY_SECONDS = 5;

/**
 * True when a device's registers hold a spray schedule (T-1's pair): that makes it a sprayer, the
 * devices a broadcast spray and the spray overview address.
 */
export function isSprayer(registers: Readonly<Record<string, number>> | null | undefined): boolean {
  const first = sprayScheduleRegisters(0);
  return registers?.[String(first.time)] !== undefined && registers[String(first.days)] !== undefined;
}

/** The schedules T-1 to T-5 read from a device's registers; null where a register is missing. */
export function schedulesFromRegisters(
  registers: Readonly<Record<string, number>> | null | undefined,
): (SpraySchedule | null)[] {
  return Array.from({ length: SPRAY_SCHEDULE_COUNT }, (_, index) => {
    const address = sprayScheduleRegisters(index);
    const time = registers?.[String(address.time)];
    const days = registers?.[String(address.days)];
    return time === undefined || days === undefined ? null : unpackSpraySchedule({ time, days });
  });
}

/** A time of the unit's week: local weekday and minutes after midnight. */
export interface WeekTime {
  weekday: Weekday;
  minuteOfDay: number;
}

/** The unit's local week time at an instant (unix ms), for its offset from UTC in minutes. */
export function weekTimeAt(timeMs: number, utcOffsetMinutes: number): WeekTime {
  const localMinutes = Math.floor(timeMs / 60_000) + utcOffsetMinutes;
  const day = Math.floor(localMinutes / MINUTES_PER_DAY);
  // 1 January 1970 was a Thursday.
  const weekday = ((((day + 4) % 7) + 7) % 7) as Weekday;
  return { weekday, minuteOfDay: localMinutes - day * MINUTES_PER_DAY };
}

/** The schedules (by index) that start at this minute of the week. */
export function schedulesStartingAt(schedules: readonly (SpraySchedule | null)[], at: WeekTime): number[] {
  return schedules.flatMap((schedule, index) =>
    schedule?.enabled && schedule.minuteOfDay === at.minuteOfDay && schedule.days.includes(at.weekday) ? [index] : [],
  );
}

/** The next scheduled spray: which schedule, when (local), and how many minutes from `from`. */
export interface NextSpray {
  index: number;
  weekday: Weekday;
  minuteOfDay: number;
  minutesAhead: number;
}

/**
 * The next spray after `from` (a spray starting this very minute counts as next only if it is still
 * ahead, so `from` itself is excluded), or null when no enabled schedule has a valid time and a day.
 * Ties go to the lower schedule number.
 */
export function nextScheduledSpray(schedules: readonly (SpraySchedule | null)[], from: WeekTime): NextSpray | null {
  let best: NextSpray | null = null;
  schedules.forEach((schedule, index) => {
    if (!schedule?.enabled || schedule.minuteOfDay >= MINUTES_PER_DAY || schedule.durationSteps < 1) return;
    for (const weekday of schedule.days) {
      let ahead = (weekday - from.weekday) * MINUTES_PER_DAY + schedule.minuteOfDay - from.minuteOfDay;
      if (ahead <= 0) ahead += 7 * MINUTES_PER_DAY;
      if (!best || ahead < best.minutesAhead)
        best = { index, weekday, minuteOfDay: schedule.minuteOfDay, minutesAhead: ahead };
    }
  });
  return best;
}

// ---------------------------------------------------------------------------------------------
// Sprayer alarm bits (§8)

export interface SprayerAlarm {
  bit: number;
  name: string;
  /** What it means and what to do (the specification's explanation). */
  explanation: string;
}

const EXCESSIVE_SPRAY = 'Spray rate higher than expected, odd pressure or broken nozzles.';

/** The sprayer's alarm bits of `status.sp`, with the specification's names and explanations. */
export const SPRAYER_ALARMS: readonly SprayerAlarm[] = [
  { bit: 4, name: 'Excessive Spray Z1', explanation: EXCESSIVE_SPRAY },
  { bit: 5, name: 'Excessive Spray Z2', explanation: EXCESSIVE_SPRAY },
  {
    bit: 6,
    name: 'Empty Alarm',
    explanation: 'Tank below empty level; scheduled and manual sprays blocked, test sprays allowed.',
  },
  { bit: 7, name: 'Refill Alarm', explanation: 'Sprays continue, refill soon.' },
  { bit: 9, name: 'Tank Leak Alarm', explanation: 'Level dropped more than expected between sprays.' },
  { bit: 10, name: 'Pump Alarm', explanation: 'Level unchanged across a spray, faulty pump or pressure sensor.' },
  { bit: 12, name: 'Level Sensor Overflow', explanation: 'Replace unit if no pressure.' },
  { bit: 13, name: 'Level Sensor Fault', explanation: 'Sensor not detected, check wiring or replace.' },
  { bit: 14, name: 'High Wind Speed Warning', explanation: 'Sprays disabled until wind drops.' },
  { bit: 16, name: 'Blower Pump Alarm', explanation: 'Repowering clears it.' },
];

export const EXCESSIVE_SPRAY_Z1_BIT = 4;
export const EXCESSIVE_SPRAY_Z2_BIT = 5;
export const EMPTY_ALARM_BIT = 6;
export const REFILL_ALARM_BIT = 7;
export const TANK_LEAK_ALARM_BIT = 9;
export const PUMP_ALARM_BIT = 10;
export const HIGH_WIND_BIT = 14;

/** The named sprayer alarms active in a mask, lowest bit first (bits the sprayer does not name are left out). */
export function activeSprayerAlarms(mask: number | null | undefined): SprayerAlarm[] {
  const active = new Set(activeAlarmBits(mask));
  return SPRAYER_ALARMS.filter((alarm) => active.has(alarm.bit));
}

/** Bits counted for display (§8): 4, 5, 9, 10, 12, 13, 16. */
export const COUNTED_SPRAYER_ALARM_BITS: readonly number[] = [4, 5, 9, 10, 12, 13, 16];

/** What the alarm count needs of a configured channel. */
export interface ConfiguredChannel {
  code: string;
  upload?: boolean;
  alarm?: boolean;
}

/**
 * The alarm count shown for a sprayer (§8): the active bits among {@link COUNTED_SPRAYER_ALARM_BITS}
 * whose channel `s{n}` the device configures with upload or alarm set.
 */
export function countedSprayerAlarms(
  mask: number | null | undefined,
  channels: readonly ConfiguredChannel[] | null | undefined,
): number[] {
  const reporting = new Set(
    (channels ?? []).filter((channel) => channel.upload || channel.alarm).map((channel) => channel.code.toLowerCase()),
  );
  const active = new Set(activeAlarmBits(mask));
  return COUNTED_SPRAYER_ALARM_BITS.filter((bit) => active.has(bit) && reporting.has(`s${bit}`));
}

/** The kinds of spray a unit makes. */
export type SprayKind = 'scheduled' | 'manual' | 'test' | 'broadcast';

/**
 * Why a spray of this kind cannot run with these alarms (the blocking alarm), or null when it can.
 * High wind stops every spray; the Empty Alarm stops all but test sprays (§8). A broadcast spray is
 * a manual spray sent to many units at once, so it is blocked like one.
 */
export function sprayBlockedBy(mask: number | null | undefined, kind: SprayKind): SprayerAlarm | null {
  const active = activeSprayerAlarms(mask);
  const wind = active.find((alarm) => alarm.bit === HIGH_WIND_BIT);
  if (wind) return wind;
  if (kind === 'test') return null;
  return active.find((alarm) => alarm.bit === EMPTY_ALARM_BIT) ?? null;
}

// ---------------------------------------------------------------------------------------------
// Broadcast spray (§7, §8)

/**
 * Seconds after a broadcast spray during which another reaching any of the same sprayers is refused
 * (429), whatever group either names (issue 34, item 7): long enough for the units to finish the
 * spray and report, short enough to repeat one that missed.
 */
export const BROADCAST_SPRAY_COOLDOWN_SECONDS = 120;

/** The warning of §5 for a group without devices (here: without sprayers to broadcast to). */
export const NO_DEVICE_IN_GROUP = 'No device found in the group.';

export const BROADCAST_SPRAY_FORBIDDEN = 'You do not have permission to broadcast spray.';
export const BROADCAST_SPRAY_FAILED = 'Error initiating broadcast spray.';

/** The 429 message of §8. */
export function broadcastSprayWaitMessage(retryAfterSeconds: number): string {
  return `Broadcast spray has recently been initiated. Please wait ${retryAfterSeconds} seconds before trying again.`;
}

/**
 * Whole seconds until a broadcast may reach its sprayers, given when the most recently sprayed of
 * them was last sent one (unix ms); 0 when it may start now.
 */
export function broadcastRetryAfterSeconds(lastStartedAtMs: number | null | undefined, nowMs: number): number {
  if (lastStartedAtMs === null || lastStartedAtMs === undefined) return 0;
  const left = lastStartedAtMs + BROADCAST_SPRAY_COOLDOWN_SECONDS * 1000 - nowMs;
  return left > 0 ? Math.ceil(left / 1000) : 0;
}
