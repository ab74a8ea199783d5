import { useEffect, useRef } from 'react';
import uPlot, { type AlignedData, type Options } from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { AlignedLogs } from './chart-series';
import { usePageClock } from '../../lib/page-time-zone';
import { plotAxes, plotScales } from './plot-axes';
import { markerPainter, noReadingsPainter } from './plot-painters';
import { chartReadout } from './plot-readout';
import { plotSeries } from './plot-series';
import { readPlotTheme } from './plot-theme';
import { cancelRedraw, scheduleRedraw } from './redraw-queue';
import './log-chart.css';

export interface ChartLine {
  code: string;
  label: string;
  colour: string;
  /** The y scale the line is drawn against (default `y`). */
  scale?: string;
  /** The unit shown after its values in the read-out. */
  units?: string;
}

/** A y axis: its scale, side, label and fixed range (null: from the data). */
export interface ChartYAxis {
  scale: string;
  side: 'left' | 'right';
  label: string;
  range: { min: number; max: number } | null;
}

/**
 * A vertical line across the plot at a time, a marker on a line's point nearest a time, or a shaded
 * span from `t` to `tEnd`.
 */
export interface ChartMarker {
  kind: 'line' | 'point' | 'span';
  /** Unix ms. */
  t: number;
  /** End of a span, unix ms. */
  tEnd?: number;
  text: string;
  colour: string;
  /** Line width in CSS pixels (vertical lines). */
  width?: number;
  /** The `ChartLine.code` a point marker sits on. */
  code?: string;
}

/** Tells a chart its logs' arrays grew in place (live samples) and the window it now shows. */
export interface ChartLiveFeed {
  subscribe(onAppend: (window: { start: number; end: number }) => void): () => void;
}

export interface LogChartProps {
  logs: AlignedLogs;
  lines: readonly ChartLine[];
  /** Window shown, unix ms. */
  start: number;
  end: number;
  /** Pixel size; a missing one follows the element's own size. */
  width?: number;
  height?: number;
  /** Y axes; by default one axis from the data on the left. */
  axes?: readonly ChartYAxis[];
  markers?: readonly ChartMarker[];
  /** Codes of lines not drawn. */
  hidden?: ReadonlySet<string>;
  live?: ChartLiveFeed;
  /** A small strip: no y axis, no hover read-out. */
  compact?: boolean;
  /** A span dragged across the chart, unix ms. */
  onSelect?: (start: number, end: number) => void;
}

const DEFAULT_AXES: readonly ChartYAxis[] = [{ scale: 'y', side: 'left', label: '', range: null }];
const MIN_WIDTH = 120;
const MIN_HEIGHT = 60;

/**
 * A log chart drawn by uPlot (canvas, fast with tens of thousands of points): one line per channel
 * and, for binned logs, a band between each bin's min and max so no spike is lost. Optional y axes
 * per scale, vertical plot lines and point markers, hidden lines, and a live feed that appends to
 * the drawn arrays and redraws without rebuilding the plot. Dragging across the chart selects a
 * window. Loaded only on pages that chart.
 */
export function LogChart({
  logs,
  lines,
  start,
  end,
  width,
  height,
  axes = DEFAULT_AXES,
  markers,
  hidden,
  live,
  compact = false,
  onSelect,
}: LogChartProps) {
  const element = useRef<HTMLDivElement>(null);
  const chart = useRef<uPlot | null>(null);
  // Axis ticks, their labels and the readout in the page's one zone (the device's, or the user's).
  const clock = usePageClock();
  const onSelectRef = useRef(onSelect);
  onSelectRef.current = onSelect;
  const markersRef = useRef(markers);
  const hiddenRef = useRef(hidden);
  hiddenRef.current = hidden;
  const windowRef = useRef({ start, end });
  const sizeRef = useRef({ width, height });
  sizeRef.current = { width, height };
  /** uPlot series indices of each line: its own and its band's. */
  const seriesOf = useRef(new Map<string, number[]>());

  useEffect(() => {
    const target = element.current;
    if (!target) return;
    windowRef.current = { start, end };
    const theme = readPlotTheme();
    const { data, series, bands, indices } = plotSeries(logs, lines, hiddenRef.current, compact);
    seriesOf.current = indices;
    const readout = chartReadout(lines, () => seriesOf.current, clock);
    const size = () => ({
      width: Math.max(MIN_WIDTH, sizeRef.current.width ?? target.clientWidth),
      height: Math.max(compact ? 24 : MIN_HEIGHT, sizeRef.current.height ?? target.clientHeight),
    });
    const options: Options = {
      ...size(),
      series,
      bands,
      scales: plotScales(axes, () => windowRef.current),
      legend: { show: false },
      // Ticks fall on whole hours and days of that zone, not the browser's.
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), clock.timeZone),
      padding: [compact ? 2 : 10, axes.some((a) => a.side === 'right') || compact ? 4 : 14, 0, compact ? 4 : 0],
      cursor: {
        drag: { x: true, y: false, setScale: false },
        points: { show: !compact, size: 6 },
        y: false,
      },
      axes: plotAxes(axes, compact, theme, clock),
      hooks: {
        draw: [
          markerPainter({ markers: () => markersRef.current, seriesOf: () => seriesOf.current }, theme, compact),
          noReadingsPainter(axes, theme, compact),
        ],
        setCursor: compact ? [] : [readout.show],
        setSelect: [
          (plot) => {
            if (plot.select.width < 4) return;
            const from = plot.posToVal(plot.select.left, 'x') * 1000;
            const to = plot.posToVal(plot.select.left + plot.select.width, 'x') * 1000;
            plot.setSelect({ left: 0, top: 0, width: 0, height: 0 }, false);
            onSelectRef.current?.(from, to);
          },
        ],
      },
    };
    // Built in a coming frame through the redraw queue, so a scene whose charts' logs arrive
    // together builds a few per frame instead of all in one long task.
    let stop: (() => void) | null = null;
    const build = () => {
      const plot = new uPlot(options, data as AlignedData, target);
      plot.over.append(readout.element);
      chart.current = plot;
      const resize = new ResizeObserver(() => {
        const next = size();
        if (next.width !== plot.width || next.height !== plot.height) plot.setSize(next);
      });
      resize.observe(target);
      const redraw = () => plot.batch(() => plot.setData(plot.data, true));
      const unsubscribe = live?.subscribe((window) => {
        windowRef.current = window;
        scheduleRedraw(redraw);
      });
      stop = () => {
        unsubscribe?.();
        cancelRedraw(redraw);
        resize.disconnect();
        plot.destroy();
        chart.current = null;
      };
    };
    scheduleRedraw(build);
    return () => {
      cancelRedraw(build);
      stop?.();
    };
  }, [logs, lines, start, end, axes, live, compact, clock]);

  useEffect(() => {
    const plot = chart.current;
    if (!plot || (width === undefined && height === undefined)) return;
    const target = element.current;
    const next = {
      width: Math.max(MIN_WIDTH, width ?? target?.clientWidth ?? MIN_WIDTH),
      height: Math.max(compact ? 24 : MIN_HEIGHT, height ?? target?.clientHeight ?? MIN_HEIGHT),
    };
    if (next.width !== plot.width || next.height !== plot.height) plot.setSize(next);
  }, [width, height, compact]);

  useEffect(() => {
    const plot = chart.current;
    if (!plot) return;
    plot.batch(() => {
      for (const [code, indexList] of seriesOf.current) {
        const show = !hidden?.has(code);
        for (const i of indexList) if (plot.series[i]?.show !== show) plot.setSeries(i, { show });
      }
    });
  }, [hidden, logs, lines]);

  useEffect(() => {
    markersRef.current = markers;
    chart.current?.redraw(false, false);
  }, [markers]);

  return <div ref={element} className="log-chart__plot" data-testid="log-chart" />;
}
