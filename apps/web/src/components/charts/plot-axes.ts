import uPlot, { type Axis, type Scale } from 'uplot';
import { timeAxisLabels, type Clock } from '@fieldlink/domain/date-format';
import type { ChartYAxis } from './log-chart';
import { chartNumberFormat, type PlotTheme } from './plot-theme';

/** Whether any line drawn against `scale` has a reading in the plot's data. */
export function hasReadings(plot: uPlot, scale: string): boolean {
  return plot.series.some((line, i) => i > 0 && line.scale === scale && plot.data[i]!.some((value) => value != null));
}

/**
 * The x scale (the window the chart shows, read at each redraw: a live feed moves it) and one y scale
 * per axis: its fixed range, or from the data with a little room, [0, 1] when it has none.
 */
export function plotScales(axes: readonly ChartYAxis[], window: () => { start: number; end: number }) {
  const scales: Record<string, Scale> = {
    x: { time: true, range: () => [window().start / 1000, window().end / 1000] },
  };
  for (const axis of axes) {
    scales[axis.scale] = axis.range
      ? { auto: false, range: [axis.range.min, axis.range.max] }
      : {
          auto: true,
          range: (_u, min, max) =>
            Number.isFinite(min) && Number.isFinite(max) ? uPlot.rangeNum(min, max, 0.1, true) : [0, 1],
        };
  }
  return scales;
}

/**
 * The time axis, then the y axes. Time ticks are two lines (the time, and the date where it changes)
 * in the page's clock; a y axis no line on it has a reading for shows no made-up range (uPlot's
 * 0-100) but blank ticks, and the painter says "No readings yet".
 */
export function plotAxes(axes: readonly ChartYAxis[], compact: boolean, theme: PlotTheme, clock: Clock): Axis[] {
  const { muted, grid, text, font } = theme;
  const time: Axis = {
    stroke: compact ? muted : text,
    font,
    grid: { show: !compact, stroke: grid, width: 1 },
    ticks: { stroke: grid, size: 4 },
    size: compact ? 20 : 42,
    // A "10:00 am" label is about 50 px wide: uPlot's default 50 px between ticks made them touch.
    space: 72,
    values: (_plot, splits) =>
      timeAxisLabels(
        splits.map((split) => split * 1000),
        clock,
      ),
  };
  const ys = axes.map((axis, i): Axis => ({
    values: (plot, splits) =>
      axis.range || hasReadings(plot, axis.scale)
        ? splits.map((v) => chartNumberFormat.format(v))
        : splits.map(() => ''),
    scale: axis.scale,
    side: axis.side === 'left' ? 3 : 1,
    show: !compact,
    label: axis.label || undefined,
    labelSize: axis.label ? 18 : 0,
    labelFont: `600 ${font}`,
    font,
    stroke: muted,
    size: (_self, values) => {
      const longest = Math.max(2, ...(values ?? []).map((v) => String(v).length));
      return Math.min(80, 14 + longest * 7);
    },
    grid: { show: i === 0, stroke: grid, width: 1 },
    ticks: { stroke: grid, size: 4 },
  }));
  return [time, ...ys];
}
