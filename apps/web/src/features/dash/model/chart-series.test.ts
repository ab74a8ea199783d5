import { describe, expect, it } from 'vitest';
import type { DeviceLogsAnswer } from '@fieldlink/api/device-logs';
import { alignLogs, isEmptyLogs } from './chart-series';

const answer = (channels: DeviceLogsAnswer['channels']): DeviceLogsAnswer => ({
  deviceId: 'd',
  start: 0,
  end: 10_000,
  binCount: 10,
  binWidth: 1000,
  channels,
});

describe('chart series', () => {
  it('puts raw and binned channels on one time axis with gaps as null', () => {
    const aligned = alignLogs(
      answer({
        c1: { kind: 'raw', t: [1000, 3000], value: [1, 3] },
        c2: { kind: 'bins', t: [2000, 3000], min: [0, 1], max: [4, 5], avg: [2, 3], last: [2, 4] },
      }),
      ['c1', 'c2'],
    );
    expect(aligned.x).toEqual([1, 2, 3]);
    expect(aligned.series[0]).toEqual({ code: 'c1', line: [1, null, 3], band: null });
    expect(aligned.series[1]).toEqual({
      code: 'c2',
      line: [null, 2, 3],
      band: { min: [null, 0, 1], max: [null, 4, 5] },
    });
  });

  it('answers an empty line for a channel missing from the answer', () => {
    const aligned = alignLogs(answer({ c1: { kind: 'raw', t: [1000], value: [1] } }), ['c1', 'c9']);
    expect(aligned.series[1]).toEqual({ code: 'c9', line: [null], band: null });
  });

  it.each([
    [{ c1: { kind: 'raw' as const, t: [], value: [] } }, true],
    [{ c1: { kind: 'raw' as const, t: [1], value: [1] } }, false],
  ])('tells an empty answer (%j)', (channels, empty) => expect(isEmptyLogs(answer(channels))).toBe(empty));
});
