import { describe, expect, it } from 'vitest';
import { formatAge } from './format-time';

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
