import { describe, expect, it } from 'vitest';
import type { DeviceLogsAnswer } from '@fieldlink/api/device-logs';
import { addLiveSample, alignChannelLogs, alignLogs, dropBefore, isEmptyAligned, isEmptyLogs } from './chart-series';

const answer = (channels: DeviceLogsAnswer['channels']): DeviceLogsAnswer => ({
  deviceId: 'd',
  start: 0,
  end: 10_000,
  binCount: 10,
  binWidth: 1000,
  channels,
});

describe('chart series', () => {
  it('puts raw and binned channels on one time axis, joined where only another channel has a point', () => {
    const aligned = alignLogs(
      answer({
        c1: { kind: 'raw', t: [1000, 3000], value: [1, 3] },
        c2: { kind: 'bins', t: [2000, 3000], min: [0, 1], max: [4, 5], avg: [2, 3], last: [2, 4] },
      }),
      ['c1', 'c2'],
    );
    expect(aligned.x).toEqual([1, 2, 3]);
    // `undefined` is "no point of this channel here" (the line joins across), never a gap (null).
    expect(aligned.series[0]).toEqual({ code: 'c1', line: [1, undefined, 3], band: null });
    expect(aligned.series[1]).toEqual({
      code: 'c2',
      line: [undefined, 2, 3],
      band: { min: [undefined, 0, 1], max: [undefined, 4, 5] },
    });
    expect(aligned.gapsMarked).toBe(true);
  });

  it('answers an empty line for a channel missing from the answer', () => {
    const aligned = alignLogs(answer({ c1: { kind: 'raw', t: [1000], value: [1] } }), ['c1', 'c9']);
    expect(aligned.series[1]).toEqual({ code: 'c9', line: [undefined], band: null });
    expect(isEmptyAligned(aligned)).toBe(false);
  });

  it('breaks a raw line where the device was silent much longer than its logging interval', () => {
    // Logged every 10 s, then an hour offline, then every 10 s again.
    const t = [0, 10, 20, 30, 40, 3640, 3650, 3660, 3670].map((s) => s * 1000);
    const aligned = alignLogs(answer({ c1: { kind: 'raw', t, value: t.map((_, i) => i) } }), ['c1']);
    // One null point half-way through the pause: the line stops at 40 s and starts again at 3640 s.
    expect(aligned.x).toEqual([0, 10, 20, 30, 40, 1840, 3640, 3650, 3660, 3670]);
    expect(aligned.series[0]!.line).toEqual([0, 1, 2, 3, 4, null, 5, 6, 7, 8]);
    expect(aligned.gapsMarked).toBe(true);
  });

  it('does not break a raw line at a pause of its usual spacing', () => {
    const t = [0, 10, 20, 30, 45, 55, 65].map((s) => s * 1000);
    const aligned = alignLogs(answer({ c1: { kind: 'raw', t, value: t.map((_, i) => i) } }), ['c1']);
    expect(aligned.series[0]!.line).not.toContain(null);
  });

  it('breaks a binned line one bin after its last bin before a gap, band and all', () => {
    const t = [0, 1000, 2000, 9000, 10_000];
    const aligned = alignLogs(
      answer({
        c1: {
          kind: 'bins',
          t,
          min: [0, 1, 2, 3, 4],
          max: [0, 1, 2, 3, 4],
          avg: [0, 1, 2, 3, 4],
          last: [0, 1, 2, 3, 4],
        },
      }),
      ['c1'],
    );
    expect(aligned.x).toEqual([0, 1, 2, 3, 9, 10]);
    expect(aligned.series[0]).toEqual({
      code: 'c1',
      line: [0, 1, 2, null, 3, 4],
      band: { min: [0, 1, 2, null, 3, 4], max: [0, 1, 2, null, 3, 4] },
    });
  });

  it.each([
    [{ c1: { kind: 'raw' as const, t: [], value: [] } }, true],
    [{ c1: { kind: 'raw' as const, t: [1], value: [1] } }, false],
  ])('tells an empty answer (%j)', (channels, empty) => expect(isEmptyLogs(answer(channels))).toBe(empty));
});

describe('widget series', () => {
  const raw = (t: number[], value: number[]) => ({ kind: 'raw' as const, t, value });

  it('aligns channels of several devices with joins, not gaps, where only another has a point', () => {
    const aligned = alignChannelLogs([
      { key: 'a:c1', log: raw([1000, 3000], [1, 3]), binWidth: 1 },
      { key: 'b:c1', log: raw([2000], [20]), binWidth: 1 },
      { key: 'b:c9', log: undefined, binWidth: 1 },
    ]);
    expect(aligned.x).toEqual([1, 2, 3]);
    expect(aligned.series.map((s) => s.code)).toEqual(['a:c1', 'b:c1', 'b:c9']);
    expect(aligned.series[0]!.line).toEqual([1, undefined, 3]);
    expect(aligned.series[1]!.line).toEqual([undefined, 20, undefined]);
    expect(aligned.series[2]!.line).toEqual([undefined, undefined, undefined]);
    expect(isEmptyAligned(aligned)).toBe(false);
  });

  it('breaks a binned line where bins are missing, one bin after the last', () => {
    const aligned = alignChannelLogs([
      {
        key: 'a:c1',
        log: { kind: 'bins', t: [0, 1000, 5000], min: [0, 1, 5], max: [2, 3, 7], avg: [1, 2, 6], last: [1, 2, 6] },
        binWidth: 1000,
      },
    ]);
    expect(aligned.x).toEqual([0, 1, 2, 5]);
    expect(aligned.series[0]).toEqual({
      code: 'a:c1',
      line: [1, 2, null, 6],
      band: { min: [0, 1, null, 5], max: [2, 3, null, 7] },
    });
  });

  it.each([
    ['appends a later sample', 4, 40, true, [1, 2, 3, 4], [1, undefined, 3, 40]],
    ['fills a time only another channel had', 2, 20, true, [1, 2, 3], [1, 20, 3]],
    ['skips a time it already has (the first sample wins)', 3, 99, false, [1, 2, 3], [1, undefined, 3]],
    ['inserts an earlier sample in order', 1.5, 15, true, [1, 1.5, 2, 3], [1, 15, undefined, 3]],
    ['ignores a value that is not a number', 5, Number.NaN, false, [1, 2, 3], [1, undefined, 3]],
  ])('%s', (_name, t, value, changed, x, line) => {
    const aligned = alignChannelLogs([
      { key: 'a:c1', log: raw([1000, 3000], [1, 3]), binWidth: 1 },
      { key: 'b:c1', log: raw([2000], [2]), binWidth: 1 },
    ]);
    expect(addLiveSample(aligned, 0, t, value)).toBe(changed);
    expect(aligned.x).toEqual(x);
    expect(aligned.series[0]!.line).toEqual(line);
    expect(aligned.series[1]!.line).toHaveLength(x.length);
  });

  it('appends to a binned line and its band together', () => {
    const aligned = alignChannelLogs([
      { key: 'a:c1', log: { kind: 'bins', t: [0], min: [0], max: [2], avg: [1], last: [1] }, binWidth: 1000 },
    ]);
    addLiveSample(aligned, 0, 9, 4);
    expect(aligned.series[0]).toEqual({ code: 'a:c1', line: [1, 4], band: { min: [0, 4], max: [2, 4] } });
  });

  it('drops old points only once enough have gathered', () => {
    const aligned = alignChannelLogs([{ key: 'a', log: raw([1000, 2000, 3000, 4000], [1, 2, 3, 4]), binWidth: 1 }]);
    expect(dropBefore(aligned, 3, 3)).toBe(false);
    expect(dropBefore(aligned, 3, 2)).toBe(true);
    expect(aligned.x).toEqual([3, 4]);
    expect(aligned.series[0]!.line).toEqual([3, 4]);
  });
});

describe('gaps in widget series (issue 36 item 4)', () => {
  const raw = (t: number[], value: number[]) => ({ kind: 'raw' as const, t, value });
  const every = (from: number, step: number, count: number) => Array.from({ length: count }, (_, i) => from + i * step);

  it('breaks a raw line half-way through an hour the device logged nothing', () => {
    const t = [...every(0, 5_000, 6), ...every(3_625_000, 5_000, 6)];
    const aligned = alignChannelLogs([
      {
        key: 'a:c1',
        log: raw(
          t,
          t.map((_, i) => i),
        ),
        binWidth: 1,
      },
    ]);
    expect(aligned.gapsMarked).toBe(true);
    const at = aligned.x.indexOf((25_000 + (3_625_000 - 25_000) / 2) / 1000);
    expect(aligned.series[0]!.line[at]).toBeNull();
    expect(aligned.series[0]!.line.filter((value) => value === null)).toHaveLength(1);
  });

  it('keeps 30-minute samples in 22-minute bins one line: empty bins between them are no gap', () => {
    const width = 22 * 60_000;
    const t = every(0, 30 * 60_000, 40).map((time) => Math.floor(time / width) * width);
    const values = t.map(() => 1);
    const aligned = alignChannelLogs([
      { key: 'a:c1', log: { kind: 'bins', t, min: values, max: values, avg: values, last: values }, binWidth: width },
    ]);
    expect(aligned.series[0]!.line).not.toContain(null);
    expect(aligned.x).toHaveLength(40);
  });

  it('lists a table’s points alone, without gap rows', () => {
    const t = [...every(0, 5_000, 6), ...every(3_625_000, 5_000, 6)];
    const aligned = alignChannelLogs(
      [
        {
          key: 'a:c1',
          log: raw(
            t,
            t.map(() => 1),
          ),
          binWidth: 1,
        },
      ],
      false,
    );
    expect(aligned.x).toHaveLength(12);
    expect(aligned.gapsMarked).toBeUndefined();
  });
});
