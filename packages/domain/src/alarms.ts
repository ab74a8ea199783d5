/**
 * Channel alarms (application §3 Alarm, §7 `GET /device/alarms`, `PUT /device/alarm`; issue 7): what
 * an alarm on one channel is configured as, how samples move it through its states, when reminders
 * and escalations fall due, and who is told. Pure rules; the server stores the state and acts on
 * the transitions.
 */
import { shownUnits, type ChannelDescription } from './channel-presentation';
import { channelDisplayName } from './channels';
import { isUnderPath } from './group-path';
import { ANY_ALARM, NO_ALARM, alarmText, matchesSelectedAlarm } from './status-alarms';
import { can, effectivePermissions, isAdmin, type PermissionSource } from './permissions';

/**
 * An alarm's condition in words, with the channel's unit: `above 30 °C`, `below 1.2 bar`. The
 * threshold is shown exactly as set (no rounding), grouped by the locale.
 */
export function alarmConditionText(
  alarm: { side: AlarmSide; threshold: number },
  channel: Pick<ChannelDescription, 'units'>,
  locale?: string,
): string {
  const threshold = new Intl.NumberFormat(locale, { maximumFractionDigits: 6 }).format(alarm.threshold);
  const units = shownUnits(channel);
  return `${alarm.side === 'HIGH' ? 'above' : 'below'} ${threshold}${units ? ` ${units}` : ''}`;
}

/** How serious an alarm is, most serious first (ThingsBoard's levels, without "indeterminate"). */
export const ALARM_SEVERITIES = ['CRITICAL', 'MAJOR', 'MINOR', 'WARNING'] as const;
export type AlarmSeverity = (typeof ALARM_SEVERITIES)[number];
export const DEFAULT_ALARM_SEVERITY: AlarmSeverity = 'MAJOR';

/** Which threshold a value crossed: above `high` or below `low`. */
export type AlarmSide = 'HIGH' | 'LOW';

/** Longest delay before a crossing raises an alarm (a day). */
export const MAX_ALARM_DELAY_SECONDS = 86_400;

/** The alarm of one channel of one device. */
export interface AlarmConfig {
  code: string;
  enabled: boolean;
  /** Raised while the value is above this (strictly); null: no upper threshold. */
  high: number | null;
  /** Raised while the value is below this (strictly); null: no lower threshold. */
  low: number | null;
  /**
   * How far the value must come back before the alarm clears: an alarm raised above `high` clears at
   * or below `high - hysteresis`, one raised below `low` at or above `low + hysteresis`.
   */
  hysteresis: number;
  /** How long the value must stay past the threshold before the alarm is raised. */
  delaySeconds: number;
  severity: AlarmSeverity;
}

/** A channel without a stored alarm: nothing set, nothing raised. */
export function defaultAlarmConfig(code: string): AlarmConfig {
  return {
    code,
    enabled: false,
    high: null,
    low: null,
    hysteresis: 0,
    delaySeconds: 0,
    severity: DEFAULT_ALARM_SEVERITY,
  };
}

/** Why a configuration cannot be stored, or null when it can (each reason answers 400). */
export function alarmConfigProblem(config: AlarmConfig): string | null {
  const finite = (value: number | null) => value === null || Number.isFinite(value);
  if (!finite(config.high) || !finite(config.low)) return 'Thresholds must be numbers.';
  if (config.enabled && config.high === null && config.low === null) {
    return 'An enabled alarm needs a high or a low threshold.';
  }
  if (config.high !== null && config.low !== null && config.low >= config.high) {
    return 'The low threshold must be below the high threshold.';
  }
  if (!Number.isFinite(config.hysteresis) || config.hysteresis < 0) return 'Hysteresis cannot be negative.';
  if (config.high !== null && config.low !== null && config.hysteresis > config.high - config.low) {
    return 'Hysteresis cannot exceed the gap between the thresholds.';
  }
  if (!Number.isInteger(config.delaySeconds) || config.delaySeconds < 0) {
    return 'The delay must be a whole number of seconds.';
  }
  if (config.delaySeconds > MAX_ALARM_DELAY_SECONDS) return 'The delay may be at most a day (86400 seconds).';
  if (!ALARM_SEVERITIES.includes(config.severity)) return 'Unknown severity.';
  return null;
}

/**
 * Where a channel's evaluation stands. NORMAL: nothing crossed. PENDING: crossed at `since`, waiting
 * for the delay. ACTIVE: raised at `since` (an alarm record is open).
 */
export type AlarmPhase = 'NORMAL' | 'PENDING' | 'ACTIVE';

export interface AlarmEvaluation {
  phase: AlarmPhase;
  /** Side crossed (PENDING, ACTIVE); null when NORMAL. */
  side: AlarmSide | null;
  /** When the value first crossed (PENDING) or the alarm was raised (ACTIVE); null when NORMAL. */
  since: number | null;
  /** Time of the newest sample evaluated; older samples arriving later are ignored. */
  lastT: number | null;
}

export const NORMAL_EVALUATION: AlarmEvaluation = { phase: 'NORMAL', side: null, since: null, lastT: null };

export interface AlarmSample {
  /** Unix milliseconds. */
  t: number;
  value: number;
}

/** What the server must do after a sample: open an alarm record, or close the open one. */
export type AlarmTransition =
  | { kind: 'raised'; side: AlarmSide; t: number; value: number; threshold: number }
  | { kind: 'cleared'; t: number; value: number };

export interface AlarmStep {
  next: AlarmEvaluation;
  transitions: AlarmTransition[];
}

/** The side a value is past, strictly, or null when within the thresholds. */
export function crossedSide(value: number, config: Pick<AlarmConfig, 'high' | 'low'>): AlarmSide | null {
  if (config.high !== null && value > config.high) return 'HIGH';
  if (config.low !== null && value < config.low) return 'LOW';
  return null;
}

/** True when an alarm raised on `side` may clear at this value (back past threshold ∓ hysteresis). */
export function isBackToNormal(value: number, side: AlarmSide, config: AlarmConfig): boolean {
  if (side === 'HIGH') return config.high === null || value <= config.high - config.hysteresis;
  return config.low === null || value >= config.low + config.hysteresis;
}

function thresholdOf(side: AlarmSide, config: AlarmConfig): number {
  return (side === 'HIGH' ? config.high : config.low) ?? Number.NaN;
}

/**
 * One sample through the state machine. A sample older than the newest evaluated one changes
 * nothing (ingest may store a late frame). The delay is measured between samples: a crossing is
 * raised by the first sample still past the threshold `delaySeconds` after the first one that
 * crossed; a sample back within the thresholds (no hysteresis) while PENDING forgets the crossing.
 * An ACTIVE alarm clears only once the value is back past threshold ∓ hysteresis, and the same
 * sample is then evaluated afresh (a swing from above `high` to below `low` clears and crosses).
 * A disabled or threshold-less configuration clears an active alarm.
 */
export function evaluateAlarm(state: AlarmEvaluation, sample: AlarmSample, config: AlarmConfig): AlarmStep {
  if (!Number.isFinite(sample.value) || (state.lastT !== null && sample.t < state.lastT)) {
    return { next: state, transitions: [] };
  }
  const transitions: AlarmTransition[] = [];
  let current: AlarmEvaluation = { ...state, lastT: sample.t };
  const enabled = config.enabled && (config.high !== null || config.low !== null);
  if (!enabled) {
    if (state.phase === 'ACTIVE') transitions.push({ kind: 'cleared', t: sample.t, value: sample.value });
    return { next: { ...NORMAL_EVALUATION, lastT: sample.t }, transitions };
  }
  if (current.phase === 'ACTIVE') {
    if (!isBackToNormal(sample.value, current.side ?? 'HIGH', config)) return { next: current, transitions };
    transitions.push({ kind: 'cleared', t: sample.t, value: sample.value });
    current = { ...NORMAL_EVALUATION, lastT: sample.t };
  }
  const side = crossedSide(sample.value, config);
  if (side === null) return { next: { ...NORMAL_EVALUATION, lastT: sample.t }, transitions };
  // A crossing to the other side restarts the wait.
  const since =
    current.phase === 'PENDING' && current.side === side && current.since !== null ? current.since : sample.t;
  if (sample.t - since >= config.delaySeconds * 1000) {
    transitions.push({ kind: 'raised', side, t: sample.t, value: sample.value, threshold: thresholdOf(side, config) });
    return { next: { phase: 'ACTIVE', side, since: sample.t, lastT: sample.t }, transitions };
  }
  return { next: { phase: 'PENDING', side, since, lastT: sample.t }, transitions };
}

/** What a person sees of one raised alarm (ThingsBoard's four states; ISA-18.2's "return to normal unacknowledged"). */
export type AlarmStatus =
  'ACTIVE_UNACKNOWLEDGED' | 'ACTIVE_ACKNOWLEDGED' | 'CLEARED_UNACKNOWLEDGED' | 'CLEARED_ACKNOWLEDGED';
export const ALARM_STATUSES: readonly AlarmStatus[] = [
  'ACTIVE_UNACKNOWLEDGED',
  'ACTIVE_ACKNOWLEDGED',
  'CLEARED_UNACKNOWLEDGED',
  'CLEARED_ACKNOWLEDGED',
];

/** The times that decide an alarm's status. */
export interface AlarmTimes {
  raisedAt: number;
  clearedAt: number | null;
  acknowledgedAt: number | null;
}

export function alarmStatus(alarm: AlarmTimes): AlarmStatus {
  const acknowledged = alarm.acknowledgedAt !== null;
  if (alarm.clearedAt === null) return acknowledged ? 'ACTIVE_ACKNOWLEDGED' : 'ACTIVE_UNACKNOWLEDGED';
  return acknowledged ? 'CLEARED_ACKNOWLEDGED' : 'CLEARED_UNACKNOWLEDGED';
}

/** Reminders and escalation run while an alarm is active and unacknowledged. */
export function needsResponse(alarm: AlarmTimes): boolean {
  return alarm.clearedAt === null && alarm.acknowledgedAt === null;
}

/** How often an unanswered alarm is repeated, and when it goes to a wider audience. */
export interface AlarmNoticePolicy {
  reminderIntervalMs: number;
  escalationDelayMs: number;
}

export const DEFAULT_ALARM_NOTICE_POLICY: AlarmNoticePolicy = {
  reminderIntervalMs: 30 * 60_000,
  escalationDelayMs: 60 * 60_000,
};

/**
 * When reminder number `sent + 1` falls due: on a fixed grid from the raise, so a late job run does
 * not push every later reminder back.
 */
export function nextReminderAt(raisedAt: number, sent: number, policy: AlarmNoticePolicy): number {
  return raisedAt + (sent + 1) * policy.reminderIntervalMs;
}

/** When an alarm still unanswered goes to the escalation audience. */
export function escalationAt(raisedAt: number, policy: AlarmNoticePolicy): number {
  return raisedAt + policy.escalationDelayMs;
}

/** A user as notices see them. */
export interface NoticeUser {
  id: string;
  email: string;
  /** Thing names whose disconnection alerts the user muted. */
  mutedDevices: readonly string[];
  attachmentPoints: readonly (PermissionSource & { accountId: string; path: string })[];
  userVariant?: string | null;
}

/** The device a notice is about. */
export interface NoticeDevice {
  accountId: string;
  thingName: string;
  /** Path of the device's group. */
  path: string;
}

function covers(user: NoticeUser, device: NoticeDevice, ownAccountOnly: boolean): boolean {
  return user.attachmentPoints.some(
    (point) => (!ownAccountOnly || point.accountId === device.accountId) && isUnderPath(device.path, point.path),
  );
}

function subject(user: NoticeUser) {
  return {
    ...effectivePermissions([{ attachmentPoints: user.attachmentPoints }]),
    userVariant: user.userVariant ?? null,
  };
}

/**
 * Who is told first: Alarm Responders (ALARM, which ADMIN implies) attached inside the device's own
 * account. A supplier above the account hears of it only by escalation.
 */
export function alarmResponders<U extends NoticeUser>(users: readonly U[], device: NoticeDevice): U[] {
  return users.filter((user) => can(subject(user), 'respondToAlarms') && covers(user, device, true));
}

/**
 * Who an alarm unanswered after the escalation delay goes to as well: every administrator whose scope
 * covers the device, the account's own and its supplier's, except those already told.
 */
export function escalationAudience<U extends NoticeUser>(users: readonly U[], device: NoticeDevice): U[] {
  const told = new Set(alarmResponders(users, device).map((user) => user.id));
  return users.filter((user) => !told.has(user.id) && isAdmin(subject(user)) && covers(user, device, false));
}

/** Who hears of a disconnection: the device's Alarm Responders who have not muted it (core §6). */
export function disconnectionAudience<U extends NoticeUser>(users: readonly U[], device: NoticeDevice): U[] {
  return alarmResponders(users, device).filter((user) => !user.mutedDevices.includes(device.thingName));
}

/** An active alarm as the device table carries it. */
export interface ActiveAlarmSummary {
  code: string;
  side: AlarmSide;
  severity: AlarmSeverity;
}

/**
 * The device table's compact form of a device's active alarms (`c1:HIGH:CRITICAL;sp2:LOW:MAJOR`),
 * or null when none is active. Sorted, so equal sets encode the same and share a dictionary entry.
 */
export function encodeActiveAlarms(alarms: readonly ActiveAlarmSummary[]): string | null {
  if (alarms.length === 0) return null;
  return alarms
    .map((alarm) => `${alarm.code}:${alarm.side}:${alarm.severity}`)
    .sort()
    .join(';');
}

/** Reads {@link encodeActiveAlarms}; anything unreadable is left out. */
export function decodeActiveAlarms(text: string | null | undefined): ActiveAlarmSummary[] {
  if (!text) return [];
  return text.split(';').flatMap((part) => {
    const [code, side, severity] = part.split(':');
    if (!code || (side !== 'HIGH' && side !== 'LOW') || !ALARM_SEVERITIES.includes(severity as AlarmSeverity)) {
      return [];
    }
    return [{ code, side, severity: severity as AlarmSeverity }];
  });
}

/**
 * The table's alarm cell: the channel alarms that are active (`Ch_1 high`), then the alarm bits the
 * device reports in `status.sp` (`Alarm 6`).
 */
export function alarmCellText(activeAlarms: string | null | undefined, statusMask: number | null | undefined): string {
  const channels = decodeActiveAlarms(activeAlarms).map(
    (alarm) => `${channelDisplayName(alarm.code) ?? alarm.code} ${alarm.side === 'HIGH' ? 'high' : 'low'}`,
  );
  const bits = alarmText(statusMask);
  return [...channels, ...(bits ? [bits] : [])].join(', ');
}

/**
 * The ALARM filter (core §3 `selectedAlarm`): `ANY` or `NONE` over channel alarms and status bits
 * together, a severity (`CRITICAL` …: a channel alarm of that severity is active), or a status bit
 * number as before channel alarms existed.
 */
export function matchesAlarmChoice(
  statusMask: number | null | undefined,
  activeAlarms: string | null | undefined,
  selectedAlarm: string,
): boolean {
  const choice = selectedAlarm.trim().toUpperCase();
  const active = decodeActiveAlarms(activeAlarms);
  if (choice === ANY_ALARM) return active.length > 0 || matchesSelectedAlarm(statusMask, ANY_ALARM);
  if (choice === NO_ALARM) return active.length === 0 && matchesSelectedAlarm(statusMask, NO_ALARM);
  if (ALARM_SEVERITIES.includes(choice as AlarmSeverity)) return active.some((alarm) => alarm.severity === choice);
  return matchesSelectedAlarm(statusMask, choice);
}
