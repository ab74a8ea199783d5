import type { GroupNode, TreeDevice } from '@fieldlink/api/account';
import type { Device } from '@fieldlink/api/device';
import { formatWallClock, type Clock } from '@fieldlink/domain/date-format';
import type { BroadcastSprayAnswer } from '@fieldlink/api/spray';
import {
  BROADCAST_SPRAY_FAILED,
  BROADCAST_SPRAY_FORBIDDEN,
  MINUTES_PER_DAY,
  SPRAYER_CHANNELS,
  WEEKDAY_NAMES,
  broadcastSprayWaitMessage,
  isSprayer,
  sprayBlockedBy,
  type NextSpray,
  type SpraySchedule,
  type Weekday,
} from '@fieldlink/domain/spray';
import { ApiError } from '../../../lib/api-client';

/** Devices of a group and the groups beneath it (not the trash), in tree order. */
export function devicesUnder(group: GroupNode): TreeDevice[] {
  if (group.kind === 'trash') return [];
  return [...group.devices, ...group.groups.flatMap(devicesUnder)];
}

/**
 * True when a device's channels in the account tree are a sprayer's: every channel a sprayer card
 * shows or operates (SPRAYER_CHANNELS). The tree carries no registers, which decide (`isSprayer`) once
 * the device's record is in; this only holds the card's place while the record is read.
 */
export function hasSprayerChannels(device: TreeDevice): boolean {
  const codes = new Set(device.channels?.map((channel) => channel.code));
  return Object.values(SPRAYER_CHANNELS).every((code) => codes.has(code));
}

/**
 * A place on the spray overview: a sprayer's card once its record is in; a placeholder until then
 * (`failed` when its record could not be read).
 */
export type SprayerPlace =
  { kind: 'card'; device: Device } | { kind: 'placeholder'; device: TreeDevice; failed: boolean };

/** What the overview knows of one device of the tree while the records come in. */
export interface DeviceReading {
  tree: TreeDevice;
  /** The device's record once read. */
  record: Device | undefined;
  /** Its registers as last pushed live, which outrank the record's. */
  liveRegisters: Readonly<Record<string, number>> | undefined;
  failed: boolean;
}

/**
 * The overview's places in the order they keep while the page fills: by name, numbers in numeric
 * order, ties in tree order, the order of a filled page. A device whose record is in is a card when its
 * registers (live first) make it a sprayer and has no place otherwise; one whose record is not in holds
 * a placeholder when its tree channels are a sprayer's (or its live registers say so), so a card never
 * moves when another sprayer's record comes in.
 */
export function sprayerPlaces(readings: readonly DeviceReading[]): SprayerPlace[] {
  const places: SprayerPlace[] = [];
  for (const { tree, record, liveRegisters, failed } of readings) {
    if (record) {
      if (isSprayer(liveRegisters ?? record.registers)) places.push({ kind: 'card', device: record });
    } else if (isSprayer(liveRegisters) || hasSprayerChannels(tree)) {
      places.push({ kind: 'placeholder', device: tree, failed });
    }
  }
  return places.sort((a, b) => byName(a.device.name, b.device.name));
}

/** Names as people sort them: case-insensitive, `Row 2` before `Row 10`. */
function byName(a: string, b: string): number {
  return a.localeCompare(b, undefined, { numeric: true, sensitivity: 'base' });
}

/** The group with this id in a tree, or null. */
export function findGroup(root: GroupNode, groupId: string): GroupNode | null {
  if (root.id === groupId) return root;
  for (const child of root.groups) {
    const found = findGroup(child, groupId);
    if (found) return found;
  }
  return null;
}

/** The groups of a tree a person can pick for the overview: all but New Devices and Trash, with their depth. */
export function pickableGroups(root: GroupNode, depth = 0): { group: GroupNode; depth: number }[] {
  if (root.kind === 'trash' || root.kind === 'new') return [];
  return [{ group: root, depth }, ...root.groups.flatMap((child) => pickableGroups(child, depth + 1))];
}

/** The message a failed broadcast shows (§8): 401, 429 with its wait, anything else. */
export function broadcastErrorMessage(error: unknown): string {
  if (error instanceof ApiError && error.status === 401) return BROADCAST_SPRAY_FORBIDDEN;
  if (error instanceof ApiError && error.status === 429) {
    const seconds = (error.body as { retryAfterSeconds?: unknown } | null)?.retryAfterSeconds;
    if (typeof seconds === 'number') return broadcastSprayWaitMessage(seconds);
  }
  return BROADCAST_SPRAY_FAILED;
}

/** The seconds a 429 asks to wait (the server's `retryAfterSeconds`), or null for any other failure. */
export function broadcastRetryAfterSeconds(error: unknown): number | null {
  if (!(error instanceof ApiError) || error.status !== 429) return null;
  const seconds = (error.body as { retryAfterSeconds?: unknown } | null)?.retryAfterSeconds;
  return typeof seconds === 'number' && seconds > 0 ? Math.ceil(seconds) : null;
}

/** Whole seconds left until `until` (unix ms), 0 when it has passed or is unknown. */
export function secondsLeft(until: number | null | undefined, now: number): number {
  return until == null ? 0 : Math.max(0, Math.ceil((until - now) / 1000));
}

/** What a finished broadcast tells the person: how many sprayers took it, and which did not. */
export function broadcastOutcome(answer: BroadcastSprayAnswer): { tone: 'success' | 'warning'; message: string } {
  const spraying = answer.devices.filter((device) => device.result === 'OK');
  const missed = answer.devices.filter((device) => device.result !== 'OK');
  const count = `${spraying.length} of ${answer.devices.length} ${answer.devices.length === 1 ? 'sprayer' : 'sprayers'}`;
  if (missed.length === 0) return { tone: 'success', message: `Broadcast spray sent: ${count} spraying.` };
  const reasons: Record<string, string> = {
    FAIL: 'refused',
    TIMEOUT: 'did not answer',
    OFFLINE: 'offline',
  };
  const details = missed.map((device) => `${device.name} (${reasons[device.result] ?? device.result})`).join(', ');
  return { tone: 'warning', message: `Broadcast spray sent: ${count} spraying. Not spraying: ${details}.` };
}

/** `2 h 05 min`, `45 min`, `3 d 4 h`: how far ahead, to the minute. */
export function formatMinutesAhead(minutes: number): string {
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ${String(minutes % 60).padStart(2, '0')} min`;
  return `${Math.floor(hours / 24)} d ${hours % 24} h`;
}

/** `Tuesday 06:00 · in 14 h 20 min` (`6:00 am` in 12 hours): the time on the device's own clock. */
export function nextSprayText(next: NextSpray, clock: Pick<Clock, 'hourCycle'>): string {
  return `${WEEKDAY_NAMES[next.weekday]} ${formatWallClock(next.minuteOfDay, clock)} · in ${formatMinutesAhead(next.minutesAhead)}`;
}

/** `45 s`, `3 min 20 s`, `1 h 02 min` for spray seconds. */
export function formatSeconds(seconds: number): string {
  const whole = Math.round(seconds);
  if (whole < 60) return `${whole} s`;
  const minutes = Math.floor(whole / 60);
  if (minutes < 60) return `${minutes} min ${String(whole % 60).padStart(2, '0')} s`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}

/** Days as people read them: `Every day`, `Mon–Fri`, `Weekends`, else the short names. */
export function daysText(days: readonly Weekday[]): string {
  const key = [...days].sort().join('');
  if (key === '0123456') return 'Every day';
  if (key === '12345') return 'Mon–Fri';
  if (key === '123456') return 'Mon–Sat';
  if (key === '06') return 'Weekends';
  if (days.length === 0) return 'No day';
  return [...days]
    .sort()
    .map((day) => WEEKDAY_NAMES[day].slice(0, 3))
    .join(' ');
}

/**
 * A schedule in one line: `06:00 · 30 s per zone · Mon–Sat` (`6:00 am` in 12 hours), with `off` when
 * disabled. The time is the device's own clock's.
 */
export function scheduleSummary(
  schedule: SpraySchedule | null,
  stepSeconds: number,
  clock: Pick<Clock, 'hourCycle'>,
): string {
  if (!schedule) return 'not reported';
  if (!schedule.enabled && schedule.durationSteps === 0 && schedule.days.length === 0) return 'Not set';
  const time =
    schedule.minuteOfDay < MINUTES_PER_DAY ? formatWallClock(schedule.minuteOfDay, clock) : 'unsupported time';
  const parts = [time, `${formatSeconds(schedule.durationSteps * stepSeconds)} per zone`, daysText(schedule.days)];
  return `${parts.join(' · ')}${schedule.enabled ? '' : ' · off'}`;
}

/**
 * Whether a sprayer will take a broadcast spray, and if not, why (the confirmation dialog's list). It
 * is "Ready" only when it is: inside the cool-down (`waitSeconds`, counted down from the server's
 * `retryAfterSeconds`) a sprayer that would spray says it is waiting.
 */
export function broadcastReadiness(
  sprayer: {
    isConnected: boolean;
    alarmMask: number | undefined;
    /** GPF-11; undefined when the unit has not reported it. */
    acceptsBroadcast: number | undefined;
  },
  waitSeconds = 0,
): { willSpray: boolean; note: string } {
  if (!sprayer.isConnected) return { willSpray: false, note: 'Offline: it will not spray.' };
  const blocked = sprayBlockedBy(sprayer.alarmMask, 'broadcast');
  if (blocked) return { willSpray: false, note: `${blocked.name}: it will not spray.` };
  if (sprayer.acceptsBroadcast === 0) return { willSpray: false, note: 'Does not accept broadcast spray (GPF-11).' };
  if (waitSeconds > 0) return { willSpray: true, note: `Waiting for the cool-down: ${waitSeconds} s.` };
  return { willSpray: true, note: 'Ready to spray.' };
}
