/**
 * Time zones for the device's time/date command (core §7): an IANA name and the POSIX TZ rule the
 * device firmware applies (`EST5EDT,M3.2.0,M11.1.0`). The rule is derived from the platform's own
 * time-zone data (Intl), so it follows the same tz database as the browser.
 */

const HOUR = 3_600_000;
const MINUTE = 60_000;

const zoneFormatters = new Map<string, Intl.DateTimeFormat>();

/**
 * The formatter that reads an instant's calendar parts in a zone (24-hour, numeric), made once per
 * zone: building an Intl formatter costs far more than using one.
 */
export function zoneFormatter(tzName: string): Intl.DateTimeFormat {
  let formatter = zoneFormatters.get(tzName);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: tzName,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    zoneFormatters.set(tzName, formatter);
  }
  return formatter;
}

/** UTC offset of a zone at an instant, in minutes east of UTC. */
export function utcOffsetMinutes(tzName: string, at: number): number {
  const parts = zoneFormatter(tzName).formatToParts(at);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const local = Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second'));
  return Math.round((local - Math.floor(at / 1000) * 1000) / MINUTE);
}

/**
 * The instant a wall-clock time names in a zone (`month` 0-based, minutes past midnight; days and
 * months out of range roll over as `Date.UTC` does). In a forward change's gap the time is read
 * with the offset before it; at a backward change the later of the two instants is taken.
 */
export function instantOfWallTime(tzName: string, year: number, month: number, day: number, minutes: number): number {
  const wall = Date.UTC(year, month, day) + minutes * MINUTE;
  const first = wall - utcOffsetMinutes(tzName, wall) * MINUTE;
  // Once more with the offset at the first guess: right on either side of a change.
  return wall - utcOffsetMinutes(tzName, first) * MINUTE;
}

/** True when the platform knows the zone. */
export function isKnownTimeZone(tzName: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tzName });
    return true;
  } catch {
    return false;
  }
}

/** `+10`, `-0330` style quoted name, or a short alphabetic abbreviation when the platform has one. */
function abbreviation(tzName: string, at: number, offsetMinutes: number): string {
  const name = new Intl.DateTimeFormat('en-US', { timeZone: tzName, timeZoneName: 'short' })
    .formatToParts(at)
    .find((part) => part.type === 'timeZoneName')?.value;
  if (name && /^[A-Za-z]{3,6}$/.test(name) && name !== 'GMT' && name !== 'UTC') return name;
  if (offsetMinutes === 0) return 'UTC';
  const sign = offsetMinutes < 0 ? '-' : '+';
  const hours = Math.floor(Math.abs(offsetMinutes) / 60);
  const minutes = Math.abs(offsetMinutes) % 60;
  return `<${sign}${String(hours).padStart(2, '0')}${minutes ? String(minutes).padStart(2, '0') : ''}>`;
}

/** POSIX offset: hours west of UTC (`-10`, `5`, `-5:30`). */
function posixOffset(offsetMinutes: number): string {
  const west = -offsetMinutes;
  const sign = west < 0 ? '-' : '';
  const hours = Math.floor(Math.abs(west) / 60);
  const minutes = Math.abs(west) % 60;
  return `${sign}${hours}${minutes ? `:${String(minutes).padStart(2, '0')}` : ''}`;
}

/** The first instant in (from, to] whose offset differs from the offset at `from` (binary search to the minute). */
function transitionBetween(tzName: string, from: number, to: number): number {
  const before = utcOffsetMinutes(tzName, from);
  let low = from;
  let high = to;
  while (high - low > MINUTE) {
    const mid = low + Math.floor((high - low) / 2 / MINUTE) * MINUTE;
    if (utcOffsetMinutes(tzName, mid) === before) low = mid;
    else high = mid;
  }
  return high;
}

/** `Mm.w.d[/time]`: month, week of the month (5 = last), weekday, local time of the change. */
function transitionRule(at: number, offsetBeforeMinutes: number): string {
  const local = new Date(at + offsetBeforeMinutes * MINUTE);
  const day = local.getUTCDate();
  const daysInMonth = new Date(Date.UTC(local.getUTCFullYear(), local.getUTCMonth() + 1, 0)).getUTCDate();
  const week = day + 7 > daysInMonth ? 5 : Math.ceil(day / 7);
  const minutes = local.getUTCHours() * 60 + local.getUTCMinutes();
  const time =
    minutes === 120
      ? ''
      : `/${Math.floor(minutes / 60)}${minutes % 60 ? `:${String(minutes % 60).padStart(2, '0')}` : ''}`;
  return `M${local.getUTCMonth() + 1}.${week}.${local.getUTCDay()}${time}`;
}

/**
 * The POSIX TZ rule of a zone for the year of `at`: standard name and offset, and for zones with
 * daylight saving its name, offset and the two changes (`AEST-10AEDT,M10.1.0,M4.1.0/3`). Throws a
 * RangeError for an unknown zone.
 */
export function posixTimeZoneRule(tzName: string, at: number = Date.now()): string {
  if (!isKnownTimeZone(tzName)) throw new RangeError(`Unknown time zone: ${tzName}`);
  const year = new Date(at).getUTCFullYear();
  const yearStart = Date.UTC(year, 0, 1);
  const yearEnd = Date.UTC(year + 1, 0, 1);
  const transitions: number[] = [];
  let cursor = yearStart;
  let offset = utcOffsetMinutes(tzName, cursor);
  // Offsets change at most a few times a year; stepping a week at a time finds each change.
  for (let next = cursor + 7 * 24 * HOUR; cursor < yearEnd; next += 7 * 24 * HOUR) {
    const stop = Math.min(next, yearEnd);
    const nextOffset = utcOffsetMinutes(tzName, stop);
    if (nextOffset !== offset) transitions.push(transitionBetween(tzName, cursor, stop));
    cursor = stop;
    offset = nextOffset;
  }
  const january = utcOffsetMinutes(tzName, yearStart);
  const july = utcOffsetMinutes(tzName, Date.UTC(year, 6, 1));
  if (transitions.length !== 2 || january === july) {
    const current = utcOffsetMinutes(tzName, at);
    return `${abbreviation(tzName, at, current)}${posixOffset(current)}`;
  }
  const standard = Math.min(january, july);
  const daylight = Math.max(january, july);
  const [first, second] = transitions as [number, number];
  // The change into daylight time is the one after which the offset is the larger.
  const [toDaylight, toStandard] = utcOffsetMinutes(tzName, first) === daylight ? [first, second] : [second, first];
  const standardAt = january === standard ? yearStart : Date.UTC(year, 6, 1);
  const daylightAt = january === daylight ? yearStart : Date.UTC(year, 6, 1);
  return (
    `${abbreviation(tzName, standardAt, standard)}${posixOffset(standard)}` +
    `${abbreviation(tzName, daylightAt, daylight)}${daylight - standard === 60 ? '' : posixOffset(daylight)},` +
    `${transitionRule(toDaylight, standard)},${transitionRule(toStandard, daylight)}`
  );
}

/** The zone the platform runs in (the browser's), or UTC. */
export function localTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}
