import { describe, expect, it } from 'vitest';
import { LAST_USE_INTERVAL_MS, isLastUseDue } from './last-use';

const NOW = Date.UTC(2026, 10, 29, 12);

describe('last use', () => {
  it.each([
    ['never used', null, true],
    ['used just now', NOW, false],
    ['used a moment under the interval ago', NOW - LAST_USE_INTERVAL_MS + 1, false],
    ['used the interval ago', NOW - LAST_USE_INTERVAL_MS, true],
    ['used an hour ago', NOW - 3_600_000, true],
  ])('last use written when %s: %s', (_name, lastUsedAt, due) => {
    expect(isLastUseDue(lastUsedAt, NOW)).toBe(due);
  });
});
