/**
 * Log samples (specification core §4): a new sample replaces the stored latest value only if it is not
 * older. Used by the server's ingest and the browser's real-time store alike, so both keep the same
 * view of a channel. (A chart's live series keeps its samples sorted, each time once, in its own
 * column arrays: `addLiveSample` in apps/web's chart-series.)
 */

/** A timed sample. `t` is unix milliseconds. */
export interface TimedSample {
  t: number;
}

/**
 * True when `incoming` should replace `current` as the latest value: there is none yet, or the new
 * sample is not older. An equal time replaces, so a device correcting a value is believed.
 */
export function shouldReplaceLatest(current: TimedSample | null | undefined, incoming: TimedSample): boolean {
  return current == null || incoming.t >= current.t;
}
