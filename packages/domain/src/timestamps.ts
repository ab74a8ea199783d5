/**
 * Device timestamps (specification core §4, §9): devices send unix seconds or milliseconds, told apart
 * by length; messages too far in the future are dropped.
 */

/** An hour and a UTC day, in ms: the log's roll-up levels, its blocks and its retention count in them. */
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

/** Messages stamped more than this many seconds after the receiver's clock are dropped. */
export const FUTURE_TOLERANCE_S = 900;

/**
 * The latest instant a JavaScript Date holds (year 275760), unix ms. A device timestamp is a time from
 * 0 (1970) to this, in seconds or milliseconds: beyond it is no clock's reading, and PostgreSQL's
 * bigint columns refuse the larger ones outright.
 */
export const LATEST_TIMESTAMP_MS = 8.64e15;

// 13 digits or more: 10^12 ms is September 2001, while 10^12 s is tens of thousands of years away,
// so the two readings never collide for any real clock.
const MILLIS_THRESHOLD = 1e12;

/** True when the timestamp has more than 12 digits (before any decimal point), so is in milliseconds. */
export function isMillisTimestamp(t: number): boolean {
  return Math.abs(t) >= MILLIS_THRESHOLD;
}

/**
 * A device timestamp in unix milliseconds: more than 12 digits means it already is milliseconds,
 * otherwise it is seconds. Fractions of a millisecond are rounded away.
 */
export function toMillis(t: number): number {
  return Math.round(isMillisTimestamp(t) ? t : t * 1000);
}

/** True when the time lies more than {@link FUTURE_TOLERANCE_S} after now (both unix milliseconds). */
export function isTooFarInFuture(tMillis: number, nowMillis: number): boolean {
  return tMillis - nowMillis > FUTURE_TOLERANCE_S * 1000;
}
