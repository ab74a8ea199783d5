/**
 * Log charts (specification application §9 "Chart logs", core §9 chart colours): which window to
 * ask for and how many bins.
 */
import { parseChannelCode } from './channels';

const DAY_MS = 24 * 3600 * 1000;

/** A chart opens on the last day. */
export const DEFAULT_CHART_RANGE_MS = DAY_MS;
/** The longest range a chart offers and the furthest back a chart widget looks: a year (§9, 31536000 s). */
export const MAX_CHART_LOOKBACK_MS = 31_536_000 * 1000;
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
  { label: '1y', ms: MAX_CHART_LOOKBACK_MS },
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

/** Shortest window a chart asks for. */
const MIN_WINDOW_MS = 60_000;

/** A span held between `earliest` and `latest`, at most `maxSpan` long and at least a minute. */
function boundedWindow(
  start: number,
  end: number,
  bounds: { earliest: number; latest: number; maxSpan: number },
): { start: number; end: number } {
  const { earliest, latest, maxSpan } = bounds;
  const to = Math.min(Math.max(end, start + MIN_WINDOW_MS, earliest + MIN_WINDOW_MS), latest);
  const from = Math.max(Math.min(start, to - MIN_WINDOW_MS), to - maxSpan, earliest);
  return { start: Math.floor(from), end: Math.ceil(to) };
}

/** A selected span clamped to end by `latest` and to the longest range; at least one minute. */
export function clampChartWindow(start: number, end: number, latest: number): { start: number; end: number } {
  return boundedWindow(start, end, { earliest: -Infinity, latest, maxSpan: MAX_CHART_LOOKBACK_MS });
}

/*
 * Chart and table widgets (application §3 Chart widget, §9 "Chart logs"): the time-range picker, the
 * yearly overview, y-axis layout and the table's log window.
 */

/** Longest span a user may select on a chart widget (§9, 15552000 s: 180 days). */
export const MAX_TIME_RANGE_SELECTION_MS = 15_552_000 * 1000;

/** Range presets of the chart widget's picker, shortest first; the longest is the selection maximum. */
export const WIDGET_CHART_RANGES = [
  { label: '1h', ms: 3600 * 1000 },
  { label: '6h', ms: 6 * 3600 * 1000 },
  { label: '12h', ms: 12 * 3600 * 1000 },
  { label: '1d', ms: DAY_MS },
  { label: '3d', ms: 3 * DAY_MS },
  { label: '1w', ms: 7 * DAY_MS },
  { label: '1m', ms: 30 * DAY_MS },
  { label: '3m', ms: 90 * DAY_MS },
  { label: '6m', ms: MAX_TIME_RANGE_SELECTION_MS },
] as const;

/** A log window to ask for: unix ms and the bins per channel. */
export interface ChartLogWindow {
  start: number;
  end: number;
  binCount: number;
}

/** The yearly overview (§9): the year before `now` in 1000 bins. */
export function yearlyOverviewWindow(now: number): ChartLogWindow {
  return { start: now - MAX_CHART_LOOKBACK_MS, end: now, binCount: YEARLY_OVERVIEW_BIN_COUNT };
}

/**
 * A chart widget's window for a span the user chose: at most 180 days, not before the one-year
 * lookback, not past `now`, at least a minute; 2000 bins beyond three days (see {@link chartBinCount}).
 */
export function widgetChartWindow(start: number, end: number, now: number): ChartLogWindow {
  const window = boundedWindow(start, end, {
    earliest: now - MAX_CHART_LOOKBACK_MS,
    latest: now,
    maxSpan: MAX_TIME_RANGE_SELECTION_MS,
  });
  return { ...window, binCount: chartBinCount(window.end - window.start) };
}

/** The `{deviceId}:{code}` key a y axis names a widget channel by. */
export function widgetChannelKey(deviceId: string, code: string): string {
  return `${deviceId}:${code}`;
}

/** A chart widget's y-axis setting (§3 Chart widget yAxis). */
export interface ChartYAxisSetting {
  channels: readonly string[];
  name: string;
  units: string;
  isDedicated: boolean;
  hasFixRange: boolean;
  min?: number | undefined;
  max?: number | undefined;
}

/** One drawn y axis: its scale, side, label, fixed range (null: from the data) and channel keys. */
export interface ChartAxisLayout {
  scale: string;
  side: 'left' | 'right';
  label: string;
  range: { min: number; max: number } | null;
  channels: string[];
}

/** The scale every channel without a dedicated axis shares. */
export const SHARED_CHART_SCALE = 'y';

/** `Temperature (°C)`, `°C`, `Temperature` or empty. */
export function chartAxisLabel(name: string, units: string): string {
  const [n, u] = [name.trim(), units.trim()];
  return n && u ? `${n} (${u})` : n || u;
}

/** A fixed range when it is asked for and usable (finite, min below max); else null (auto). */
export function fixedAxisRange(axis: ChartYAxisSetting): { min: number; max: number } | null {
  const { min, max } = axis;
  if (!axis.hasFixRange || min === undefined || max === undefined) return null;
  return Number.isFinite(min) && Number.isFinite(max) && min < max ? { min, max } : null;
}

/**
 * Lays out a chart widget's y axes. A dedicated axis gets its own scale; the channels it lists (the
 * first dedicated axis naming a channel wins) are drawn against it. Every other channel shares one
 * scale, labelled by the non-dedicated axes that name its channels and fixed by the first of them
 * with a usable fixed range. Axes alternate sides starting left (the shared one first), so a second
 * scale is read on the right. Dedicated axes without a charted channel are not drawn.
 */
export function chartAxisLayout(
  yAxis: readonly ChartYAxisSetting[],
  channelKeys: readonly string[],
): { axes: ChartAxisLayout[]; scaleOf: Record<string, string> } {
  const charted = new Set(channelKeys);
  const scaleOf: Record<string, string> = {};
  const dedicated: ChartAxisLayout[] = [];
  yAxis.forEach((axis, index) => {
    if (!axis.isDedicated) return;
    const channels = axis.channels.filter((key) => charted.has(key) && scaleOf[key] === undefined);
    if (channels.length === 0) return;
    const scale = `y${index + 1}`;
    for (const key of channels) scaleOf[key] = scale;
    dedicated.push({
      scale,
      side: 'left',
      label: chartAxisLabel(axis.name, axis.units),
      range: fixedAxisRange(axis),
      channels,
    });
  });
  const shared = channelKeys.filter((key) => scaleOf[key] === undefined);
  for (const key of shared) scaleOf[key] = SHARED_CHART_SCALE;
  const axes: ChartAxisLayout[] = [];
  if (shared.length > 0) {
    const plain = yAxis.filter((axis) => !axis.isDedicated);
    const naming = plain.filter((axis) => axis.channels.some((key) => shared.includes(key)));
    const labelled = naming.length > 0 ? naming : plain;
    const labels = [...new Set(labelled.map((axis) => chartAxisLabel(axis.name, axis.units)).filter(Boolean))];
    const range = labelled.map(fixedAxisRange).find((r) => r !== null) ?? null;
    axes.push({ scale: SHARED_CHART_SCALE, side: 'left', label: labels.join(' · '), range, channels: shared });
  }
  axes.push(...dedicated);
  return {
    axes: axes.map((axis, i) => ({ ...axis, side: i % 2 === 0 ? 'left' : 'right' })),
    scaleOf,
  };
}

/**
 * The y axes of a device's logs chart: one per unit, so a totalizer near 70,000 never flattens a
 * temperature near 20. Channels sharing a unit share an axis (labelled with the unit); a totalizer
 * without a unit gets an axis of its own; other channels without a unit share one unlabelled axis.
 * Axes come in the order their first channel does.
 */
export function unitAxisSettings(channels: readonly { code: string; units?: string | null }[]): ChartYAxisSetting[] {
  const groups = new Map<string, { units: string; channels: string[] }>();
  for (const channel of channels) {
    const units = channel.units?.trim() ?? '';
    const key = units ? `units:${units}` : parseChannelCode(channel.code)?.prefix === 't' ? `code:${channel.code}` : '';
    const group = groups.get(key) ?? { units, channels: [] };
    group.channels.push(channel.code);
    groups.set(key, group);
  }
  return [...groups.values()].map((group) => ({
    channels: group.channels,
    name: '',
    units: group.units,
    isDedicated: true,
    hasFixRange: false,
  }));
}

/** Table logs (§9) start this long before the device's last connection. */
export const TABLE_LOG_LEAD_MS = 12 * 3600 * 1000;
/** Table logs widen while they hold fewer points than this. */
export const TABLE_LOG_MIN_POINTS = 1000;
/** An empty table window steps back this far. */
export const TABLE_LOG_EMPTY_STEP_MS = 60 * DAY_MS;

/** The first window of a table widget: 12 hours before the last connection (else now) up to now. */
export function initialTableWindow(lastConnection: number | null, now: number): { start: number; end: number } {
  const anchor = lastConnection !== null && lastConnection <= now ? lastConnection : now;
  return { start: Math.max(anchor - TABLE_LOG_LEAD_MS, now - MAX_CHART_LOOKBACK_MS), end: now };
}

/**
 * The next window a table asks for after one answered `pointCount` points, or null when it has
 * enough. Under 1000 points it widens (the span back from the end doubles); with none it steps its
 * start back 60 days. It never reaches past the one-year lookback before `now`.
 */
export function nextTableWindow(
  window: { start: number; end: number },
  pointCount: number,
  now: number,
): { start: number; end: number } | null {
  const earliest = now - MAX_CHART_LOOKBACK_MS;
  if (pointCount >= TABLE_LOG_MIN_POINTS || window.start <= earliest) return null;
  const start =
    pointCount === 0 ? window.start - TABLE_LOG_EMPTY_STEP_MS : window.end - 2 * (window.end - window.start);
  return { start: Math.max(start, earliest), end: window.end };
}

/** How far values leave a fixed axis range: the highest above it and the lowest below it. */
export interface AxisExcursion {
  above: number | null;
  below: number | null;
}

/**
 * Where a channel's values leave its fixed axis (the part of the line the chart cannot draw), so the
 * chart can say so instead of cutting the line off silently. Null when every value is inside.
 */
export function axisExcursion(
  values: Iterable<number | null | undefined>,
  range: { min: number; max: number },
): AxisExcursion | null {
  let above: number | null = null;
  let below: number | null = null;
  for (const value of values) {
    if (value === null || value === undefined || !Number.isFinite(value)) continue;
    if (value > range.max && (above === null || value > above)) above = value;
    if (value < range.min && (below === null || value < below)) below = value;
  }
  return above === null && below === null ? null : { above, below };
}

/**
 * An axis label that names its unit (issue 36 item 4): the label as set when it names the unit of its
 * channels; else with their unit added ("Flow (L/min)"), or the unit alone when it has no label.
 */
export function axisLabelWithUnits(label: string, channelUnits: readonly string[]): string {
  const units = [...new Set(channelUnits.map((unit) => unit.trim()).filter(Boolean))];
  if (units.length === 0 || units.some((unit) => label.includes(unit))) return label;
  return chartAxisLabel(label, units.join(' · '));
}
