import type uPlot from 'uplot';
import type { ChartMarker, ChartYAxis } from './log-chart';
import { markerLabelX } from './label-placement';
import { hasReadings } from './plot-axes';
import { valueNear } from './plot-series';
import type { PlotTheme } from './plot-theme';

/** A canvas hook uPlot calls after each draw. */
type Painter = (plot: uPlot) => void;

/**
 * "No readings yet" at the top of each axis no line on it has a reading for, while others have some
 * (a chart with none at all is its caller's to say).
 */
export function noReadingsPainter(axes: readonly ChartYAxis[], theme: PlotTheme, compact: boolean): Painter {
  return (plot) => {
    if (compact) return;
    const empty = axes.filter((axis) => !axis.range && !hasReadings(plot, axis.scale));
    if (empty.length === 0 || empty.length === axes.length) return;
    const ctx = plot.ctx;
    const { left, top, width } = plot.bbox;
    const ratio = devicePixelRatio || 1;
    ctx.save();
    ctx.fillStyle = theme.muted;
    ctx.font = `600 ${11 * ratio}px ${theme.family}`;
    ctx.textBaseline = 'top';
    for (const axis of empty) {
      const note = axis.label ? `${axis.label}: no readings yet` : 'No readings yet';
      ctx.textAlign = axis.side === 'left' ? 'left' : 'right';
      ctx.fillText(note, axis.side === 'left' ? left + 6 * ratio : left + width - 6 * ratio, top + 22 * ratio);
    }
    ctx.restore();
  };
}

/** Where the painter finds the markers and each line's series, both read at each draw. */
interface MarkerSource {
  markers: () => readonly ChartMarker[] | undefined;
  seriesOf: () => ReadonlyMap<string, number[]>;
}

/**
 * Vertical lines, shaded spans and point markers (a diamond on a line's point nearest the time), with
 * their labels, clipped to the plot. Drawn again on every live redraw.
 */
export function markerPainter(source: MarkerSource, theme: PlotTheme, compact: boolean): Painter {
  return (plot) => {
    const list = source.markers();
    if (!list || list.length === 0) return;
    const ctx = plot.ctx;
    const { left, top, width: w, height: h } = plot.bbox;
    const ratio = devicePixelRatio || 1;
    const label = (text: string, anchor: number, gap: number, y: number, colour: string) => {
      if (text && !compact) drawLabel(ctx, { text, anchor, gap, y, colour, ratio, left, right: left + w }, theme);
    };
    ctx.save();
    ctx.beginPath();
    ctx.rect(left, top, w, h);
    ctx.clip();
    ctx.font = `600 ${11 * ratio}px ${theme.family}`;
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
        label(marker.text, px, 4 * ratio, top + 4 * ratio, marker.colour);
        continue;
      }
      const seriesIndex = marker.code ? source.seriesOf().get(marker.code)?.[0] : undefined;
      if (seriesIndex === undefined || !plot.series[seriesIndex]?.show) continue;
      const line = plot.data[seriesIndex];
      if (!line) continue;
      const value = valueNear(plot.data[0], line, marker.t / 1000);
      if (value === null) continue;
      const py = plot.valToPos(value, plot.series[seriesIndex]!.scale ?? 'y', true);
      const r = 5 * ratio;
      ctx.fillStyle = marker.colour;
      ctx.strokeStyle = theme.surface;
      ctx.lineWidth = 1.5 * ratio;
      ctx.beginPath();
      ctx.moveTo(px, py - r);
      ctx.lineTo(px + r, py);
      ctx.lineTo(px, py + r);
      ctx.lineTo(px - r, py);
      ctx.closePath();
      ctx.fill();
      ctx.stroke();
      label(marker.text, px, r + 3 * ratio, Math.max(top + 2 * ratio, py - r - 14 * ratio), marker.colour);
    }
    ctx.restore();
  };
}

/** A marker's label: its text, `gap` from the marker at `anchor`, between the plot's `left` and `right`. */
interface MarkerLabel {
  text: string;
  anchor: number;
  gap: number;
  y: number;
  colour: string;
  ratio: number;
  left: number;
  right: number;
}

/**
 * A label on a pill of the surface colour, so it reads over lines and grid: after the marker, or
 * before it where it would run past the plot's right edge (`markerLabelX`).
 */
function drawLabel(ctx: CanvasRenderingContext2D, at: MarkerLabel, theme: PlotTheme) {
  const { ratio } = at;
  const text = at.text.length > 32 ? `${at.text.slice(0, 31)}…` : at.text;
  const padding = 3 * ratio;
  const width = ctx.measureText(text).width + padding * 2;
  const x = markerLabelX(at.anchor, at.gap, width, at.left, at.right);
  ctx.fillStyle = theme.surface;
  ctx.globalAlpha = 0.9;
  ctx.fillRect(x, at.y, width, 15 * ratio);
  ctx.globalAlpha = 1;
  ctx.fillStyle = at.colour;
  ctx.fillText(text, x + padding, at.y + 2 * ratio);
}
