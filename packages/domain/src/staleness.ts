/**
 * Channel staleness (specification core §4): a channel is stale when its last value is older than
 * 10 times the larger of (60 times uploadInterval) and logInterval; with no interval, after 86400 s.
 */

/** Stale limit when a device reports neither interval. */
export const DEFAULT_STALE_AFTER_S = 86_400;
/** How many intervals may pass before a channel is stale. */
export const STALE_INTERVAL_FACTOR = 10;
/** uploadInterval counts in minutes against logInterval's seconds, hence the factor 60. */
export const UPLOAD_INTERVAL_FACTOR = 60;

/** The intervals a device reports, both in the device's units (see {@link UPLOAD_INTERVAL_FACTOR}). */
export interface DeviceIntervals {
  uploadInterval?: number | null;
  logInterval?: number | null;
}

/** Seconds after which a channel of a device with these intervals is stale. */
export function staleAfterSeconds({ uploadInterval, logInterval }: DeviceIntervals): number {
  const longest = Math.max(UPLOAD_INTERVAL_FACTOR * positiveOrZero(uploadInterval), positiveOrZero(logInterval));
  return longest > 0 ? STALE_INTERVAL_FACTOR * longest : DEFAULT_STALE_AFTER_S;
}

// Missing, zero, negative or non-numeric intervals all mean "not set".
function positiveOrZero(interval: number | null | undefined): number {
  return typeof interval === 'number' && Number.isFinite(interval) && interval > 0 ? interval : 0;
}

/** What the staleness of a channel depends on. Times are unix milliseconds. */
export interface ChannelStalenessInput extends DeviceIntervals {
  /** Time of the channel's last value; null or undefined when it has none. */
  lastT: number | null | undefined;
  now: number;
}

/**
 * True when the channel's last value is older than the stale limit. A channel with no value at all is
 * stale too: there is nothing current to show.
 */
export function isChannelStale({ lastT, uploadInterval, logInterval, now }: ChannelStalenessInput): boolean {
  if (lastT == null) return true;
  return now - lastT > staleAfterSeconds({ uploadInterval, logInterval }) * 1000;
}
