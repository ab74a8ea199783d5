import { describe, expect, it } from 'vitest';
import type { DeviceLogsAnswer } from '@fieldlink/api/device-logs';
import type { DeviceLogsRequest } from '../../../../lib/api/get-device-logs';
import type { ResolvedChannel } from '../widget-definition';
import { addLiveSample } from '../../../../components/charts/chart-series';
import {
  alignTableLogs,
  answerPointCount,
  asRecordedLog,
  fetchTableLogs,
  rowTime,
  rowValue,
  tableCsv,
} from './table-model';

const HOUR = 3600 * 1000;
const DAY = 24 * HOUR;
const NOW = 400 * DAY;

const channel = (deviceId: string, code: string, name: string): ResolvedChannel => ({
  deviceId,
  thingName: `thing-${deviceId}`,
  deviceName: deviceId,
  code,
  name,
  units: '',
  legendVisibility: true,
});

const answerWith = (request: DeviceLogsRequest, t: number[]): DeviceLogsAnswer => ({
  deviceId: request.deviceId,
  start: request.start,
  end: request.end,
  binCount: request.binCount,
  binWidth: 1,
  channels: { c1: { kind: 'raw', t, value: t.map(() => 1) } },
});

describe('table widget model', () => {
  it('counts the distinct times of an answer', () =>
    expect(
      answerPointCount({
        deviceId: 'a',
        start: 0,
        end: 1,
        binCount: 1,
        binWidth: 1,
        channels: { c1: { kind: 'raw', t: [1, 2], value: [0, 0] }, c2: { kind: 'raw', t: [2, 3], value: [0, 0] } },
      }),
    ).toBe(3));

  it('shows a bin by its last value', () =>
    expect(asRecordedLog({ kind: 'bins', t: [0], min: [1], max: [9], avg: [5], last: [7] })).toEqual({
      kind: 'raw',
      t: [0],
      value: [7],
    }));

  it.each([
    ['enough points at once', [1200], [[NOW - DAY - 12 * HOUR, NOW]]],
    [
      'few points: widens',
      [10, 2000],
      [
        [NOW - DAY - 12 * HOUR, NOW],
        [NOW - 3 * DAY, NOW],
      ],
    ],
    [
      'empty: steps back 60 days, then widens',
      [0, 5, 1000],
      [
        [NOW - DAY - 12 * HOUR, NOW],
        [NOW - 61 * DAY - 12 * HOUR, NOW],
        [NOW - 123 * DAY, NOW],
      ],
    ],
  ])('fetches table logs: %s', async (_name, counts, windows) => {
    const asked: [number, number][] = [];
    const answer = await fetchTableLogs('a', ['c1'], NOW - DAY, NOW, async (request) => {
      asked.push([request.start, request.end]);
      expect(request.binCount).toBe(10_000);
      const n = counts[asked.length - 1] ?? 0;
      return answerWith(
        request,
        Array.from({ length: n }, (_, i) => request.start + i),
      );
    });
    expect(asked).toEqual(windows);
    expect(answer.start).toBe(windows.at(-1)![0]);
  });

  it('stops at the one-year lookback when a device never logged', async () => {
    let calls = 0;
    await fetchTableLogs('a', ['c1'], null, NOW, async (request) => {
      calls += 1;
      expect(request.start).toBeGreaterThanOrEqual(NOW - 365 * DAY);
      return answerWith(request, []);
    });
    expect(calls).toBe(8);
  });

  it('lists rows newest first, live rows on top, and exports them as shown', () => {
    const channels = [channel('a', 'c1', 'Temperature'), channel('b', 'c1', '+Flow')];
    const logs = alignTableLogs(
      channels,
      new Map([
        ['a', answerWith({ deviceId: 'a', channels: ['c1'], start: 0, end: 1, binCount: 1 }, [1000, 2000])],
        [
          'b',
          {
            deviceId: 'b',
            start: 0,
            end: 1,
            binCount: 1,
            binWidth: 1000,
            channels: { c1: { kind: 'bins', t: [2000], min: [1], max: [9], avg: [5], last: [7] } },
          },
        ],
      ]),
    );
    addLiveSample(logs, 1, 3, 8.5);
    expect([0, 1, 2].map((row) => [rowTime(logs, row), rowValue(logs, row, 0), rowValue(logs, row, 1)])).toEqual([
      [3000, undefined, 8.5],
      [2000, 1, 7],
      [1000, 1, undefined],
    ]);
    expect(tableCsv(logs, ['Temperature', '+Flow'])).toBe(
      [
        "Time,Temperature,'+Flow",
        '1970-01-01T00:00:03.000Z,,8.5',
        '1970-01-01T00:00:02.000Z,1,7',
        '1970-01-01T00:00:01.000Z,1,',
        '',
      ].join('\r\n'),
    );
  });
});
