import type { AlignedData, Options } from 'uplot';
import type { AlignedLogs } from './chart-series';
import type { ChartLine } from './log-chart';
import { chartLineWidth } from './line-width';

/** What uPlot draws of a chart's logs: its data columns, series, min-max bands, and each line's series. */
export interface PlotSeries {
  data: AlignedData[number][];
  series: NonNullable<Options['series']>;
  bands: NonNullable<Options['bands']>;
  /** uPlot series indices of each line: its own and, for binned logs, its band's max and min. */
  indices: Map<string, number[]>;
}

/** `#rrggbb` at an alpha, for the min-max band. */
export function withAlpha(hex: string, alpha: number): string {
  const value = Number.parseInt(hex.slice(1), 16);
  return `rgba(${(value >> 16) & 255}, ${(value >> 8) & 255}, ${value & 255}, ${alpha})`;
}

/**
 * One uPlot series per line and, for binned logs, two more (max and min) with a band between them
 * so no spike is lost. A raw line spans its `null`s unless the logs mark their gaps; a binned one
 * never does. Hidden lines are built but not shown (the legend toggles them without a rebuild).
 */
export function plotSeries(
  logs: AlignedLogs,
  lines: readonly ChartLine[],
  hidden: ReadonlySet<string> | undefined,
  compact: boolean,
): PlotSeries {
  const data: AlignedData[number][] = [logs.x];
  const series: PlotSeries['series'] = [{}];
  const bands: PlotSeries['bands'] = [];
  const indices = new Map<string, number[]>();
  const width = chartLineWidth(lines.length, compact);
  logs.series.forEach((aligned, i) => {
    const line = lines[i];
    if (!line) return;
    const scale = line.scale ?? 'y';
    const show = !hidden?.has(line.code);
    data.push(aligned.line);
    const lineIndex = data.length - 1;
    series.push({
      label: line.label,
      scale,
      show,
      stroke: line.colour,
      width,
      spanGaps: !logs.gapsMarked && aligned.band === null,
      points: { show: false },
    });
    indices.set(line.code, [lineIndex]);
    if (aligned.band) {
      data.push(aligned.band.max, aligned.band.min);
      series.push(
        { label: `${line.label} max`, scale, show, stroke: 'transparent', points: { show: false } },
        { label: `${line.label} min`, scale, show, stroke: 'transparent', points: { show: false } },
      );
      bands.push({ series: [lineIndex + 1, lineIndex + 2], fill: withAlpha(line.colour, 0.16) });
      indices.set(line.code, [lineIndex, lineIndex + 1, lineIndex + 2]);
    }
  });
  return { data, series, bands, indices };
}

/** Nearest index of a sorted, non-empty array to `t`. */
export function nearestIndex(x: ArrayLike<number>, t: number): number {
  let low = 0;
  let high = x.length - 1;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (x[mid]! < t) low = mid + 1;
    else high = mid;
  }
  if (low > 0 && Math.abs(x[low - 1]! - t) <= Math.abs(x[low]! - t)) return low - 1;
  return low;
}

/** How many points either side of the nearest one a read-out or marker looks for a value. */
export const VALUE_SEARCH_POINTS = 64;

/** The value of a line at its point nearest `t` that has one (searching out a few points), or null. */
export function valueNear(x: ArrayLike<number>, line: ArrayLike<number | null | undefined>, t: number): number | null {
  if (x.length === 0) return null;
  const at = nearestIndex(x, t);
  for (let d = 0; d < VALUE_SEARCH_POINTS; d += 1) {
    const before = line[at - d];
    if (before != null) return before;
    const after = line[at + d];
    if (after != null) return after;
  }
  return null;
}
