/**
 * Log charts (specification application §9 "Chart logs", core §9 chart colours): which window to
 * ask for and how many bins.
 */

const DAY_MS = 24 * 3600 * 1000;

/** A chart opens on the last day. */
export const DEFAULT_CHART_RANGE_MS = DAY_MS;
/** The longest range a chart offers: a year. */
export const MAX_CHART_RANGE_MS = 365 * DAY_MS;
/** Ranges longer than this are asked for in {@link LONG_RANGE_BIN_COUNT} bins. */
export const LONG_RANGE_THRESHOLD_MS = 3 * DAY_MS;
/** Bin count of ranges over three days. */
export const LONG_RANGE_BIN_COUNT = 2000;
/** Bin count of the yearly overview strip. */
export const YEARLY_OVERVIEW_BIN_COUNT = 1000;
/**
 * Bin count of ranges up to three days: enough that a device logging every 30 s is drawn sample by
 * sample (the server answers raw samples when they fit), few enough to draw at once.
 */
export const SHORT_RANGE_BIN_COUNT = 10_000;

/** Bins to ask for a range: 2000 beyond three days, else enough for every sample of a typical device. */
export function chartBinCount(rangeMs: number): number {
  return rangeMs > LONG_RANGE_THRESHOLD_MS ? LONG_RANGE_BIN_COUNT : SHORT_RANGE_BIN_COUNT;
}

/** Ranges the chart offers, shortest first. */
export const CHART_RANGES = [
  { label: '1h', ms: 3600 * 1000 },
  { label: '6h', ms: 6 * 3600 * 1000 },
  { label: '1d', ms: DAY_MS },
  { label: '3d', ms: 3 * DAY_MS },
  { label: '1w', ms: 7 * DAY_MS },
  { label: '1m', ms: 30 * DAY_MS },
  { label: '3m', ms: 91 * DAY_MS },
  { label: '1y', ms: MAX_CHART_RANGE_MS },
] as const;

/**
 * The chart colour list (core §9 names 15 colours, not their values): distinct hues that read on
 * light and dark themes, in the order series take them.
 */
export const CHART_COLOURS = [
  '#2563eb',
  '#16a34a',
  '#ea580c',
  '#9333ea',
  '#dc2626',
  '#0891b2',
  '#ca8a04',
  '#db2777',
  '#4f46e5',
  '#65a30d',
  '#0d9488',
  '#c2410c',
  '#7c3aed',
  '#be123c',
  '#475569',
] as const;

/** The colour of the n-th series (the list repeats). */
export function chartColour(index: number): string {
  return CHART_COLOURS[((index % CHART_COLOURS.length) + CHART_COLOURS.length) % CHART_COLOURS.length]!;
}

/** A selected span clamped to [earliest, latest] and to the longest range; at least one minute. */
export function clampChartWindow(start: number, end: number, latest: number): { start: number; end: number } {
  const to = Math.min(Math.max(end, start + 60_000), latest);
  const from = Math.max(Math.min(start, to - 60_000), to - MAX_CHART_RANGE_MS);
  return { start: Math.floor(from), end: Math.ceil(to) };
}
