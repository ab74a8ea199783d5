import { useEffect, useRef } from 'react';
import uPlot, { type AlignedData, type Axis, type Options, type Scale } from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { formatDateTime, timeAxisLabels } from '@fieldlink/domain/date-format';
import type { AlignedLogs } from './chart-series';
import { usePageClock } from '../../lib/page-time-zone';
import { markerLabelX } from './label-placement';
import { chartLineWidth } from './line-width';
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

function cssVar(name: string, fallback: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
}

/** `#rrggbb` at an alpha, for the min-max band. */
function withAlpha(hex: string, alpha: number): string {
  const value = Number.parseInt(hex.slice(1), 16);
  return `rgba(${(value >> 16) & 255}, ${(value >> 8) & 255}, ${value & 255}, ${alpha})`;
}

const numberFormat = new Intl.NumberFormat(undefined, { maximumFractionDigits: 3 });

/** Nearest index of a sorted array to `t`. */
function nearestIndex(x: ArrayLike<number>, t: number): number {
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

/** The value of a line at its point nearest `t` that has one (searching out a few points). */
function valueNear(x: ArrayLike<number>, line: ArrayLike<number | null | undefined>, t: number): number | null {
  if (x.length === 0) return null;
  const at = nearestIndex(x, t);
  for (let d = 0; d < 64; d += 1) {
    const before = line[at - d];
    if (before != null) return before;
    const after = line[at + d];
    if (after != null) return after;
  }
  return null;
}

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
    const muted = cssVar('--fl-muted', '#64748b');
    const grid = cssVar('--fl-border', '#e2e8f0');
    const text = cssVar('--fl-text', '#0f172a');
    const surface = cssVar('--fl-surface', '#ffffff');
    const family = cssVar('--fl-font', 'system-ui, sans-serif');
    const font = `11px ${family}`;
    const data: AlignedData[number][] = [logs.x];
    const series: Options['series'] = [{}];
    const bands: NonNullable<Options['bands']> = [];
    const indices = new Map<string, number[]>();
    const lineWidth = chartLineWidth(lines.length, compact);
    logs.series.forEach((aligned, i) => {
      const line = lines[i];
      if (!line) return;
      const scale = line.scale ?? 'y';
      const show = !hiddenRef.current?.has(line.code);
      data.push(aligned.line);
      const lineIndex = data.length - 1;
      series.push({
        label: line.label,
        scale,
        show,
        stroke: line.colour,
        width: lineWidth,
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
    seriesOf.current = indices;

    const scales: Record<string, Scale> = {
      x: { time: true, range: () => [windowRef.current.start / 1000, windowRef.current.end / 1000] },
    };
    const yAxes: Axis[] = [];
    // An axis no line on it has a reading for shows no made-up range (uPlot's 0-100) but says so.
    const hasReadings = (plot: uPlot, scale: string) =>
      plot.series.some((line, i) => i > 0 && line.scale === scale && plot.data[i]!.some((value) => value != null));
    axes.forEach((axis, i) => {
      scales[axis.scale] = axis.range
        ? { auto: false, range: [axis.range.min, axis.range.max] }
        : {
            auto: true,
            range: (_u, min, max) =>
              Number.isFinite(min) && Number.isFinite(max) ? uPlot.rangeNum(min, max, 0.1, true) : [0, 1],
          };
      yAxes.push({
        values: (plot, splits) =>
          axis.range || hasReadings(plot, axis.scale)
            ? splits.map((v) => numberFormat.format(v))
            : splits.map(() => ''),
        scale: axis.scale,
        side: axis.side === 'left' ? 3 : 1,
        show: !compact,
        label: axis.label || undefined,
        labelSize: axis.label ? 18 : 0,
        labelFont: `600 ${font}`,
        font,
        stroke: muted,
        size: (self, values) => {
          const longest = Math.max(2, ...(values ?? []).map((v) => String(v).length));
          return Math.min(80, 14 + longest * 7);
        },
        grid: { show: i === 0, stroke: grid, width: 1 },
        ticks: { stroke: grid, size: 4 },
      });
    });

    /**
     * "No readings yet" at the top of each axis no line on it has a reading for, while others have
     * some (a chart with none at all is its caller's to say).
     */
    const drawNoReadings = (plot: uPlot) => {
      if (compact) return;
      const empty = axes.filter((axis) => !axis.range && !hasReadings(plot, axis.scale));
      if (empty.length === 0 || empty.length === axes.length) return;
      const ctx = plot.ctx;
      const { left, top, width: w } = plot.bbox;
      const ratio = devicePixelRatio || 1;
      ctx.save();
      ctx.fillStyle = muted;
      ctx.font = `600 ${11 * ratio}px ${family}`;
      ctx.textBaseline = 'top';
      for (const axis of empty) {
        const note = axis.label ? `${axis.label}: no readings yet` : 'No readings yet';
        ctx.textAlign = axis.side === 'left' ? 'left' : 'right';
        ctx.fillText(note, axis.side === 'left' ? left + 6 * ratio : left + w - 6 * ratio, top + 22 * ratio);
      }
      ctx.restore();
    };

    // Theme colours are read once per build: markers are drawn again on every live redraw.
    const drawMarkers = (plot: uPlot) => {
      const list = markersRef.current;
      if (!list || list.length === 0) return;
      const ctx = plot.ctx;
      const { left, top, width: w, height: h } = plot.bbox;
      const ratio = devicePixelRatio || 1;
      ctx.save();
      ctx.beginPath();
      ctx.rect(left, top, w, h);
      ctx.clip();
      ctx.font = `600 ${11 * ratio}px ${family}`;
      ctx.textBaseline = 'top';
      for (const marker of list) {
        const px = plot.valToPos(marker.t / 1000, 'x', true);
        if (marker.kind === 'span') {
          const to = plot.valToPos((marker.tEnd ?? marker.t) / 1000, 'x', true);
          const from = Math.max(left, Math.min(px, to - 2 * ratio));
          ctx.fillStyle = marker.colour;
          ctx.globalAlpha = 0.18;
          ctx.fillRect(from, top, Math.max(2 * ratio, to - from), h);
          ctx.globalAlpha = 1;
          continue;
        }
        if (px < left - 1 || px > left + w + 1) continue;
        if (marker.kind === 'line') {
          ctx.strokeStyle = marker.colour;
          ctx.lineWidth = (marker.width ?? 2) * ratio;
          ctx.beginPath();
          ctx.moveTo(px, top);
          ctx.lineTo(px, top + h);
          ctx.stroke();
          if (marker.text && !compact)
            drawLabel(ctx, marker.text, px, 4 * ratio, top + 4 * ratio, marker.colour, surface, ratio, left, left + w);
          continue;
        }
        const indexList = marker.code ? seriesOf.current.get(marker.code) : undefined;
        const seriesIndex = indexList?.[0];
        if (seriesIndex === undefined || !plot.series[seriesIndex]?.show) continue;
        const line = plot.data[seriesIndex];
        if (!line) continue;
        const value = valueNear(plot.data[0], line, marker.t / 1000);
        if (value === null) continue;
        const py = plot.valToPos(value, plot.series[seriesIndex]!.scale ?? 'y', true);
        const r = 5 * ratio;
        ctx.fillStyle = marker.colour;
        ctx.strokeStyle = surface;
        ctx.lineWidth = 1.5 * ratio;
        ctx.beginPath();
        ctx.moveTo(px, py - r);
        ctx.lineTo(px + r, py);
        ctx.lineTo(px, py + r);
        ctx.lineTo(px - r, py);
        ctx.closePath();
        ctx.fill();
        ctx.stroke();
        if (marker.text && !compact)
          drawLabel(
            ctx,
            marker.text,
            px,
            r + 3 * ratio,
            Math.max(top + 2 * ratio, py - r - 14 * ratio),
            marker.colour,
            surface,
            ratio,
            left,
            left + w,
          );
      }
      ctx.restore();
    };

    const readout = document.createElement('div');
    readout.className = 'log-chart__readout';
    readout.hidden = true;
    const showReadout = (plot: uPlot) => {
      const idx = plot.cursor.idx;
      if (compact || idx == null || plot.cursor.left == null || plot.cursor.left < 0) {
        readout.hidden = true;
        return;
      }
      const rows: string[] = [];
      const t = plot.data[0][idx];
      if (t === undefined) return;
      for (const [code, [seriesIndex]] of seriesOf.current) {
        const s = plot.series[seriesIndex!];
        const line = lines.find((l) => l.code === code);
        if (!s?.show || !line) continue;
        const value = valueNear(plot.data[0], plot.data[seriesIndex!]!, t);
        rows.push(
          `<span class="log-chart__readout-row"><i style="background:${line.colour}"></i>${escapeHtml(line.label)}<b>${
            value === null ? '–' : numberFormat.format(value) + (line.units ? ` ${escapeHtml(line.units)}` : '')
          }</b></span>`,
        );
      }
      readout.innerHTML = `<time>${formatDateTime(t * 1000, clock)}</time>${rows.join('')}`;
      readout.hidden = false;
      const overWidth = plot.over.clientWidth;
      const left = plot.cursor.left;
      readout.style.left = left > overWidth / 2 ? '' : `${left + 12}px`;
      readout.style.right = left > overWidth / 2 ? `${overWidth - left + 12}px` : '';
    };

    const size = () => ({
      width: Math.max(MIN_WIDTH, sizeRef.current.width ?? target.clientWidth),
      height: Math.max(compact ? 24 : MIN_HEIGHT, sizeRef.current.height ?? target.clientHeight),
    });
    const options: Options = {
      ...size(),
      series,
      bands,
      scales,
      legend: { show: false },
      // Ticks fall on whole hours and days of that zone, not the browser's.
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), clock.timeZone),
      padding: [compact ? 2 : 10, axes.some((a) => a.side === 'right') || compact ? 4 : 14, 0, compact ? 4 : 0],
      cursor: {
        drag: { x: true, y: false, setScale: false },
        points: { show: !compact, size: 6 },
        y: false,
      },
      axes: [
        {
          stroke: compact ? muted : text,
          font,
          grid: { show: !compact, stroke: grid, width: 1 },
          ticks: { stroke: grid, size: 4 },
          // Two lines: the time, and the date (in the reader's order) where it changes.
          size: compact ? 20 : 42,
          // A "10:00 am" label is about 50 px wide: uPlot's default 50 px between ticks made them touch.
          space: 72,
          values: (_plot, splits) =>
            timeAxisLabels(
              splits.map((split) => split * 1000),
              clock,
            ),
        },
        ...yAxes,
      ],
      hooks: {
        draw: [drawMarkers, drawNoReadings],
        setCursor: [showReadout],
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
      plot.over.append(readout);
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

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * A label on a pill of the surface colour, so it reads over lines and grid: `gap` after the marker at
 * `anchor`, or before it where it would run past the plot's right edge (`right`).
 */
function drawLabel(
  ctx: CanvasRenderingContext2D,
  text: string,
  anchor: number,
  gap: number,
  y: number,
  colour: string,
  surface: string,
  ratio: number,
  left: number,
  right: number,
) {
  const label = text.length > 32 ? `${text.slice(0, 31)}…` : text;
  const padding = 3 * ratio;
  const width = ctx.measureText(label).width + padding * 2;
  const x = markerLabelX(anchor, gap, width, left, right);
  const height = 15 * ratio;
  ctx.fillStyle = surface;
  ctx.globalAlpha = 0.9;
  ctx.fillRect(x, y, width, height);
  ctx.globalAlpha = 1;
  ctx.fillStyle = colour;
  ctx.fillText(label, x + padding, y + 2 * ratio);
}
