import { describe, expect, it } from 'vitest';
import {
  dateTimeInputValue,
  deviceTimeLabel,
  deviceTimeZone,
  formatDate,
  formatDateTime,
  formatDateTimeInZone,
  formatInstant,
  fileDay,
  formatIsoInZone,
  formatTastingDate,
  formatWallClock,
  instantOfDateTimeInput,
  localeClockFormat,
  resolveClock,
  SPEC_CLOCK_FORMAT,
  timeAxisLabels,
  timeZoneLabel,
  type Clock,
  type InstantStyle,
} from './date-format';
import { localTimeZone, utcOffsetMinutes } from './time-zone';

const at = (iso: string) => Date.parse(iso);
/** The specification's default format (`DD/MM/YY h:mm:ss a`) in a zone. */
const spec = (timeZone: string): Clock => ({ timeZone, ...SPEC_CLOCK_FORMAT });
const LONDON_24_DMY: Clock = { timeZone: 'Europe/London', hourCycle: '24', dateOrder: 'dmy' };
const NEW_YORK_12_MDY: Clock = { timeZone: 'America/New_York', hourCycle: '12', dateOrder: 'mdy' };

describe('formatDateTime: DD/MM/YY h:mm:ss a in the zone given', () => {
  it.each([
    ['2025-03-07T14:05:09Z', 'UTC', '07/03/25 2:05:09 pm'],
    ['2025-03-07T00:00:00Z', 'UTC', '07/03/25 12:00:00 am'],
    ['2025-03-07T12:00:00Z', 'UTC', '07/03/25 12:00:00 pm'],
    ['2026-11-23T09:30:00Z', 'Australia/Sydney', '23/11/26 8:30:00 pm'],
    ['2026-11-23T09:30:00Z', 'America/Chicago', '23/11/26 3:30:00 am'],
    ['2026-01-01T02:00:00Z', 'America/New_York', '31/12/25 9:00:00 pm'],
  ])('%s in %s -> %s', (iso, zone, expected) => {
    expect(formatDateTime(at(iso), spec(zone))).toBe(expected);
  });

  it('shows an em dash for a time that is not a number', () => {
    expect(formatDateTime(Number.NaN, spec('UTC'))).toBe('—');
  });
});

describe('days', () => {
  it.each([
    ['2026-11-23T09:30:00Z', 'UTC', '23/11/26'],
    ['2026-11-23T23:30:00Z', 'Europe/Berlin', '24/11/26'],
  ])('%s in %s', (iso, zone, date) => {
    expect(formatDate(at(iso), spec(zone))).toBe(date);
  });
});

describe('timeAxisLabels', () => {
  const hours = (start: string, count: number, stepH: number) =>
    Array.from({ length: count }, (_, i) => at(start) + i * stepH * 3_600_000);

  it.each<[string, number[], string[]]>([
    [
      'hours: the day on the first tick and where it changes',
      hours('2026-11-23T18:00:00Z', 4, 3),
      ['6:00 pm\n23/11', '9:00 pm', '12:00 am\n24/11', '3:00 am'],
    ],
    ['days: day first, never month first', hours('2026-11-22T00:00:00Z', 3, 24), ['22/11', '23/11', '24/11']],
    ['a new year adds the year', hours('2025-12-31T00:00:00Z', 2, 24), ['31/12', '01/01/26']],
    [
      'seconds when ticks are under a minute apart',
      [at('2026-11-23T09:00:00Z'), at('2026-11-23T09:00:30Z')],
      ['9:00:00 am\n23/11', '9:00:30 am'],
    ],
  ])('%s', (_name, ticks, expected) => {
    expect(timeAxisLabels(ticks, spec('UTC'))).toEqual(expected);
  });
});

describe('timeZoneLabel', () => {
  it.each([
    ['UTC', '2026-11-23T00:00:00Z', 'UTC'],
    ['Etc/UTC', '2026-11-23T00:00:00Z', 'UTC'],
    ['Australia/Sydney', '2026-11-23T00:00:00Z', 'Australia/Sydney (UTC+11:00)'],
    ['America/St_Johns', '2026-01-10T00:00:00Z', 'America/St_Johns (UTC-03:30)'],
    ['Europe/London', '2026-01-10T00:00:00Z', 'Europe/London (UTC+00:00)'],
  ])('%s at %s -> %s', (zone, iso, expected) => {
    expect(timeZoneLabel(zone, at(iso))).toBe(expected);
  });
});

describe('formatDateTime in the platform (browser) zone', () => {
  it.each([
    [new Date(2025, 2, 7, 14, 5, 9), '07/03/25 2:05:09 pm'],
    [new Date(2024, 11, 31, 0, 0, 0), '31/12/24 12:00:00 am'],
    [new Date(2024, 0, 1, 12, 30, 1), '01/01/24 12:30:01 pm'],
  ])('%s -> %s', (date, expected) => {
    expect(formatDateTime(date.getTime(), spec(localTimeZone()))).toBe(expected);
  });
});

describe('formatDateTimeInZone: the instant with its zone named (e-mails)', () => {
  it.each([
    ['2026-11-23T09:30:00Z', 'Australia/Sydney', '23/11/26 8:30:00 pm Australia/Sydney (UTC+11:00)'],
    ['2025-03-07T14:05:09Z', 'UTC', '07/03/25 2:05:09 pm UTC'],
    ['2026-01-01T02:00:00Z', 'America/New_York', '31/12/25 9:00:00 pm America/New_York (UTC-05:00)'],
  ])('%s in %s -> %s', (iso, zone, expected) => {
    expect(formatDateTimeInZone(at(iso), spec(zone))).toBe(expected);
  });
});

describe('deviceTimeZone: the zone a device is set to, else the one it reports', () => {
  it.each<[string, Parameters<typeof deviceTimeZone>[0], string | null]>([
    [
      'set and reported',
      { timeDate: { tzName: 'Australia/Perth' }, health: { currentTimeZone: 'UTC' } },
      'Australia/Perth',
    ],
    ['reported only', { timeDate: null, health: { currentTimeZone: 'Europe/Berlin' } }, 'Europe/Berlin'],
    [
      'an unknown zone set: the reported one',
      { timeDate: { tzName: 'Mars/Olympus' }, health: { currentTimeZone: 'UTC' } },
      'UTC',
    ],
    ['neither', {}, null],
    ['empty names', { timeDate: { tzName: '' }, health: { currentTimeZone: null } }, null],
  ])('%s', (_name, device, expected) => {
    expect(deviceTimeZone(device)).toBe(expected);
  });
});

describe("formatInstant: one instant in each reader's zone and format (issue 36 item 2)", () => {
  const event = at('2026-11-30T07:05:09Z');
  it.each<[string, Clock, InstantStyle, string]>([
    ['London, 24 h, day first', LONDON_24_DMY, 'date-time', '30/11/26 07:05:09'],
    ['New York, 12 h, month first', NEW_YORK_12_MDY, 'date-time', '11/30/26 2:05:09 am'],
    ['the specification default in UTC', spec('UTC'), 'date-time', '30/11/26 7:05:09 am'],
    ['without seconds, 24 h', LONDON_24_DMY, 'date-time-minutes', '30/11/26 07:05'],
    ['without seconds, 12 h', NEW_YORK_12_MDY, 'date-time-minutes', '11/30/26 2:05 am'],
    ['the day, month first', NEW_YORK_12_MDY, 'date', '11/30/26'],
    ['the day, day first', LONDON_24_DMY, 'date', '30/11/26'],
    ['the time, 24 h', LONDON_24_DMY, 'time', '07:05'],
    ['the time, 12 h', NEW_YORK_12_MDY, 'time', '2:05 am'],
    ['the time with seconds', LONDON_24_DMY, 'time-seconds', '07:05:09'],
    ['the time in UTC, 24 h', { ...LONDON_24_DMY, timeZone: 'UTC' }, 'time', '07:05'],
  ])('%s', (_name, clock, style, expected) => {
    expect(formatInstant(event, clock, style)).toBe(expected);
  });

  it.each<[string, number, Clock, string]>([
    ['midnight in 24 h is 00', at('2026-11-30T00:00:00Z'), { ...LONDON_24_DMY, timeZone: 'UTC' }, '30/11/26 00:00:00'],
    [
      'noon in 12 h is 12 pm',
      at('2026-11-30T12:00:00Z'),
      { ...NEW_YORK_12_MDY, timeZone: 'UTC' },
      '11/30/26 12:00:00 pm',
    ],
    [
      'a zone across the date line',
      at('2026-11-30T20:00:00Z'),
      { ...LONDON_24_DMY, timeZone: 'Pacific/Auckland' },
      '01/12/26 09:00:00',
    ],
  ])('%s', (_name, t, clock, expected) => {
    expect(formatInstant(t, clock)).toBe(expected);
  });

  it('names the zone when asked, in any style', () => {
    expect(formatInstant(event, LONDON_24_DMY, 'time', { nameZone: true })).toBe('07:05 Europe/London (UTC+00:00)');
    expect(formatInstant(event, NEW_YORK_12_MDY, 'date-time', { nameZone: true })).toBe(
      '11/30/26 2:05:09 am America/New_York (UTC-05:00)',
    );
  });

  it('shows an em dash for a time that is not a number, in every style', () => {
    expect(formatInstant(Number.POSITIVE_INFINITY, LONDON_24_DMY, 'time')).toBe('—');
  });

  it("formats axis labels in the reader's order and hour cycle", () => {
    const ticks = [at('2026-11-23T18:00:00Z'), at('2026-11-23T21:00:00Z'), at('2026-11-24T00:00:00Z')];
    expect(timeAxisLabels(ticks, { ...LONDON_24_DMY, timeZone: 'UTC' })).toEqual([
      '18:00\n23/11',
      '21:00',
      '00:00\n24/11',
    ]);
    expect(timeAxisLabels(ticks, { ...NEW_YORK_12_MDY, timeZone: 'UTC' })).toEqual([
      '6:00 pm\n11/23',
      '9:00 pm',
      '12:00 am\n11/24',
    ]);
  });
});

describe("localeClockFormat: the browser locale's format", () => {
  it.each<[string | undefined, string, string]>([
    ['en-US', '12', 'mdy'],
    ['en-GB', '24', 'dmy'],
    ['de-DE', '24', 'dmy'],
    ['en-AU', '12', 'dmy'],
    ['fr-CA', '24', 'dmy'],
    ['ja-JP', '24', 'dmy'],
    ['not a locale!', '12', 'dmy'],
  ])('%s -> %s h, %s', (locale, hourCycle, dateOrder) => {
    expect(localeClockFormat(locale)).toEqual({ hourCycle, dateOrder });
  });
});

describe('resolveClock: stored choices over the fallback', () => {
  const fallback: Clock = { timeZone: 'Europe/Berlin', hourCycle: '24', dateOrder: 'dmy' };
  it.each<[string, Parameters<typeof resolveClock>[0], Clock]>([
    ['nothing stored', null, fallback],
    ['all unset', { timeZone: null, hourCycle: null, dateOrder: null }, fallback],
    [
      'all chosen',
      { timeZone: 'America/New_York', hourCycle: '12', dateOrder: 'mdy' },
      { timeZone: 'America/New_York', hourCycle: '12', dateOrder: 'mdy' },
    ],
    ['only the zone', { timeZone: 'Asia/Tokyo' }, { ...fallback, timeZone: 'Asia/Tokyo' }],
    ['an unknown stored zone', { timeZone: 'Mars/Olympus', hourCycle: '12' }, { ...fallback, hourCycle: '12' }],
  ])('%s', (_name, stored, expected) => {
    expect(resolveClock(stored, fallback)).toEqual(expected);
  });
});

describe('formatWallClock: a time a device keeps on its own clock', () => {
  it.each<[number, Clock['hourCycle'], string]>([
    [360, '24', '06:00'],
    [360, '12', '6:00 am'],
    [0, '24', '00:00'],
    [0, '12', '12:00 am'],
    [12 * 60 + 30, '12', '12:30 pm'],
    [23 * 60 + 59, '12', '11:59 pm'],
    [25 * 60 + 10, '12', '25:10'],
  ])('%i min in %s h -> %s', (minuteOfDay, hourCycle, expected) => {
    expect(formatWallClock(minuteOfDay, { hourCycle })).toBe(expected);
  });

  it.each<[string | null, string]>([
    ['Europe/Paris', 'device time (Europe/Paris)'],
    [null, 'device time'],
  ])("labels it as the device's: %s", (zone, expected) => {
    expect(deviceTimeLabel(zone)).toBe(expected);
  });
});

describe("date-time fields: written and read in the page's zone, never the browser's", () => {
  it.each<[string, number, string, string]>([
    ['UTC', Date.UTC(2026, 10, 29, 18, 5, 42), 'UTC', '2026-11-29T18:05'],
    ['a zone ahead, past midnight', Date.UTC(2026, 10, 29, 18, 5), 'Australia/Sydney', '2026-11-30T05:05'],
    ['a zone behind, the day before', Date.UTC(2026, 10, 29, 3, 0), 'America/New_York', '2026-11-28T22:00'],
    ['summer time', Date.UTC(2026, 6, 1, 12, 0), 'Europe/London', '2026-07-01T13:00'],
  ])('writes %s', (_, t, zone, value) => {
    expect(dateTimeInputValue(t, zone)).toBe(value);
  });

  it.each<[string, string, string, number | null]>([
    ['UTC', '2026-11-29T18:05', 'UTC', Date.UTC(2026, 10, 29, 18, 5)],
    ['a zone ahead', '2026-11-30T05:05', 'Australia/Sydney', Date.UTC(2026, 10, 29, 18, 5)],
    ['with seconds', '2026-11-29T18:05:30', 'UTC', Date.UTC(2026, 10, 29, 18, 5, 30)],
    ['summer time', '2026-07-01T13:00', 'Europe/London', Date.UTC(2026, 6, 1, 12, 0)],
    // London springs forward at 01:00 UTC on 29 March 2026: 01:30 does not exist, read as 02:30 BST.
    ['a time the forward change skips', '2026-03-29T01:30', 'Europe/London', Date.UTC(2026, 2, 29, 1, 30)],
    // London falls back at 01:00 UTC on 25 October 2026: 01:30 happens twice, the later is taken.
    ['a time the backward change repeats', '2026-10-25T01:30', 'Europe/London', Date.UTC(2026, 9, 25, 1, 30)],
    ['an empty field', '', 'UTC', null],
    ['a half-typed field', '2026-11-29T', 'UTC', null],
    ['a day the month lacks', '2026-02-30T10:00', 'UTC', null],
    ['an hour past the day', '2026-11-29T24:00', 'UTC', null],
    ['a minute past the hour', '2026-11-29T10:60', 'UTC', null],
  ])('reads %s', (_, value, zone, t) => {
    expect(instantOfDateTimeInput(value, zone)).toBe(t);
  });

  it.each(['UTC', 'Europe/London', 'America/New_York', 'Asia/Kolkata', 'Pacific/Chatham'])(
    'reads back what it wrote, to the minute, in %s (the hour a backward change repeats aside)',
    (zone) => {
      for (let t = Date.UTC(2026, 0, 1); t < Date.UTC(2027, 0, 1); t += 31 * 3_600_000 + 7 * 60_000) {
        const value = dateTimeInputValue(t, zone);
        const read = instantOfDateTimeInput(value, zone)!;
        expect(dateTimeInputValue(read, zone)).toBe(value);
        const repeated = utcOffsetMinutes(zone, t) !== utcOffsetMinutes(zone, read);
        if (!repeated) expect(read).toBe(Math.floor(t / 60_000) * 60_000);
      }
    },
  );
});

describe("formatTastingDate: brewing's MMM DD, YYYY LT in the reader's clock (issue 36 item 2)", () => {
  const UTC_12: Clock = spec('UTC');
  it.each<[string, number, Clock, string]>([
    ['an evening, 12 h', at('2025-03-05T20:07:00Z'), UTC_12, 'Mar 05, 2025 8:07 PM'],
    ['midnight, 12 h', at('2025-12-31T00:00:00Z'), UTC_12, 'Dec 31, 2025 12:00 AM'],
    ['noon, 12 h', at('2026-01-01T12:30:00Z'), UTC_12, 'Jan 01, 2026 12:30 PM'],
    ['a morning, 12 h', at('2026-07-14T09:05:00Z'), UTC_12, 'Jul 14, 2026 9:05 AM'],
    [
      'month-first reader in New York: the month is named, the order does not apply',
      at('2025-03-05T20:07:00Z'),
      NEW_YORK_12_MDY,
      'Mar 05, 2025 3:07 PM',
    ],
    [
      "in the reader's zone, across midnight",
      at('2025-03-05T20:07:00Z'),
      { ...LONDON_24_DMY, timeZone: 'Pacific/Auckland' },
      'Mar 06, 2025 09:07',
    ],
  ])('%s', (_name, t, clock, expected) => {
    expect(formatTastingDate(t, clock)).toBe(expected);
  });

  it('names the zone when asked (a PDF read away from the console)', () => {
    expect(formatInstant(at('2025-03-05T20:07:00Z'), LONDON_24_DMY, 'tasting', { nameZone: true })).toBe(
      'Mar 05, 2025 20:07 Europe/London (UTC+00:00)',
    );
  });
});

describe('fileDay: the day a file name carries, in the page’s zone', () => {
  // 00:30 in London on 1 January 2027 is still 31 December in New York, and already 1 January in Tokyo.
  const t = Date.UTC(2027, 0, 1, 0, 30);
  it.each([
    ['Europe/London', '2027-01-01'],
    ['America/New_York', '2026-12-31'],
    ['Asia/Tokyo', '2027-01-01'],
    ['UTC', '2027-01-01'],
    ['Pacific/Kiritimati', '2027-01-01'],
    ['Pacific/Pago_Pago', '2026-12-31'],
  ])('in %s: %s', (zone, day) => expect(fileDay(t, zone)).toBe(day));

  it('turns at the zone’s midnight, not UTC’s', () => {
    expect(fileDay(Date.UTC(2026, 2, 7, 4, 59, 59), 'America/New_York')).toBe('2026-03-06');
    expect(fileDay(Date.UTC(2026, 2, 7, 5, 0, 0), 'America/New_York')).toBe('2026-03-07');
  });
});

describe("formatIsoInZone: ISO 8601 in the reader's zone with its offset (report CSVs)", () => {
  it.each<[string, number, string, string]>([
    ['UTC is Z', at('2026-11-30T07:05:09Z'), 'UTC', '2026-11-30T07:05:09.000Z'],
    ['ahead of UTC, the next day', at('2026-11-30T20:00:00Z'), 'Pacific/Auckland', '2026-12-01T09:00:00.000+13:00'],
    ['behind UTC', at('2026-11-30T07:05:09Z'), 'America/New_York', '2026-11-30T02:05:09.000-05:00'],
    ['in summer time', at('2026-07-01T12:00:00Z'), 'Europe/London', '2026-07-01T13:00:00.000+01:00'],
    ['a half-hour zone', at('2026-07-01T12:00:00Z'), 'Asia/Kolkata', '2026-07-01T17:30:00.000+05:30'],
  ])('%s', (_name, t, zone, expected) => {
    const text = formatIsoInZone(t, zone);
    expect(text).toBe(expected);
    // The same instant, read back by any ISO 8601 reader.
    expect(Date.parse(text)).toBe(t);
  });

  it('keeps milliseconds, and in UTC writes what toISOString writes', () => {
    const t = at('2026-11-30T07:05:09.042Z');
    expect(formatIsoInZone(t, 'UTC')).toBe(new Date(t).toISOString());
    expect(formatIsoInZone(t, 'Asia/Tokyo')).toBe('2026-11-30T16:05:09.042+09:00');
  });

  it('writes nothing for a time that is not a number', () => {
    expect(formatIsoInZone(Number.NaN, 'UTC')).toBe('');
  });
});
