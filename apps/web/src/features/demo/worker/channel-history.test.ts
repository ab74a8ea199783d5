import { describe, expect, it } from 'vitest';
import { channelLog } from './channel-history';

// Samples at t = 0, 10, ..., 90 with values 0..9.
const times = Array.from({ length: 10 }, (_, index) => index * 10);
const values = Array.from({ length: 10 }, (_, index) => index);

describe('channelLog (GET /device-logs over the demo history)', () => {
  it.each([
    ['the whole window, room for every sample', 0, 100, 10, { kind: 'raw', t: times, value: values }],
    ['a window inside the history', 20, 50, 10, { kind: 'raw', t: [20, 30, 40], value: [2, 3, 4] }],
    ['end is exclusive', 0, 30, 10, { kind: 'raw', t: [0, 10, 20], value: [0, 1, 2] }],
    ['a window after the history', 200, 300, 10, { kind: 'raw', t: [], value: [] }],
  ])('%s', (_name, start, end, binCount, expected) => {
    expect(channelLog(times, values, start, end, binCount)).toEqual(expected);
  });

  it.each([
    [
      'two bins of five samples keep lowest, highest, mean and last',
      0,
      100,
      2,
      { kind: 'bins', t: [0, 50], min: [0, 5], max: [4, 9], avg: [2, 7], last: [4, 9] },
    ],
    [
      'bins without samples are left out',
      0,
      300,
      3,
      { kind: 'bins', t: [0], min: [0], max: [9], avg: [4.5], last: [9] },
    ],
  ])('%s', (_name, start, end, binCount, expected) => {
    expect(channelLog(times, values, start, end, binCount)).toEqual(expected);
  });
});
