import { describe, expect, it } from 'vitest';
import { isKnownTimeZone, posixTimeZoneRule, utcOffsetMinutes } from './time-zone';

const MID_2026 = Date.UTC(2026, 5, 15);

describe('time zones for the time/date command', () => {
  it.each([
    ['America/New_York', 'EST5EDT,M3.2.0,M11.1.0'],
    ['America/Chicago', 'CST6CDT,M3.2.0,M11.1.0'],
    ['America/Los_Angeles', 'PST8PDT,M3.2.0,M11.1.0'],
    ['Australia/Sydney', '<+10>-10<+11>,M10.1.0,M4.1.0/3'],
    ['Europe/London', 'UTC0<+01>,M3.5.0/1,M10.5.0'],
    ['Europe/Berlin', '<+01>-1<+02>,M3.5.0,M10.5.0/3'],
    ['Asia/Kolkata', '<+0530>-5:30'],
    ['America/Phoenix', 'MST7'],
    ['UTC', 'UTC0'],
    ['Pacific/Auckland', '<+12>-12<+13>,M9.5.0,M4.1.0/3'],
  ])('%s -> %s', (zone, rule) => expect(posixTimeZoneRule(zone, MID_2026)).toBe(rule));

  it('refuses an unknown zone', () => {
    expect(isKnownTimeZone('Mars/Olympus')).toBe(false);
    expect(() => posixTimeZoneRule('Mars/Olympus')).toThrow(RangeError);
  });

  it.each([
    ['Australia/Sydney', Date.UTC(2026, 0, 1), 660],
    ['Australia/Sydney', MID_2026, 600],
    ['America/New_York', MID_2026, -240],
    ['Asia/Kolkata', MID_2026, 330],
  ])('offset of %s at %d is %d minutes', (zone, at, minutes) => expect(utcOffsetMinutes(zone, at)).toBe(minutes));
});
