import { describe, expect, it } from 'vitest';
import { logBinGrid } from './device-logs';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const T0 = Date.UTC(2025, 0, 1);
const YEAR = 365 * DAY;

describe('logBinGrid', () => {
  it.each([
    [
      'a day into 2000 bins: from the samples, from the start',
      T0 + 7 * MINUTE,
      DAY,
      2000,
      { level: 0, width: 43_200, origin: T0 + 7 * MINUTE },
    ],
    [
      'a week into 2000 bins: 5.04-minute bins from the samples',
      T0,
      7 * DAY,
      2000,
      { level: 0, width: 302_400, origin: T0 },
    ],
    [
      'a year into 2000 bins: 5-hour bins of the hourly roll-up',
      T0,
      YEAR,
      2000,
      { level: HOUR, width: 5 * HOUR, origin: Math.floor(T0 / (5 * HOUR)) * 5 * HOUR },
    ],
    [
      'ten years into 2000 bins: 2-day bins of the daily roll-up',
      T0,
      10 * YEAR,
      2000,
      { level: DAY, width: 2 * DAY, origin: T0 - DAY },
    ],
    [
      'a day and a fifth per bin: 29-hour bins, days would be too wide',
      T0,
      1200 * DAY,
      1000,
      { level: HOUR, width: 29 * HOUR, origin: Math.floor(T0 / (29 * HOUR)) * 29 * HOUR },
    ],
    [
      '1.2 hours per bin: from the samples, hours would be too wide',
      T0,
      1.2 * HOUR * 100,
      100,
      { level: 0, width: 1.2 * HOUR, origin: T0 },
    ],
  ])('%s', (_name, start, length, binCount, grid) => {
    expect(logBinGrid(start, start + length, binCount)).toEqual(grid);
  });

  it.each([
    [T0 + 13 * MINUTE, 30 * DAY, 100],
    [T0 + 5 * HOUR + 1, YEAR, 2000],
    [T0 + 3, 10 * YEAR, 2000],
    [T0, 2 * HOUR, 1],
  ])('never gives more than binCount bins over the window (%i, %i, %i)', (start, length, binCount) => {
    const end = start + length;
    const { width, origin } = logBinGrid(start, end, binCount);
    expect(origin).toBeLessThanOrEqual(start);
    expect(origin + width).toBeGreaterThan(start);
    expect(Math.ceil((end - origin) / width)).toBeLessThanOrEqual(binCount);
  });
});
