import { describe, expect, it } from 'vitest';
import { gapIndices } from './chart-gaps';

const MIN = 60_000;
const every = (from: number, step: number, count: number) => Array.from({ length: count }, (_, i) => from + i * step);

describe('gaps in a chart series', () => {
  it.each<[string, number[], number, number[]]>([
    ['no points', [], 0, []],
    ['one point', [5], 0, []],
    ['two points, nothing to compare with', [0, 10 * MIN], 0, []],
    ['evenly spaced samples', every(0, 5_000, 20), 0, []],
    ['a frame missed now and then', [0, 5_000, 10_000, 20_000, 25_000, 30_000], 0, []],
    ['an hour offline among 5 s samples', [...every(0, 5_000, 10), ...every(3_600_000, 5_000, 10)], 0, [10]],
    [
      'a month of 30-minute history, then a day of 5-minute samples: one line',
      [...every(0, 30 * MIN, 30), ...every(30 * 30 * MIN, 5 * MIN, 30)],
      0,
      [],
    ],
    [
      '30-minute samples in 22-minute bins: every other bin empty, still one line',
      every(0, 30 * MIN, 40).map((t) => Math.floor(t / (22 * MIN)) * 22 * MIN),
      22 * MIN,
      [],
    ],
    ['bins missing for four bin widths', [0, 1000, 5000], 1000, [2]],
    [
      'two gaps in a row are both gaps',
      [...every(0, 5_000, 10), 3_600_000, ...every(7_200_000, 5_000, 10)],
      0,
      [10, 11],
    ],
    // The boundaries mutation testing showed untested (issue 37 item 7).
    ['a pause of exactly three times the usual: no gap', [0, 10, 20, 30, 60, 70, 80, 90], 0, []],
    ['a pause just over three times the usual: a gap', [0, 10, 20, 30, 61, 71, 81, 91], 0, [4]],
    ['the usual of two neighbours is their mean: 46 over 15 is a gap', [0, 10, 56, 76], 0, [2]],
    ['the usual of two neighbours is their mean: 44 over 15 is none', [0, 10, 54, 74], 0, []],
    ['a pause before any other: the spacings after it decide', [0, 100, 110, 120, 130], 0, [1]],
    ['a pause with one spacing after it', [0, 100, 110], 0, [1]],
  ])('%s', (_, times, minGap, gaps) => {
    expect(gapIndices(times, minGap)).toEqual(gaps);
  });
});
