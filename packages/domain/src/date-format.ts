/**
 * The one clock of the console (core §9, issue 36 item 2): every date and time on every screen, in
 * reports (CSV and PDF) and in mails is formatted here, in the reader's time zone and format.
 *
 * A reader's clock is a time zone (IANA) and a format: 12 or 24 hours, day-month or month-day order.
 * The specification's default, `DD/MM/YY h:mm:ss a`, is the 12-hour day-month clock. A user's stored
 * choices may each be unset (null): then the browser's zone and locale decide (see `resolveClock`).
 */
import { instantOfWallTime, isKnownTimeZone, utcOffsetMinutes, zoneFormatter } from './time-zone';

/** 12-hour (`2:05 pm`) or 24-hour (`14:05`) times. */
export const HOUR_CYCLES = ['12', '24'] as const;
export type HourCycle = (typeof HOUR_CYCLES)[number];

/** Day before month (`23/11/26`) or month before day (`11/23/26`). */
export const DATE_ORDERS = ['dmy', 'mdy'] as const;
export type DateOrder = (typeof DATE_ORDERS)[number];

/** A reader's clock: the zone times are shown in and how they are written. */
export interface Clock {
  timeZone: string;
  hourCycle: HourCycle;
  dateOrder: DateOrder;
}

/** The format of the specification's default `DD/MM/YY h:mm:ss a`. */
export const SPEC_CLOCK_FORMAT: Pick<Clock, 'hourCycle' | 'dateOrder'> = { hourCycle: '12', dateOrder: 'dmy' };

/** A user's stored choices; null: not chosen (the browser's, or the specification's, decides). */
export interface ClockPreferences {
  timeZone: string | null;
  hourCycle: HourCycle | null;
  dateOrder: DateOrder | null;
}

/**
 * The format a locale writes times in (`en-US`: 12 h, month first; `en-GB`: 24 h, day first).
 * Locales that write the year first, or that the platform does not know, get the specification's
 * day-month order.
 */
export function localeClockFormat(locale: string | undefined): Pick<Clock, 'hourCycle' | 'dateOrder'> {
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat(locale, { hour: 'numeric', day: 'numeric', month: 'numeric', year: 'numeric' });
  } catch {
    return SPEC_CLOCK_FORMAT;
  }
  const cycle = format.resolvedOptions().hourCycle;
  const order = format
    .formatToParts(0)
    .map((part) => part.type)
    .filter((type) => type === 'day' || type === 'month' || type === 'year');
  return {
    hourCycle: cycle === 'h11' || cycle === 'h12' ? '12' : '24',
    dateOrder: order[0] === 'month' ? 'mdy' : 'dmy',
  };
}

/**
 * A reader's clock from their stored choices; each unset (or unknown) choice falls back to the one
 * given (the browser's zone and locale format in the console; a device's zone or UTC, and the
 * specification's format, on the server where no browser is asked).
 */
export function resolveClock(preferences: Partial<ClockPreferences> | null | undefined, fallback: Clock): Clock {
  const zone = preferences?.timeZone;
  return {
    timeZone: zone && isKnownTimeZone(zone) ? zone : fallback.timeZone,
    hourCycle: preferences?.hourCycle ?? fallback.hourCycle,
    dateOrder: preferences?.dateOrder ?? fallback.dateOrder,
  };
}

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

function zonedParts(t: number, timeZone: string): ZonedParts {
  const parts = zoneFormatter(timeZone).formatToParts(t);
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

/** `2:05 pm`, `14:05` (with `:09` seconds when asked). */
function clockTime(hour: number, minute: number, second: number | null, hourCycle: HourCycle): string {
  const tail = second === null ? '' : `:${pad(second)}`;
  if (hourCycle === '24') return `${pad(hour)}:${pad(minute)}${tail}`;
  const h12 = hour % 12 === 0 ? 12 : hour % 12;
  return `${h12}:${pad(minute)}${tail} ${hour < 12 ? 'am' : 'pm'}`;
}

/** `23/11` or `11/23`. */
function dayMonth(parts: ZonedParts, order: DateOrder): string {
  return order === 'mdy' ? `${pad(parts.month)}/${pad(parts.day)}` : `${pad(parts.day)}/${pad(parts.month)}`;
}

/**
 * How an instant is written: `date-time` (`23/11/26 2:05:09 pm`, the specification's default),
 * `date-time-minutes` (no seconds), `date` (`23/11/26`), `time` (`2:05 pm`), `time-seconds`, and
 * `tasting`, the specification's `MMM DD, YYYY LT` for brewing (`Mar 05, 2025 8:07 PM`, `Mar 05,
 * 2025 20:07`): the month is named, so the reader's date order does not apply; the hour cycle does.
 */
export type InstantStyle = 'date-time' | 'date-time-minutes' | 'date' | 'time' | 'time-seconds' | 'tasting';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * An instant (unix ms) as the reader's clock writes it, in the clock's zone; `nameZone` appends the
 * zone (`… Europe/London (UTC+00:00)`) where the time could be misread: away from the console
 * (mails, reports) or in a zone other than the reader's own. Not a finite time: an em dash.
 */
export function formatInstant(
  t: number,
  clock: Clock,
  style: InstantStyle = 'date-time',
  { nameZone = false }: { nameZone?: boolean } = {},
): string {
  if (!Number.isFinite(t)) return '—';
  const parts = zonedParts(t, clock.timeZone);
  const seconds = style === 'date-time' || style === 'time-seconds' ? parts.second : null;
  const time = clockTime(parts.hour, parts.minute, seconds, clock.hourCycle);
  let text: string;
  if (style === 'tasting') {
    // Moment's `LT`, which the specification names, writes AM and PM in capitals.
    text = `${MONTHS[parts.month - 1]} ${pad(parts.day)}, ${parts.year} ${time.toUpperCase()}`;
  } else {
    const date = `${dayMonth(parts, clock.dateOrder)}/${pad(parts.year % 100)}`;
    text = style === 'date' ? date : style === 'time' || style === 'time-seconds' ? time : `${date} ${time}`;
  }
  return nameZone ? `${text} ${timeZoneLabel(clock.timeZone, t)}` : text;
}

/**
 * An instant as ISO 8601 in a zone, with that zone's offset (`2026-11-30T18:05:09.000+11:00`; in UTC
 * `…Z`, as `toISOString`): the reader's local time in a file read by machines too (report CSVs), which a spreadsheet
 * still sorts and converts. Not a finite time: an empty string.
 */
export function formatIsoInZone(t: number, timeZone: string): string {
  if (!Number.isFinite(t)) return '';
  const parts = zonedParts(t, timeZone);
  const offset = utcOffsetMinutes(timeZone, t);
  const abs = Math.abs(offset);
  const zone = offset === 0 ? 'Z' : `${offset < 0 ? '-' : '+'}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
  const millis = String(((t % 1000) + 1000) % 1000).padStart(3, '0');
  return `${isoDay(parts)}T${pad(parts.hour)}:${pad(parts.minute)}:${pad(parts.second)}.${millis}${zone}`;
}

/**
 * The calendar day of an instant in a time zone, `YYYY-MM-DD`: a downloaded file's name carries the
 * day the page's clock shows, not the browser's own (one clock on every page).
 */
export function fileDay(t: number, timeZone: string): string {
  return isoDay(zonedParts(t, timeZone));
}

/** `YYYY-MM-DD` of a zone's calendar day. */
function isoDay({ year, month, day }: ZonedParts): string {
  return `${String(year).padStart(4, '0')}-${pad(month)}-${pad(day)}`;
}

/** An instant with date and time (seconds included): `formatInstant`'s `date-time`. */
export function formatDateTime(t: number, clock: Clock): string {
  return formatInstant(t, clock, 'date-time');
}

/**
 * A brewing date (a tasting note, a gravity reading, a batch's start): the specification's
 * `MMM DD, YYYY LT` in the reader's zone and hour cycle (`Mar 05, 2025 8:07 PM`).
 */
export function formatTastingDate(t: number, clock: Clock): string {
  return formatInstant(t, clock, 'tasting');
}

/** The day of an instant: `23/11/26`, `11/23/26`. */
export function formatDate(t: number, clock: Clock): string {
  return formatInstant(t, clock, 'date');
}

/**
 * An instant with its zone named, for text read away from the console (mails, reports):
 * `07/03/25 2:05:09 pm Australia/Sydney (UTC+11:00)`, `07/03/25 03:05:09 UTC`.
 */
export function formatDateTimeInZone(t: number, clock: Clock): string {
  return formatInstant(t, clock, 'date-time', { nameZone: true });
}

/**
 * An instant as a date-time field (`<input type="datetime-local">`) holds it, in the page's zone:
 * `2026-11-29T18:05`. The field has no zone of its own; the console reads and writes it in the
 * zone every other time on the page is written in, never the browser's.
 */
export function dateTimeInputValue(t: number, timeZone: string): string {
  const parts = zonedParts(t, timeZone);
  return `${parts.year}-${pad(parts.month)}-${pad(parts.day)}T${pad(parts.hour)}:${pad(parts.minute)}`;
}

const DATE_TIME_INPUT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

/**
 * The instant a date-time field's value names in the zone (`dateTimeInputValue`'s reverse), or
 * null for a value that is not a date and time (an empty or half-typed field, `2026-02-30T10:00`).
 * A time a forward change skips is read with the offset before it (`02:30` becomes `03:30`).
 */
export function instantOfDateTimeInput(value: string, timeZone: string): number | null {
  const match = DATE_TIME_INPUT.exec(value);
  if (!match) return null;
  const [year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0] = match
    .slice(1)
    .map((part) => Number(part ?? 0));
  const calendar = new Date(Date.UTC(year, month - 1, day));
  if (calendar.getUTCMonth() !== month - 1 || hour > 23 || minute > 59) return null;
  return instantOfWallTime(timeZone, year, month - 1, day, hour * 60 + minute) + second * 1000;
}

/**
 * A time of day a device keeps on its own clock (minutes after midnight, as a spray schedule's
 * start): `06:00` or `6:00 am` per the reader's hour cycle. Never converted: the device acts on
 * it in its own zone, which `deviceTimeLabel` names beside it. A value past the day, as a device
 * may report, is shown as 24-hour text as is (`25:10`).
 */
export function formatWallClock(minuteOfDay: number, clock: Pick<Clock, 'hourCycle'>): string {
  const hour = Math.floor(minuteOfDay / 60);
  const minute = minuteOfDay % 60;
  if (hour > 23) return `${pad(hour)}:${pad(minute)}`;
  return clockTime(hour, minute, null, clock.hourCycle);
}

/** The label of times a device keeps in its own zone: `device time (Europe/Paris)`, or `device time`. */
export function deviceTimeLabel(deviceZone: string | null): string {
  return deviceZone ? `device time (${deviceZone})` : 'device time';
}

const DAY_MS = 86_400_000;

/**
 * Labels of a time axis's ticks (unix ms, ascending). Ticks a day or more apart read the day
 * (`23/11`, or `11/23`; with the year where it changes); closer ticks read the time of day (with
 * seconds when ticks are under a minute apart), and the first tick and each tick on a new day add
 * the day on a second line, so the day is never lost.
 */
export function timeAxisLabels(ticks: readonly number[], clock: Clock): string[] {
  const step = ticks.length > 1 ? (ticks[ticks.length - 1]! - ticks[0]!) / (ticks.length - 1) : DAY_MS;
  let previous: ZonedParts | null = null;
  return ticks.map((t) => {
    const parts = zonedParts(t, clock.timeZone);
    const newYear = previous !== null && previous.year !== parts.year;
    const newDay = previous === null || newYear || previous.month !== parts.month || previous.day !== parts.day;
    previous = parts;
    const day = dayMonth(parts, clock.dateOrder);
    if (step >= DAY_MS) return newYear ? `${day}/${pad(parts.year % 100)}` : day;
    const time = clockTime(parts.hour, parts.minute, step < 60_000 ? parts.second : null, clock.hourCycle);
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
