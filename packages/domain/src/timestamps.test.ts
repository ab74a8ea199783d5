import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DAY_MS, FUTURE_TOLERANCE_S, HOUR_MS, isMillisTimestamp, isTooFarInFuture, toMillis } from './timestamps';

describe('toMillis', () => {
  it.each([
    [1_700_000_000, 1_700_000_000_000],
    [1_700_000_000_123, 1_700_000_000_123],
    [999_999_999_999, 999_999_999_999_000],
    [1_000_000_000_000, 1_000_000_000_000],
    [1_700_000_000.5, 1_700_000_000_500],
    [0, 0],
  ])('%d -> %d', (t, expected) => expect(toMillis(t)).toBe(expected));

  it('is idempotent for every modern clock reading', () =>
    fc.assert(
      fc.property(fc.integer({ min: 1_000_000_000, max: 99_999_999_999 }), (seconds) => {
        expect(toMillis(toMillis(seconds))).toBe(seconds * 1000);
      }),
    ));
});

describe('isMillisTimestamp', () => {
  it.each([
    [123_456_789_012, false],
    [1_234_567_890_123, true],
  ])('%d -> %s', (t, expected) => expect(isMillisTimestamp(t)).toBe(expected));
});

describe('isTooFarInFuture', () => {
  const now = 1_700_000_000_000;
  it.each([
    [now, false],
    [now - 86_400_000, false],
    [now + 900_000, false],
    [now + 900_001, true],
    [now + 3_600_000, true],
  ])('t=%d -> %s', (t, expected) => expect(isTooFarInFuture(t, now)).toBe(expected));

  it('uses a 900 s tolerance', () => expect(FUTURE_TOLERANCE_S).toBe(900));
});

describe('the log’s units of time', () => {
  it.each([
    ['an hour', HOUR_MS, 60 * 60 * 1000],
    ['a UTC day', DAY_MS, 24 * HOUR_MS],
    ['a UTC day, from the calendar', DAY_MS, Date.UTC(2026, 0, 2) - Date.UTC(2026, 0, 1)],
  ])('%s is %i ms', (_unit, constant, expected) => {
    expect(constant).toBe(expected);
  });
});
