import { useEffect, useRef } from 'react';
import uPlot, { type AlignedData, type Options } from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { AlignedLogs } from '../model/chart-series';

export interface ChartLine {
  code: string;
  label: string;
  colour: string;
}

export interface LogChartProps {
  logs: AlignedLogs;
  lines: readonly ChartLine[];
  /** Window shown, unix ms. */
  start: number;
  end: number;
  height?: number;
  /** A span dragged across the chart, unix ms. */
  onSelect: (start: number, end: number) => void;
}

function cssVar(name: string, fallback: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
}

/** `#rrggbb` at an alpha, for the min-max band. */
function withAlpha(hex: string, alpha: number): string {
  const value = Number.parseInt(hex.slice(1), 16);
  return `rgba(${(value >> 16) & 255}, ${(value >> 8) & 255}, ${value & 255}, ${alpha})`;
}

/**
 * A log chart drawn by uPlot (canvas, fast with tens of thousands of points): one line per channel
 * and, for binned logs, a band between each bin's min and max so no spike is lost. Dragging across
 * the chart selects a window. Loaded only on pages that chart.
 */
export function LogChart({ logs, lines, start, end, height = 300, onSelect }: LogChartProps) {
  const element = useRef<HTMLDivElement>(null);
  const chart = useRef<uPlot | null>(null);
  const onSelectRef = useRef(onSelect);
  onSelectRef.current = onSelect;

  useEffect(() => {
    const target = element.current;
    if (!target) return;
    const axis = cssVar('--fl-muted', '#64748b');
    const grid = cssVar('--fl-border', '#e2e8f0');
    const data: (number | null)[][] = [logs.x];
    const series: Options['series'] = [{}];
    const bands: NonNullable<Options['bands']> = [];
    logs.series.forEach((aligned, i) => {
      const line = lines[i];
      if (!line) return;
      data.push(aligned.line);
      series.push({
        label: line.label,
        stroke: line.colour,
        width: 1.75,
        spanGaps: aligned.band === null,
        points: { show: false },
      });
      if (aligned.band) {
        const lineIndex = data.length - 1;
        data.push(aligned.band.max, aligned.band.min);
        series.push(
          { label: `${line.label} max`, stroke: 'transparent', points: { show: false } },
          { label: `${line.label} min`, stroke: 'transparent', points: { show: false } },
        );
        bands.push({ series: [lineIndex + 1, lineIndex + 2], fill: withAlpha(line.colour, 0.16) });
      }
    });
    const options: Options = {
      width: Math.max(200, target.clientWidth),
      height,
      series,
      bands,
      legend: { show: false },
      cursor: { drag: { x: true, y: false, setScale: false } },
      scales: { x: { time: true, min: start / 1000, max: end / 1000 } },
      axes: [
        { stroke: axis, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid } },
        { stroke: axis, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid }, size: 56 },
      ],
      hooks: {
        setSelect: [
          (plot) => {
            if (plot.select.width < 4) return;
            const from = plot.posToVal(plot.select.left, 'x') * 1000;
            const to = plot.posToVal(plot.select.left + plot.select.width, 'x') * 1000;
            plot.setSelect({ left: 0, top: 0, width: 0, height: 0 }, false);
            onSelectRef.current(from, to);
          },
        ],
      },
    };
    const plot = new uPlot(options, data as AlignedData, target);
    chart.current = plot;
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(200, target.clientWidth), height }));
    resize.observe(target);
    return () => {
      resize.disconnect();
      plot.destroy();
      chart.current = null;
    };
  }, [logs, lines, start, end, height]);

  return <div ref={element} className="log-chart__plot" data-testid="log-chart" />;
}
