import type { ChannelLog, DeviceLogsAnswer } from '@fieldlink/api/device-logs';
import { gapIndices } from '@fieldlink/domain/chart-gaps';

/**
 * A value of an aligned series. uPlot reads `null` as a gap (the line breaks) and `undefined` as "no
 * point here" (the line joins across), so a channel is not broken where only another one has a point.
 */
export type AlignedValue = number | null | undefined;

/** One channel of a chart: a line, and for binned logs the band between each bin's min and max. */
export interface AlignedSeries {
  code: string;
  /** Raw values, or each bin's mean. */
  line: AlignedValue[];
  /** Present for binned logs. */
  band: { min: AlignedValue[]; max: AlignedValue[] } | null;
}

/** Logs of several channels on one time axis (uPlot's layout): x in unix seconds, gaps as null. */
export interface AlignedLogs {
  x: number[];
  series: AlignedSeries[];
  /**
   * Every series' gaps are marked `null` and its `undefined` values are only other series' points:
   * drawn without spanning nulls. Else (the raw series of {@link alignLogs}) nulls are spanned.
   */
  gapsMarked?: true;
}

/**
 * Puts the channels of one device's log answer on one shared, sorted time axis (the device log chart,
 * the tank chart): each channel keeps its own points, is joined (`undefined`) where only another
 * channel has a point, and breaks (`null`) at a gap of its own, by the gap rule of packages/domain
 * chart-gaps (see {@link alignChannelLogs}): an hour offline is a break in the line, not a straight
 * line across it.
 */
export function alignLogs(answer: DeviceLogsAnswer, codes: readonly string[]): AlignedLogs {
  return alignChannelLogs(codes.map((code) => ({ key: code, log: answer.channels[code], binWidth: answer.binWidth })));
}

/** True when the answer holds no point at all. */
export function isEmptyLogs(answer: DeviceLogsAnswer): boolean {
  return Object.values(answer.channels).every((log) => log.t.length === 0);
}

/** One channel's log for {@link alignChannelLogs}: `key` names the series, `binWidth` comes from its answer. */
export interface ChannelLogSource {
  key: string;
  log: ChannelLog | undefined;
  binWidth: number;
}

/**
 * Puts channels of several devices' answers on one time axis. Unlike {@link alignLogs} a channel has
 * `undefined` (joined) where only others have points, and breaks (`null`) only at a gap of its own
 * (the gap rule of packages/domain chart-gaps): a binned channel one bin after its last bin before
 * the gap, a raw one half-way through the pause. So a pause that is the series' usual spacing, or
 * bins left empty because samples are sparser than bins, never turn its line into spikes. A table
 * (`markGaps` false) lists the points alone.
 */
export function alignChannelLogs(sources: readonly ChannelLogSource[], markGaps = true): AlignedLogs {
  const times = new Set<number>();
  const gapsOf = sources.map((source) => {
    const log = source.log;
    if (!log) return [];
    for (const t of log.t) times.add(t);
    if (!markGaps) return [];
    const binned = log.kind === 'bins';
    const gaps = gapIndices(log.t, binned ? source.binWidth : 0).map((i) => {
      const previous = log.t[i - 1]!;
      return binned ? previous + source.binWidth : previous + Math.round((log.t[i]! - previous) / 2);
    });
    for (const t of gaps) times.add(t);
    return gaps;
  });
  const x = [...times].sort((a, b) => a - b);
  const index = new Map(x.map((t, i) => [t, i]));
  const series = sources.map((source, s): AlignedSeries => {
    const log = source.log;
    const line = new Array<AlignedValue>(x.length).fill(undefined);
    if (!log) return { code: source.key, line, band: null };
    const band =
      log.kind === 'bins'
        ? {
            min: new Array<AlignedValue>(x.length).fill(undefined),
            max: new Array<AlignedValue>(x.length).fill(undefined),
          }
        : null;
    for (const t of gapsOf[s]!) {
      const at = index.get(t)!;
      line[at] = null;
      if (band) band.min[at] = band.max[at] = null;
    }
    // A gap time may be another bin's start in a coarser log, or another point: a point there wins.
    if (log.kind === 'raw') {
      log.t.forEach((t, i) => (line[index.get(t)!] = log.value[i] ?? null));
    } else {
      log.t.forEach((t, i) => {
        const at = index.get(t)!;
        line[at] = log.avg[i] ?? null;
        band!.min[at] = log.min[i] ?? null;
        band!.max[at] = log.max[i] ?? null;
      });
    }
    return { code: source.key, line, band };
  });
  return { x: x.map((t) => t / 1000), series, ...(markGaps && { gapsMarked: true as const }) };
}

/** True when no series holds a value. */
export function isEmptyAligned(logs: AlignedLogs): boolean {
  return logs.series.every((series) => series.line.every((value) => value == null));
}

function firstIndexAtOrAfter(x: readonly number[], t: number): number {
  let low = 0;
  let high = x.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (x[mid]! < t) low = mid + 1;
    else high = mid;
  }
  return low;
}

/**
 * Adds a live sample (`t` in unix seconds) to series `index`, in place, keeping x sorted: a later
 * time is appended (the live case, O(1) per series); an earlier one is inserted; a time the series
 * already has a value at is skipped (the first sample of a time wins). Answers whether anything
 * changed.
 */
export function addLiveSample(logs: AlignedLogs, index: number, t: number, value: number): boolean {
  const target = logs.series[index];
  if (!target || !Number.isFinite(t) || !Number.isFinite(value)) return false;
  const { x } = logs;
  const last = x.length - 1;
  if (last < 0 || t > x[last]!) {
    x.push(t);
    for (const series of logs.series) {
      const own = series === target;
      series.line.push(own ? value : undefined);
      series.band?.min.push(own ? value : undefined);
      series.band?.max.push(own ? value : undefined);
    }
    return true;
  }
  const at = firstIndexAtOrAfter(x, t);
  if (x[at] === t) {
    if (target.line[at] != null) return false;
    target.line[at] = value;
    if (target.band) target.band.min[at] = target.band.max[at] = value;
    return true;
  }
  x.splice(at, 0, t);
  for (const series of logs.series) {
    const own = series === target;
    series.line.splice(at, 0, own ? value : undefined);
    series.band?.min.splice(at, 0, own ? value : undefined);
    series.band?.max.splice(at, 0, own ? value : undefined);
  }
  return true;
}

/**
 * Drops points before `t` (unix seconds), in place, once at least `slack` of them have gathered, so a
 * chart left open for days holds bounded memory without shifting its arrays on every sample.
 */
export function dropBefore(logs: AlignedLogs, t: number, slack = 256): boolean {
  const count = firstIndexAtOrAfter(logs.x, t);
  if (count < slack) return false;
  logs.x.splice(0, count);
  for (const series of logs.series) {
    series.line.splice(0, count);
    series.band?.min.splice(0, count);
    series.band?.max.splice(0, count);
  }
  return true;
}
