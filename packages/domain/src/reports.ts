import { commonGroupIds } from './group-path';
import { parseChannelCode } from './channels';
import { instantOfWallTime, utcOffsetMinutes } from './time-zone';

/**
 * Reports and report schedules (application §3, §4, §5, §9): states and their labels, the choices a
 * report is made of, the access validity rule, the list filter and order, schedule timing (in the
 * schedule's time zone) and the arithmetic of a report's figures.
 */

/** States of a report (and of a brew batch report), application §4. */
export const REPORT_STATES = ['GENERATING', 'READY', 'AWAITING_USER', 'ERROR', 'DELETING'] as const;
export type ReportState = (typeof REPORT_STATES)[number];

/** How each state is shown; ERROR shows the error text when there is one. */
export const REPORT_STATE_LABELS: Readonly<Record<ReportState, string>> = {
  GENERATING: 'Generating',
  READY: 'Complete',
  AWAITING_USER: 'Waiting for user',
  ERROR: 'Error',
  DELETING: 'Deleting',
};

/** The label of a report's state: the error text for ERROR when it has one (§4). */
export function reportStateLabel(state: ReportState, error?: string | null): string {
  if (state === 'ERROR' && error && error.trim() !== '') return error;
  return REPORT_STATE_LABELS[state];
}

/** A generating report's state is read again this often until it changes (§9). */
export const REPORT_STATE_POLL_MS = 10_000;

/** True while a report's state is polled: until it leaves GENERATING (§4). */
export function isReportStatePolled(state: ReportState): boolean {
  return state === 'GENERATING';
}

export const REPORT_FREQUENCIES = ['DAILY', 'WEEKLY', 'MONTHLY'] as const;
export type ReportFrequency = (typeof REPORT_FREQUENCIES)[number];

export const REPORT_FREQUENCY_LABELS: Readonly<Record<ReportFrequency, string>> = {
  DAILY: 'Daily',
  WEEKLY: 'Weekly',
  MONTHLY: 'Monthly',
};

export const REPORT_VISIBILITIES = [
  'CREATOR_ONLY',
  'SELECTED_GROUPS_IN_SCOPE',
  'SELECTED_USERS_IN_SCOPE',
  'PUBLIC',
] as const;
export type ReportVisibility = (typeof REPORT_VISIBILITIES)[number];

/** CREATOR_ONLY is "Only me" (§4); the others say who gains access. */
export const REPORT_VISIBILITY_LABELS: Readonly<Record<ReportVisibility, string>> = {
  CREATOR_ONLY: 'Only me',
  SELECTED_GROUPS_IN_SCOPE: 'Users in selected groups',
  SELECTED_USERS_IN_SCOPE: 'Selected users',
  PUBLIC: 'Anyone with the public link',
};

export const NOTIFY_AUDIENCES = ['NOBODY', 'ALL_WITH_ACCESS', 'SELECTED_USERS'] as const;
export type NotifyAudience = (typeof NOTIFY_AUDIENCES)[number];

export const NOTIFY_AUDIENCE_LABELS: Readonly<Record<NotifyAudience, string>> = {
  NOBODY: 'Nobody',
  ALL_WITH_ACCESS: 'Everyone with access',
  SELECTED_USERS: 'Selected users',
};

export const REPORT_FORMATS = ['CSV', 'PDF'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/**
 * True when a browser shows a report of this format in a tab (a PDF); a CSV is a file for a
 * spreadsheet: opened in a tab it downloads and leaves the tab blank, so it is only downloaded
 * (issue 35 item 10).
 */
export function opensInTab(format: ReportFormat): boolean {
  return format === 'PDF';
}

/** The intervals a report's figures are given per (issue 15: 15 minutes, hour, day). */
export const REPORT_INTERVALS = ['MINUTES_15', 'HOUR', 'DAY'] as const;
export type ReportInterval = (typeof REPORT_INTERVALS)[number];

export const REPORT_INTERVAL_MS: Readonly<Record<ReportInterval, number>> = {
  MINUTES_15: 15 * 60_000,
  HOUR: 3_600_000,
  DAY: 86_400_000,
};

export const REPORT_INTERVAL_LABELS: Readonly<Record<ReportInterval, string>> = {
  MINUTES_15: '15 minutes',
  HOUR: 'Hour',
  DAY: 'Day',
};

/** Longest period one report covers: a year, the chart's own lookback limit (§9). */
export const REPORT_MAX_PERIOD_MS = 31_536_000 * 1000;

/** Intervals of one channel in one report at most, so a report stays a document, not a data dump. */
export const REPORT_MAX_INTERVALS = 20_000;

/** Why a report's period and interval cannot be generated, or null when they can. */
export function reportPeriodIssue(start: number, end: number, interval: ReportInterval): string | null {
  if (!(end > start)) return 'The period must end after it starts.';
  if (end - start > REPORT_MAX_PERIOD_MS) return 'A report covers at most one year.';
  if (Math.ceil((end - start) / REPORT_INTERVAL_MS[interval]) > REPORT_MAX_INTERVALS) {
    return 'Too many intervals: choose a longer interval or a shorter period.';
  }
  return null;
}

/**
 * Most channels of one report, all its devices together. It bounds a report's work (channels times
 * intervals) at what the earlier caps allowed (200 devices of 32 channels), spent as the report needs:
 * whole devices, each with all its channels (a water plant has 85), up to this total.
 */
export const REPORT_MAX_CHANNELS = 6_400;

/** Why the chosen channels cannot go in one report (too many in all), or null when they can. */
export function reportChannelsIssue(devices: readonly { codes: readonly string[] }[]): string | null {
  const total = devices.reduce((sum, device) => sum + device.codes.length, 0);
  if (total > REPORT_MAX_CHANNELS) {
    return `A report covers at most ${REPORT_MAX_CHANNELS.toLocaleString('en-US')} channels; ${total.toLocaleString('en-US')} are chosen.`;
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Access (§5 "Report access")

/** Who a report is shared with: the visibility and, for the selected scopes, whom it names. */
export interface ReportAccessChoice {
  type: ReportVisibility;
  /** Ids of the selected groups (SELECTED_GROUPS_IN_SCOPE). */
  groupIds: readonly string[];
  /**
   * The selected users (SELECTED_USERS_IN_SCOPE), each as the group ids of its attachment points; a
   * user lies within the common groups when one of its attachment points does.
   */
  userGroupIds: readonly (readonly string[])[];
}

export const ACCESS_NEEDS_DEVICES = 'Choose the devices first: sharing is checked against them.';
export const ACCESS_NEEDS_GROUP = 'Choose at least one group.';
export const ACCESS_NEEDS_USER = 'Choose at least one user.';
export const ACCESS_GROUP_OUTSIDE = 'Every chosen group must hold all of the report’s devices.';
export const ACCESS_USER_OUTSIDE = 'Every chosen user must be in a group that holds all of the report’s devices.';

/**
 * Why the access choice is not valid for a report on devices at these group paths, or null when it
 * is (§5): CREATOR_ONLY and PUBLIC are always valid; group and user scopes are valid only when every
 * selected group or user lies within the groups common to the chosen devices, where path segments
 * shorter than 6 characters are ignored ({@link commonGroupIds}).
 *
 * "Lies within" is read as "is one of": a common group holds every chosen device, so the people
 * given access see only what the devices' own groups already show them. A scope that selects nobody
 * is refused rather than read as "only me", so a slip does not silently drop the sharing.
 */
export function reportAccessIssue(choice: ReportAccessChoice, devicePaths: readonly string[]): string | null {
  if (choice.type === 'CREATOR_ONLY' || choice.type === 'PUBLIC') return null;
  if (devicePaths.length === 0) return ACCESS_NEEDS_DEVICES;
  const common = new Set(commonGroupIds(devicePaths));
  if (choice.type === 'SELECTED_GROUPS_IN_SCOPE') {
    if (choice.groupIds.length === 0) return ACCESS_NEEDS_GROUP;
    return choice.groupIds.every((id) => common.has(id)) ? null : ACCESS_GROUP_OUTSIDE;
  }
  if (choice.userGroupIds.length === 0) return ACCESS_NEEDS_USER;
  return choice.userGroupIds.every((groups) => groups.some((id) => common.has(id))) ? null : ACCESS_USER_OUTSIDE;
}

/** True when the access choice is valid (see {@link reportAccessIssue}). */
export function isReportAccessValid(choice: ReportAccessChoice, devicePaths: readonly string[]): boolean {
  return reportAccessIssue(choice, devicePaths) === null;
}

// ---------------------------------------------------------------------------------------------
// Lists (§5 "Report and schedule lists")

/** What the list filter reads of a report or schedule. */
export interface ReportListItem {
  name: string;
  comments: string | null;
  tags: readonly string[];
}

export interface ReportListFilter {
  /** Items sharing at least one of these tags are kept; none: no tag filter. */
  tags: readonly string[];
  /** Case-insensitive text looked for in the name or comments; blank: no text filter. */
  text: string;
}

/** True when the item passes the tag filter and the text search (§5). */
export function matchesReportListFilter(item: ReportListItem, filter: ReportListFilter): boolean {
  if (filter.tags.length > 0 && !item.tags.some((tag) => filter.tags.includes(tag))) return false;
  const text = filter.text.trim().toLowerCase();
  if (text === '') return true;
  return item.name.toLowerCase().includes(text) || (item.comments ?? '').toLowerCase().includes(text);
}

/** The items that pass the filter, in their order. */
export function filterReportList<T extends ReportListItem>(items: readonly T[], filter: ReportListFilter): T[] {
  return items.filter((item) => matchesReportListFilter(item, filter));
}

/** Reports newest first by createdAt (§5); equal times keep their order. */
export function sortReportsNewestFirst<T extends { createdAt: number }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => b.createdAt - a.createdAt);
}

/** Every distinct tag of the items, sorted, for the tag filter's choices. */
export function reportListTags(items: readonly { tags: readonly string[] }[]): string[] {
  return [...new Set(items.flatMap((item) => item.tags))].sort((a, b) => a.localeCompare(b));
}

// ---------------------------------------------------------------------------------------------
// Schedules

/** When a schedule runs: at `time` (HH:MM) in `timeZone`, every day, week (on `dayOfWeek`) or month. */
export interface ScheduleTiming {
  frequency: ReportFrequency;
  /** `HH:MM`, 24-hour, in the schedule's time zone. */
  time: string;
  /** 0 (Sunday) to 6 (Saturday), for WEEKLY. */
  dayOfWeek: number;
  /** 1 to 31, for MONTHLY; a month shorter than this runs on its last day. */
  dayOfMonth: number;
  /** IANA zone the time is read in. */
  timeZone: string;
}

export const SCHEDULE_TIME_PATTERN = '^([01][0-9]|2[0-3]):[0-5][0-9]$';

const DAY = 86_400_000;

/** The local calendar date of an instant in the zone, as a UTC date (for the date arithmetic). */
function localDate(timeZone: string, at: number): Date {
  const local = new Date(at + utcOffsetMinutes(timeZone, at) * 60_000);
  return new Date(Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate()));
}

function minutesOfDay(time: string): number {
  const [hours = 0, minutes = 0] = time.split(':').map(Number);
  return hours * 60 + minutes;
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
}

function runsOn(timing: ScheduleTiming, date: Date): boolean {
  if (timing.frequency === 'DAILY') return true;
  if (timing.frequency === 'WEEKLY') return date.getUTCDay() === timing.dayOfWeek;
  const last = daysInMonth(date.getUTCFullYear(), date.getUTCMonth());
  return date.getUTCDate() === Math.min(timing.dayOfMonth, last);
}

/** The schedule's first run strictly after `after` (unix ms). */
export function nextScheduleRun(timing: ScheduleTiming, after: number): number {
  const start = localDate(timing.timeZone, after);
  const minutes = minutesOfDay(timing.time);
  // A month has at most 31 days: two months of days always hold the next monthly run.
  for (let offset = 0; offset <= 62; offset += 1) {
    const date = new Date(start.getTime() + offset * DAY);
    if (!runsOn(timing, date)) continue;
    const at = instantOfWallTime(
      timing.timeZone,
      date.getUTCFullYear(),
      date.getUTCMonth(),
      date.getUTCDate(),
      minutes,
    );
    if (at > after) return at;
  }
  throw new RangeError('No schedule run within two months');
}

/**
 * The period a run at `runAt` reports on: the day, week or month of wall-clock time that ends at
 * the run (a weekly run on Monday 07:00 covers the previous Monday 07:00 to now).
 */
export function schedulePeriod(timing: ScheduleTiming, runAt: number): { start: number; end: number } {
  const date = localDate(timing.timeZone, runAt);
  // The run's wall-clock minutes of the day (not minutes since midnight: a day may skip an hour).
  const minutes = Math.round(((runAt + utcOffsetMinutes(timing.timeZone, runAt) * 60_000) % DAY) / 60_000);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth();
  const day = date.getUTCDate();
  let start: number;
  if (timing.frequency === 'DAILY') start = instantOfWallTime(timing.timeZone, year, month, day - 1, minutes);
  else if (timing.frequency === 'WEEKLY') start = instantOfWallTime(timing.timeZone, year, month, day - 7, minutes);
  else {
    const previousDay = Math.min(day, daysInMonth(year, month - 1 < 0 ? 11 : month - 1));
    start = instantOfWallTime(timing.timeZone, year, month - 1, previousDay, minutes);
  }
  return { start, end: runAt };
}

/**
 * What a schedule does when the job runner looks at it at `now`. Runs that fell due while no
 * instance was up run once, not once per missed period: the run is the latest due one (its report
 * covers the latest whole period), and the next run is the first one after `now`. `due` is false
 * while the stored next run is still ahead.
 */
export function scheduleCatchUp(
  timing: ScheduleTiming,
  nextRunAt: number,
  now: number,
): { due: boolean; runAt: number; nextRunAt: number } {
  if (nextRunAt > now) return { due: false, runAt: nextRunAt, nextRunAt };
  let runAt = nextRunAt;
  for (let next = nextScheduleRun(timing, runAt); next <= now; next = nextScheduleRun(timing, runAt)) runAt = next;
  return { due: true, runAt, nextRunAt: nextScheduleRun(timing, now) };
}

// ---------------------------------------------------------------------------------------------
// Figures

/**
 * True for a totalizer channel: a counter that only grows (the `t` channels, shown as "Total_n"),
 * whose report figure is how much it grew in each interval.
 */
export function isTotalizerChannel(code: string): boolean {
  return parseChannelCode(code)?.prefix === 't';
}

/**
 * How much a totalizer grew in an interval, from its last reading before the interval (null: none)
 * to its last reading in it. A reading below the previous one means the counter was reset, and
 * the growth is the new reading itself.
 */
export function totalizerIncrease(previousLast: number | null, last: number): number {
  if (previousLast === null) return 0;
  return last >= previousLast ? last - previousLast : last;
}

/** A device's connection changes, oldest first. */
export interface ConnectionChange {
  t: number;
  connected: boolean;
}

/**
 * Milliseconds connected within [start, end): `connectedAtStart` is the state carried in from
 * before the period, then each change switches it. Changes outside the period are ignored.
 */
export function connectedMs(
  connectedAtStart: boolean,
  changes: readonly ConnectionChange[],
  start: number,
  end: number,
): number {
  let connected = connectedAtStart;
  let since = start;
  let total = 0;
  for (const change of changes) {
    if (change.t < start) continue;
    if (change.t >= end) break;
    if (connected) total += change.t - since;
    connected = change.connected;
    since = change.t;
  }
  if (connected) total += end - since;
  return total;
}

/** Connected share of the period in percent, to one decimal. */
export function uptimePercent(connected: number, start: number, end: number): number {
  if (end <= start) return 0;
  return Math.round((connected / (end - start)) * 1000) / 10;
}
