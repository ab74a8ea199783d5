/**
 * Dates and times as the console shows them (core §9): day first, `DD/MM/YY h:mm:ss a` for an
 * instant, `DD/MM` for a day, in one time zone per page (the device's or the user's). Headers,
 * tables, chart axes and read-outs all format through here, so no screen mixes 11/23 with 23/11.
 */
import { isKnownTimeZone, utcOffsetMinutes } from './time-zone';

/** The parts of an instant in a time zone. */
interface ZonedParts {
  year: number;
  month: number;
  day: number;
  /** 0..23 */
  hour: number;
  minute: number;
  second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string | undefined): Intl.DateTimeFormat {
  const key = timeZone ?? '';
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(key, formatter);
  }
  return formatter;
}

function zonedParts(t: number, timeZone: string | undefined): ZonedParts {
  const parts = formatterFor(timeZone).formatToParts(t);
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return {
    year: part('year'),
    month: part('month'),
    day: part('day'),
    hour: part('hour') % 24,
    minute: part('minute'),
    second: part('second'),
  };
}

const pad = (n: number) => String(n).padStart(2, '0');

function clock(parts: ZonedParts, seconds: boolean): string {
  const h12 = parts.hour % 12 === 0 ? 12 : parts.hour % 12;
  const tail = seconds ? `:${pad(parts.second)}` : '';
  return `${h12}:${pad(parts.minute)}${tail} ${parts.hour < 12 ? 'am' : 'pm'}`;
}

/**
 * An instant as `DD/MM/YY h:mm:ss a` (`07/03/25 2:05:09 pm`) in the time zone given, else the
 * platform's (the browser's: the user's own). Not a finite time: an em dash.
 */
export function formatDateTime(t: number, timeZone?: string): string {
  if (!Number.isFinite(t)) return '—';
  const parts = zonedParts(t, timeZone);
  return `${pad(parts.day)}/${pad(parts.month)}/${pad(parts.year % 100)} ${clock(parts, true)}`;
}

/** The day of an instant as `DD/MM/YY`. */
export function formatDate(t: number, timeZone?: string): string {
  const parts = zonedParts(t, timeZone);
  return `${pad(parts.day)}/${pad(parts.month)}/${pad(parts.year % 100)}`;
}

const DAY_MS = 86_400_000;

/**
 * Labels of a time axis's ticks (unix ms, ascending). Ticks a day or more apart read `DD/MM`
 * (`DD/MM/YY` where the year changes); closer ticks read the time of day (with seconds when ticks
 * are under a minute apart), and the first tick and each tick on a new day add `DD/MM` on a
 * second line, so the day is never lost.
 */
export function timeAxisLabels(ticks: readonly number[], timeZone?: string): string[] {
  const step = ticks.length > 1 ? (ticks[ticks.length - 1]! - ticks[0]!) / (ticks.length - 1) : DAY_MS;
  let previous: ZonedParts | null = null;
  return ticks.map((t) => {
    const parts = zonedParts(t, timeZone);
    const newYear = previous !== null && previous.year !== parts.year;
    const newDay = previous === null || newYear || previous.month !== parts.month || previous.day !== parts.day;
    previous = parts;
    const day = `${pad(parts.day)}/${pad(parts.month)}`;
    if (step >= DAY_MS) return newYear ? `${day}/${pad(parts.year % 100)}` : day;
    const time = clock(parts, step < 60_000);
    return newDay ? `${time}\n${day}` : time;
  });
}

/**
 * A time zone named once for a page: `Australia/Sydney (UTC+11:00)`, `UTC`. The offset is the one in
 * force at `at`.
 */
export function timeZoneLabel(timeZone: string, at: number): string {
  const offset = utcOffsetMinutes(timeZone, at);
  if (offset === 0 && /^(Etc\/)?(UTC|GMT|UCT|Zulu)$/i.test(timeZone)) return 'UTC';
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  return `${timeZone} (UTC${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)})`;
}

/**
 * The time zone a device's times are shown in: the zone it was set to (its `timeDate`), else the one
 * it reports in its health, when either is a zone the platform knows; null otherwise (the page then
 * uses the user's zone and says so).
 */
export function deviceTimeZone(device: {
  timeDate?: { tzName?: string | null } | null;
  health?: { currentTimeZone?: string | null } | null;
}): string | null {
  for (const zone of [device.timeDate?.tzName, device.health?.currentTimeZone]) {
    if (zone && isKnownTimeZone(zone)) return zone;
  }
  return null;
}

/**
 * An instant with its zone named, for text read away from the console (e-mails):
 * `07/03/25 2:05:09 pm Australia/Sydney (UTC+11:00)`, `07/03/25 3:05:09 am UTC`.
 */
export function formatDateTimeInZone(t: number, timeZone: string): string {
  return `${formatDateTime(t, timeZone)} ${timeZoneLabel(timeZone, t)}`;
}
