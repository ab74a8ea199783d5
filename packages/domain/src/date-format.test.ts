import { describe, expect, it } from 'vitest';
import {
  deviceTimeZone,
  formatDate,
  formatDateTime,
  formatDateTimeInZone,
  timeAxisLabels,
  timeZoneLabel,
} from './date-format';

const at = (iso: string) => Date.parse(iso);

describe('formatDateTime: DD/MM/YY h:mm:ss a in the zone given', () => {
  it.each([
    ['2025-03-07T14:05:09Z', 'UTC', '07/03/25 2:05:09 pm'],
    ['2025-03-07T00:00:00Z', 'UTC', '07/03/25 12:00:00 am'],
    ['2025-03-07T12:00:00Z', 'UTC', '07/03/25 12:00:00 pm'],
    ['2026-11-23T09:30:00Z', 'Australia/Sydney', '23/11/26 8:30:00 pm'],
    ['2026-11-23T09:30:00Z', 'America/Chicago', '23/11/26 3:30:00 am'],
    ['2026-01-01T02:00:00Z', 'America/New_York', '31/12/25 9:00:00 pm'],
  ])('%s in %s -> %s', (iso, zone, expected) => {
    expect(formatDateTime(at(iso), zone)).toBe(expected);
  });

  it('shows an em dash for a time that is not a number', () => {
    expect(formatDateTime(Number.NaN, 'UTC')).toBe('—');
  });
});

describe('days', () => {
  it.each([
    ['2026-11-23T09:30:00Z', 'UTC', '23/11/26'],
    ['2026-11-23T23:30:00Z', 'Europe/Berlin', '24/11/26'],
  ])('%s in %s', (iso, zone, date) => {
    expect(formatDate(at(iso), zone)).toBe(date);
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
    expect(timeAxisLabels(ticks, 'UTC')).toEqual(expected);
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

describe('formatDateTime without a zone: the platform (browser) zone', () => {
  it.each([
    [new Date(2025, 2, 7, 14, 5, 9), '07/03/25 2:05:09 pm'],
    [new Date(2024, 11, 31, 0, 0, 0), '31/12/24 12:00:00 am'],
    [new Date(2024, 0, 1, 12, 30, 1), '01/01/24 12:30:01 pm'],
  ])('%s -> %s', (date, expected) => {
    expect(formatDateTime(date.getTime())).toBe(expected);
  });
});

describe('formatDateTimeInZone: the instant with its zone named (e-mails)', () => {
  it.each([
    ['2026-11-23T09:30:00Z', 'Australia/Sydney', '23/11/26 8:30:00 pm Australia/Sydney (UTC+11:00)'],
    ['2025-03-07T14:05:09Z', 'UTC', '07/03/25 2:05:09 pm UTC'],
    ['2026-01-01T02:00:00Z', 'America/New_York', '31/12/25 9:00:00 pm America/New_York (UTC-05:00)'],
  ])('%s in %s -> %s', (iso, zone, expected) => {
    expect(formatDateTimeInZone(at(iso), zone)).toBe(expected);
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
