import { describe, expect, it } from 'vitest';
import { DEFAULT_STALE_AFTER_S, isChannelStale, staleAfterSeconds } from './staleness';

describe('staleAfterSeconds', () => {
  it.each([
    ['upload wins', 5, 60, 3000],
    ['log wins', 1, 600, 6000],
    ['equal', 1, 60, 600],
    ['only upload', 2, null, 1200],
    ['only log', null, 30, 300],
    ['no interval', null, null, 86_400],
    ['zero intervals', 0, 0, 86_400],
    ['undefined intervals', undefined, undefined, 86_400],
    ['negative intervals', -1, -5, 86_400],
    ['infinite intervals (a corrupt config)', Infinity, Infinity, 86_400],
    ['intervals that are not numbers', Number.NaN, Number.NaN, 86_400],
    ['an infinite upload interval beside a log interval', Infinity, 30, 300],
  ])('%s (upload %j, log %j) -> %d s', (_label, uploadInterval, logInterval, expected) =>
    expect(staleAfterSeconds({ uploadInterval, logInterval })).toBe(expected),
  );

  it('defaults to a day', () => expect(DEFAULT_STALE_AFTER_S).toBe(86_400));
});

describe('isChannelStale', () => {
  const now = 1_700_000_000_000;
  it.each([
    ['fresh', now - 1000, 1, 60, false],
    ['exactly at the limit', now - 600_000, 1, 60, false],
    ['just past the limit', now - 600_001, 1, 60, true],
    ['no interval, under a day', now - 86_399_000, null, null, false],
    ['no interval, over a day', now - 86_401_000, null, null, true],
    ['never reported', null, 1, 60, true],
    ['value from the future', now + 5000, 1, 60, false],
  ])('%s -> %s', (_label, lastT, uploadInterval, logInterval, expected) =>
    expect(isChannelStale({ lastT, uploadInterval, logInterval, now })).toBe(expected),
  );
});
