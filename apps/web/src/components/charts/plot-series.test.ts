import { describe, expect, it } from 'vitest';
import type { AlignedLogs } from './chart-series';
import type { ChartLine } from './log-chart';
import { nearestIndex, plotSeries, valueNear, VALUE_SEARCH_POINTS, withAlpha } from './plot-series';

const LINES: ChartLine[] = [
  { code: 'TEMP', label: 'Temperature', colour: '#2563eb', units: '°C' },
  { code: 'PRES', label: 'Pressure', colour: '#dc2626', scale: 'bar' },
];

const raw: AlignedLogs = {
  x: [0, 60, 120],
  series: [
    { code: 'TEMP', line: [1, null, 3], band: null },
    { code: 'PRES', line: [2, undefined, 2.5], band: null },
  ],
};
const binned: AlignedLogs = {
  x: [0, 600],
  series: [
    { code: 'TEMP', line: [1, 2], band: { min: [0.5, 1.5], max: [1.5, 2.5] } },
    { code: 'PRES', line: [2, 2.5], band: null },
  ],
  gapsMarked: true,
};

describe('plotSeries', () => {
  it.each([
    { name: 'raw logs', logs: raw, columns: 3, spanGaps: [true, true], indices: { TEMP: [1], PRES: [2] }, bands: 0 },
    {
      name: 'binned logs with marked gaps',
      logs: binned,
      columns: 5,
      spanGaps: [false, false],
      indices: { TEMP: [1, 2, 3], PRES: [4] },
      bands: 1,
    },
  ])('$name: one column per line, two more per band', ({ logs, columns, spanGaps, indices, bands }) => {
    const plot = plotSeries(logs, LINES, undefined, false);
    expect(plot.data).toHaveLength(columns);
    expect(plot.series).toHaveLength(columns);
    expect(plot.data[0]).toBe(logs.x);
    expect(Object.fromEntries(plot.indices)).toEqual(indices);
    expect(plot.bands).toHaveLength(bands);
    const lineSeries = [...plot.indices.values()].map(([i]) => plot.series[i!]!);
    expect(lineSeries.map((s) => s.spanGaps)).toEqual(spanGaps);
    expect(lineSeries.map((s) => s.scale)).toEqual(['y', 'bar']);
  });

  it('puts a band between a binned line’s max and min in the line’s colour, see-through', () => {
    const plot = plotSeries(binned, LINES, undefined, false);
    expect(plot.bands[0]).toEqual({ series: [2, 3], fill: withAlpha('#2563eb', 0.16) });
    expect(plot.series[2]).toMatchObject({ label: 'Temperature max', stroke: 'transparent' });
    expect(plot.series[3]).toMatchObject({ label: 'Temperature min', stroke: 'transparent' });
  });

  it('builds hidden lines, band too, without showing them', () => {
    const plot = plotSeries(binned, LINES, new Set(['TEMP']), false);
    expect([1, 2, 3].map((i) => plot.series[i]!.show)).toEqual([false, false, false]);
    expect(plot.series[4]!.show).toBe(true);
  });

  it('skips a series without a line to draw it', () => {
    const plot = plotSeries(raw, LINES.slice(0, 1), undefined, false);
    expect(plot.data).toHaveLength(2);
    expect([...plot.indices.keys()]).toEqual(['TEMP']);
  });
});

describe('withAlpha', () => {
  it.each([
    ['#2563eb', 0.16, 'rgba(37, 99, 235, 0.16)'],
    ['#000000', 1, 'rgba(0, 0, 0, 1)'],
    ['#ffffff', 0, 'rgba(255, 255, 255, 0)'],
  ])('%s at %s is %s', (hex, alpha, rgba) => {
    expect(withAlpha(hex, alpha)).toBe(rgba);
  });
});

describe('nearestIndex', () => {
  const x = [10, 20, 30, 40];
  it.each([
    [5, 0],
    [10, 0],
    [14, 0],
    [15, 0], // a tie goes to the earlier point
    [16, 1],
    [30, 2],
    [100, 3],
  ])('nearest to %s is index %s', (t, index) => {
    expect(nearestIndex(x, t)).toBe(index);
  });
});

describe('valueNear', () => {
  const x = Array.from({ length: 200 }, (_, i) => i);
  it.each([
    { name: 'the point itself', line: x.map((i) => i * 2), t: 50, value: 100 },
    {
      name: 'before a gap, searching back first',
      line: x.map((i) => (i >= 48 && i <= 52 ? null : i)),
      t: 50,
      value: 47,
    },
    { name: 'after, where nothing is before', line: x.map((i) => (i < 53 ? undefined : i)), t: 50, value: 53 },
    {
      name: 'nothing within the search',
      line: x.map((i) => (Math.abs(i - 100) < VALUE_SEARCH_POINTS ? null : i)),
      t: 100,
      value: null,
    },
  ])('$name', ({ line, t, value }) => {
    expect(valueNear(x, line, t)).toBe(value);
  });

  it('is null on an empty chart', () => {
    expect(valueNear([], [], 5)).toBeNull();
  });
});
