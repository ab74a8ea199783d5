import { describe, expect, it } from 'vitest';
import type { DeviceLogsAnswer } from '@fieldlink/api/device-logs';
import { chartAxisLayout } from '@fieldlink/domain/chart';
import type { ResolvedChannel } from '../widget-definition';
import {
  alignWidgetLogs,
  channelsByDevice,
  chartCsv,
  chartLines,
  chartMarkers,
  channelLabel,
  csvFileName,
  deviceLogRequests,
} from './chart-model';

const channel = (
  deviceId: string,
  code: string,
  name: string,
  thingName: string | null = `thing-${deviceId}`,
): ResolvedChannel => ({
  deviceId,
  thingName,
  deviceName: `Tank ${deviceId.toUpperCase()}`,
  code,
  name,
  units: '',
  legendVisibility: true,
});

const answer = (deviceId: string, channels: DeviceLogsAnswer['channels'], binWidth = 1): DeviceLogsAnswer => ({
  deviceId,
  start: 0,
  end: 10_000,
  binCount: 10,
  binWidth,
  channels,
});

const CHANNELS = [channel('a', 't1', 'Temperature'), channel('b', 'p1', 'Pressure'), channel('a', 'c2', 'Level')];

describe('chart widget model', () => {
  it('asks once per device for its channels, and not for a device that is gone', () => {
    const window = { start: 1, end: 2, binCount: 10_000 };
    expect(deviceLogRequests([...CHANNELS, channel('gone', 'c1', 'Old', null)], window)).toEqual([
      { deviceId: 'a', channels: ['t1', 'c2'], ...window },
      { deviceId: 'b', channels: ['p1'], ...window },
    ]);
  });

  it('groups channel codes by device for the table widget too: once each, gone devices left out', () => {
    expect(channelsByDevice([...CHANNELS, CHANNELS[0]!, channel('gone', 'c1', 'Old', null)])).toEqual([
      { deviceId: 'a', codes: ['t1', 'c2'] },
      { deviceId: 'b', codes: ['p1'] },
    ]);
  });

  it('names lines by device when the chart spans devices, and puts them on their axis', () => {
    const { scaleOf } = chartAxisLayout(
      [{ channels: ['b:p1'], name: 'Pressure', units: 'bar', isDedicated: true, hasFixRange: false }],
      CHANNELS.map((c) => `${c.deviceId}:${c.code}`),
    );
    const lines = chartLines(CHANNELS, scaleOf);
    expect(lines.map((l) => [l.code, l.label, l.scale])).toEqual([
      ['a:t1', 'Tank A · Temperature', 'y'],
      ['b:p1', 'Tank B · Pressure', 'y1'],
      ['a:c2', 'Tank A · Level', 'y'],
    ]);
    expect(new Set(lines.map((l) => l.colour)).size).toBe(3);
    expect(chartLines([channel('a', 't1', 'Temperature')], {})[0]!.label).toBe('Temperature');
  });

  it.each([
    ['Temperature', true, 'Tank A · Temperature'],
    ['Temperature', false, 'Temperature'],
    ['Tank A', true, 'Tank A'],
    ['tank a inlet', true, 'tank a inlet'],
    ['Inlet of Tank A', true, 'Inlet of Tank A'],
    ['Tank', true, 'Tank A · Tank'],
  ])('labels channel %j (several devices: %s) as %j, never naming the device twice', (name, many, label) =>
    expect(channelLabel(channel('a', 't1', name), many)).toBe(label),
  );

  it('aligns the per-device answers in the widget channel order', () => {
    const logs = alignWidgetLogs(
      CHANNELS,
      new Map([
        [
          'a',
          answer('a', { t1: { kind: 'raw', t: [1000], value: [20] }, c2: { kind: 'raw', t: [2000], value: [50] } }),
        ],
        ['b', answer('b', { p1: { kind: 'raw', t: [1000], value: [3] } })],
      ]),
    );
    expect(logs.x).toEqual([1, 2]);
    expect(logs.series.map((s) => s.line)).toEqual([
      [20, undefined],
      [3, undefined],
      [undefined, 50],
    ]);
  });

  it('draws plot lines in #CA9D43 width 2 unless coloured, and channel notes on their line', () => {
    const lines = chartLines(CHANNELS, {});
    const markers = chartMarkers(
      [
        { kind: 'plotLine', text: 'Dry hop', timestamp: 5000 },
        { kind: 'plotLine', text: 'Crash', timestamp: 6000, color: '#ff0000' },
        { kind: 'channel', text: 'Spike', timestamp: 7000, channel: { deviceId: 'b', code: 'p1' } },
        { kind: 'channel', text: 'Gone', timestamp: 8000, channel: { deviceId: 'z', code: 'p1' } },
      ],
      lines,
    );
    expect(markers).toEqual([
      { kind: 'line', t: 5000, text: 'Dry hop', colour: '#CA9D43', width: 2 },
      { kind: 'line', t: 6000, text: 'Crash', colour: '#ff0000', width: 2 },
      { kind: 'point', t: 7000, text: 'Spike', colour: lines[1]!.colour, code: 'b:p1' },
    ]);
  });

  it('exports what is shown: the window, the visible lines, bands as min and max, neutralised text', () => {
    const channels = [channel('a', 't1', '=Temp'), channel('a', 'c2', 'Level'), channel('a', 'p1', 'Pressure')];
    const logs = alignWidgetLogs(
      channels,
      new Map([
        [
          'a',
          answer(
            'a',
            {
              t1: { kind: 'raw', t: [0, 1000, 2000, 9000], value: [1, 2.5, -3, 4] },
              c2: { kind: 'raw', t: [1000], value: [50] },
              p1: { kind: 'bins', t: [2000], min: [1], max: [3], avg: [2], last: [2] },
            },
            1000,
          ),
        ],
      ]),
    );
    const csv = chartCsv(logs, chartLines(channels, {}), new Set(['a:c2']), { start: 1000, end: 5000 });
    expect(csv).toBe(
      [
        "'=Temp,Pressure,Pressure min,Pressure max".replace(/^/, 'Time,'),
        '1970-01-01T00:00:01.000Z,2.5,,,',
        '1970-01-01T00:00:02.000Z,-3,2,1,3',
        '',
      ].join('\r\n'),
    );
  });

  it.each([
    ['Fermenter temps', 'fermenter-temps-2026-03-07.csv'],
    ['  ', 'logs-2026-03-07.csv'],
    ['Tank #1 / pH', 'tank-1-ph-2026-03-07.csv'],
  ])('names the file of %j', (name, file) => expect(csvFileName(name, Date.UTC(2026, 2, 7, 12), 'UTC')).toBe(file));

  it('names the file on the day the page’s clock shows, not the browser’s', () => {
    // 03:30 UTC on 7 March is still 6 March in New York.
    const t = Date.UTC(2026, 2, 7, 3, 30);
    expect(csvFileName('Temps', t, 'America/New_York')).toBe('temps-2026-03-06.csv');
    expect(csvFileName('Temps', t, 'Europe/Berlin')).toBe('temps-2026-03-07.csv');
  });
});
