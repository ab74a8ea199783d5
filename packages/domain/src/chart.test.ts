import { describe, expect, it } from 'vitest';
import { CHART_COLOURS, chartBinCount, chartColour, clampChartWindow } from './chart';

const DAY = 24 * 3600 * 1000;

describe('chart rules', () => {
  it.each([
    [DAY, 10_000],
    [3 * DAY, 10_000],
    [3 * DAY + 1, 2000],
    [365 * DAY, 2000],
  ])('a range of %d ms asks for %d bins', (range, bins) => expect(chartBinCount(range)).toBe(bins));

  it('has 15 distinct colours and repeats them', () => {
    expect(new Set(CHART_COLOURS).size).toBe(15);
    expect(chartColour(15)).toBe(chartColour(0));
    expect(chartColour(-1)).toBe(CHART_COLOURS[14]);
  });

  it.each([
    ['a normal span', 1000, 5 * DAY, 10 * DAY, { start: 1000, end: 5 * DAY }],
    ['a span ending in the future', 0, 20 * DAY, 10 * DAY, { start: 0, end: 10 * DAY }],
    ['a span over a year', 0, 400 * DAY, 400 * DAY, { start: 35 * DAY, end: 400 * DAY }],
    ['a span under a minute', 5000, 5001, DAY, { start: 5000, end: 65_000 }],
  ])('clamps %s', (_name, start, end, latest, expected) =>
    expect(clampChartWindow(start, end, latest)).toEqual(expected),
  );
});
