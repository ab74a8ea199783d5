import { describe, expect, it } from 'vitest';
import { formatAge, formatDateTime } from './format-time';

describe('formatDateTime', () => {
  it.each([
    [new Date(2025, 2, 7, 14, 5, 9), '07/03/25 2:05:09 pm'],
    [new Date(2024, 11, 31, 0, 0, 0), '31/12/24 12:00:00 am'],
    [new Date(2024, 0, 1, 12, 30, 1), '01/01/24 12:30:01 pm'],
  ])('%s -> %s', (date, expected) => {
    expect(formatDateTime(date.getTime())).toBe(expected);
  });
});

describe('formatAge', () => {
  const now = 1_700_000_000_000;
  it.each([
    [now + 3000, 'just now'],
    [now - 2000, 'just now'],
    [now - 42_000, '42 s ago'],
    [now - 5 * 60_000, '5 min ago'],
    [now - 3 * 3_600_000, '3 h ago'],
    [now - 3 * 86_400_000, '3 d ago'],
  ])('%s -> %s', (t, expected) => {
    expect(formatAge(t, now)).toBe(expected);
  });
});
