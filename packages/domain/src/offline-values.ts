/**
 * The last values a signed-in user saw, kept in their browser so the console can start without the
 * server (issue 39 item 1): what is kept, how much, how old a kept value may be, when it reads as
 * stale, how often the browser writes them down and how often an offline console tries again.
 */
import { compareChannelCodes } from './channel-presentation';
import { DAY_MS, isTooFarInFuture } from './timestamps';

/** One kept value: a device's channel as the user saw it, ready to show without the server. */
export interface OfflineValue {
  thingName: string;
  deviceName: string;
  code: string;
  /** The channel as the console titles it (its own name, else `Ch_1`, else its code). */
  channelName: string;
  units: string | null;
  value: number;
  /** When the device measured it, unix ms. */
  t: number;
}

/** At most this many values are kept per user: a screenful or two, a few tens of kilobytes. */
export const OFFLINE_VALUES_MAX = 200;
/** A value older than this is not kept: a week-old reading helps nobody decide anything. */
export const OFFLINE_VALUE_MAX_AGE_MS = 7 * DAY_MS;
/** A kept value older than this is marked stale on the offline screen. */
export const OFFLINE_VALUE_STALE_AFTER_MS = 15 * 60_000;
/** The browser writes the values down at most this often: the live path never waits for storage. */
export const OFFLINE_SAVE_INTERVAL_MS = 5_000;
/** An offline console tries the server again this often (and at once when the browser is back online). */
export const OFFLINE_RETRY_INTERVAL_MS = 15_000;

const keyOf = (value: Pick<OfflineValue, 'thingName' | 'code'>) => `${value.thingName}\u0000${value.code}`;

function isKeepable(value: OfflineValue, now: number): boolean {
  return (
    Number.isFinite(value.value) &&
    Number.isFinite(value.t) &&
    now - value.t <= OFFLINE_VALUE_MAX_AGE_MS &&
    !isTooFarInFuture(value.t, now)
  );
}

/**
 * The values to keep: the newest per device channel, none older than a week or stamped too far in the
 * future, at most {@link OFFLINE_VALUES_MAX} (the most recent win), ordered as the screen lists them:
 * by device name, then by channel as channels are laid out.
 */
export function keptOfflineValues(values: readonly OfflineValue[], now: number): OfflineValue[] {
  const newest = new Map<string, OfflineValue>();
  for (const value of values) {
    if (!isKeepable(value, now)) continue;
    const key = keyOf(value);
    const kept = newest.get(key);
    if (!kept || value.t >= kept.t) newest.set(key, value);
  }
  return [...newest.values()]
    .sort((a, b) => b.t - a.t)
    .slice(0, OFFLINE_VALUES_MAX)
    .sort(
      (a, b) =>
        a.deviceName.localeCompare(b.deviceName) ||
        a.thingName.localeCompare(b.thingName) ||
        compareChannelCodes(a.code, b.code),
    );
}

/** True when a kept value is older than {@link OFFLINE_VALUE_STALE_AFTER_MS}. */
export function isOfflineValueStale(t: number, now: number): boolean {
  return now - t > OFFLINE_VALUE_STALE_AFTER_MS;
}
