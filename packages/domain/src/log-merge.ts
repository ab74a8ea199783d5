/**
 * Log samples (specification core §4): a new sample replaces the stored latest value only if it is not
 * older; duplicate timestamps are skipped; series stay sorted by time. Used by the server's ingest and
 * the browser's real-time store alike, so both keep the same view of a channel.
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

/**
 * Merges new samples into a series sorted by time. The result is sorted, holds each time once, and keeps
 * the sample already stored when a time repeats (the first seen wins, in `existing` and `incoming` alike).
 * `existing` must be sorted without repeats; `incoming` may be in any order. Neither is changed.
 */
export function mergeSortedSamples<S extends TimedSample>(existing: readonly S[], incoming: readonly S[]): S[] {
  if (incoming.length === 0) return existing.slice();
  // Stable sort keeps the first of equal times first, which is the one kept below.
  const fresh = incoming.slice().sort((a, b) => a.t - b.t);
  const last = existing[existing.length - 1];
  const merged: S[] = [];
  if (last === undefined || (fresh[0] as S).t > last.t) {
    // The live case: every new sample is later than the stored ones, so append.
    merged.push(...existing);
    for (const sample of fresh) pushUnlessRepeat(merged, sample);
    return merged;
  }
  let i = 0;
  let j = 0;
  while (i < existing.length || j < fresh.length) {
    const stored = existing[i];
    const next = fresh[j];
    if (stored !== undefined && (next === undefined || stored.t <= next.t)) {
      pushUnlessRepeat(merged, stored);
      i += 1;
    } else if (next !== undefined) {
      pushUnlessRepeat(merged, next);
      j += 1;
    }
  }
  return merged;
}

function pushUnlessRepeat<S extends TimedSample>(series: S[], sample: S): void {
  const last = series[series.length - 1];
  if (last === undefined || sample.t > last.t) series.push(sample);
}

/** Limits of a live series: at most `maxCount` samples, none older than `maxAgeMs` before `now`. */
export interface TrimOptions {
  maxCount?: number;
  maxAgeMs?: number;
  /** Unix milliseconds; needed with `maxAgeMs`. */
  now?: number;
}

/**
 * Trims a sorted live series by age and count (as Grafana's streaming frames do), so a chart left open
 * for days holds bounded memory. Returns the same array when nothing is trimmed, so a memoised view
 * does not re-render.
 */
export function trimSeries<S extends TimedSample>(samples: readonly S[], options: TrimOptions): readonly S[] {
  let start = 0;
  if (options.maxAgeMs !== undefined && options.now !== undefined) {
    const oldest = options.now - options.maxAgeMs;
    start = firstIndexAtOrAfter(samples, oldest);
  }
  if (options.maxCount !== undefined) {
    start = Math.max(start, samples.length - Math.max(0, Math.floor(options.maxCount)));
  }
  return start === 0 ? samples : samples.slice(start);
}

// Binary search: series can hold tens of thousands of points and are trimmed on every sample.
function firstIndexAtOrAfter(samples: readonly TimedSample[], t: number): number {
  let low = 0;
  let high = samples.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((samples[mid] as TimedSample).t < t) low = mid + 1;
    else high = mid;
  }
  return low;
}
