import { describe, expect, it } from 'vitest';
import {
  axisLabelWithUnits,
  CHART_COLOURS,
  DEFAULT_CHART_RANGE_MS,
  MAX_CHART_LOOKBACK_MS,
  MAX_TIME_RANGE_SELECTION_MS,
  WIDGET_CHART_RANGES,
  axisExcursion,
  chartAxisLabel,
  chartAxisLayout,
  chartBinCount,
  chartColour,
  clampChartWindow,
  fixedAxisRange,
  initialTableWindow,
  nextTableWindow,
  unitAxisSettings,
  widgetChannelKey,
  widgetChartWindow,
  yearlyOverviewWindow,
  type ChartYAxisSetting,
} from './chart';

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

describe('chart widget rules', () => {
  const NOW = 400 * DAY;
  const HOUR = 3600 * 1000;

  it('keeps the specification constants', () => {
    expect(DEFAULT_CHART_RANGE_MS).toBe(86_400 * 1000);
    expect(MAX_CHART_LOOKBACK_MS).toBe(31_536_000 * 1000);
    expect(MAX_TIME_RANGE_SELECTION_MS).toBe(15_552_000 * 1000);
    expect(WIDGET_CHART_RANGES.at(-1)?.ms).toBe(MAX_TIME_RANGE_SELECTION_MS);
    expect(WIDGET_CHART_RANGES.every((range) => range.ms <= MAX_TIME_RANGE_SELECTION_MS)).toBe(true);
  });

  it('asks for the yearly overview in 1000 bins over the last year', () =>
    expect(yearlyOverviewWindow(NOW)).toEqual({ start: NOW - 365 * DAY, end: NOW, binCount: 1000 }));

  it.each([
    ['the default day', NOW - DAY, NOW, { start: NOW - DAY, end: NOW, binCount: 10_000 }],
    ['three days', NOW - 3 * DAY, NOW, { start: NOW - 3 * DAY, end: NOW, binCount: 10_000 }],
    ['a week: 2000 bins', NOW - 7 * DAY, NOW, { start: NOW - 7 * DAY, end: NOW, binCount: 2000 }],
    ['a year: cut to 180 days', NOW - 365 * DAY, NOW, { start: NOW - 180 * DAY, end: NOW, binCount: 2000 }],
    ['a span past now', NOW - DAY, NOW + DAY, { start: NOW - DAY, end: NOW, binCount: 10_000 }],
    [
      'a span before the lookback',
      NOW - 390 * DAY,
      NOW - 380 * DAY,
      { start: NOW - 365 * DAY, end: NOW - 365 * DAY + 60_000, binCount: 10_000 },
    ],
    [
      'a span under a minute',
      NOW - DAY,
      NOW - DAY + 10,
      { start: NOW - DAY, end: NOW - DAY + 60_000, binCount: 10_000 },
    ],
  ])('windows %s', (_name, start, end, expected) => expect(widgetChartWindow(start, end, NOW)).toEqual(expected));

  it.each([
    ['name and units', 'Temperature', '°C', 'Temperature (°C)'],
    ['units only', ' ', '°C', '°C'],
    ['name only', 'Level', '', 'Level'],
    ['neither', '', '', ''],
  ])('labels an axis with %s', (_name, name, units, label) => expect(chartAxisLabel(name, units)).toBe(label));

  const axis = (over: Partial<ChartYAxisSetting>): ChartYAxisSetting => ({
    channels: [],
    name: '',
    units: '',
    isDedicated: false,
    hasFixRange: false,
    ...over,
  });

  it.each([
    ['off', axis({ hasFixRange: false, min: 0, max: 10 }), null],
    ['on', axis({ hasFixRange: true, min: 0, max: 10 }), { min: 0, max: 10 }],
    ['on without max', axis({ hasFixRange: true, min: 0 }), null],
    ['on with min above max', axis({ hasFixRange: true, min: 10, max: 0 }), null],
    ['on with min equal to max', axis({ hasFixRange: true, min: 5, max: 5 }), null],
  ])('a fixed range %s', (_name, setting, range) => expect(fixedAxisRange(setting)).toEqual(range));

  it.each([
    [
      'no axes: one shared auto axis',
      [],
      ['d:c1', 'd:c2'],
      [{ scale: 'y', side: 'left', label: '', range: null, channels: ['d:c1', 'd:c2'] }],
    ],
    [
      'a shared axis names and fixes the shared scale',
      [axis({ channels: ['d:c1'], name: 'Flow', units: 'L/min', hasFixRange: true, min: 0, max: 180 })],
      ['d:c1', 'e:c1'],
      [{ scale: 'y', side: 'left', label: 'Flow (L/min)', range: { min: 0, max: 180 }, channels: ['d:c1', 'e:c1'] }],
    ],
    [
      'a dedicated axis takes its channels to its own scale on the right',
      [
        axis({ channels: ['d:c1'], units: '%' }),
        axis({ channels: ['e:t1'], name: 'Pressure', units: 'bar', isDedicated: true }),
      ],
      ['d:c1', 'e:t1'],
      [
        { scale: 'y', side: 'left', label: '%', range: null, channels: ['d:c1'] },
        { scale: 'y2', side: 'right', label: 'Pressure (bar)', range: null, channels: ['e:t1'] },
      ],
    ],
    [
      'every channel dedicated: the first axis is on the left',
      [
        axis({ channels: ['d:c1'], name: 'A', isDedicated: true }),
        axis({ channels: ['d:c2'], name: 'B', isDedicated: true }),
      ],
      ['d:c1', 'd:c2'],
      [
        { scale: 'y1', side: 'left', label: 'A', range: null, channels: ['d:c1'] },
        { scale: 'y2', side: 'right', label: 'B', range: null, channels: ['d:c2'] },
      ],
    ],
    [
      'a channel on two dedicated axes goes to the first; an axis of removed channels is not drawn',
      [
        axis({ channels: ['d:c1'], name: 'A', isDedicated: true }),
        axis({ channels: ['d:c1', 'gone:c1'], name: 'B', isDedicated: true }),
      ],
      ['d:c1', 'd:c2'],
      [
        { scale: 'y', side: 'left', label: '', range: null, channels: ['d:c2'] },
        { scale: 'y1', side: 'right', label: 'A', range: null, channels: ['d:c1'] },
      ],
    ],
  ])('lays out axes: %s', (_name, yAxis, keys, axes) => expect(chartAxisLayout(yAxis, keys).axes).toEqual(axes));

  it('maps each channel to its scale', () =>
    expect(
      chartAxisLayout([axis({ channels: ['d:c2'], isDedicated: true })], [widgetChannelKey('d', 'c1'), 'd:c2']).scaleOf,
    ).toEqual({ 'd:c1': 'y', 'd:c2': 'y1' }));

  it.each([
    ['12 hours before the last connection', NOW - DAY, { start: NOW - DAY - 12 * HOUR, end: NOW }],
    ['12 hours before now without a last connection', null, { start: NOW - 12 * HOUR, end: NOW }],
    ['12 hours before now for a connection in the future', NOW + DAY, { start: NOW - 12 * HOUR, end: NOW }],
    ['no earlier than the lookback', NOW - 500 * DAY, { start: NOW - 365 * DAY, end: NOW }],
  ])('starts a table %s', (_name, lastConnection, window) =>
    expect(initialTableWindow(lastConnection, NOW)).toEqual(window),
  );

  it.each([
    ['enough points: done', { start: NOW - 12 * HOUR, end: NOW }, 1000, null],
    ['under 1000 points: the span doubles', { start: NOW - 12 * HOUR, end: NOW }, 999, { start: NOW - DAY, end: NOW }],
    [
      'empty: steps back 60 days',
      { start: NOW - 12 * HOUR, end: NOW },
      0,
      { start: NOW - 60 * DAY - 12 * HOUR, end: NOW },
    ],
    [
      'empty near the lookback: stops there',
      { start: NOW - 340 * DAY, end: NOW },
      0,
      { start: NOW - 365 * DAY, end: NOW },
    ],
    ['at the lookback: done', { start: NOW - 365 * DAY, end: NOW }, 0, null],
  ])('widens a table window: %s', (_name, window, points, next) =>
    expect(nextTableWindow(window, points, NOW)).toEqual(next),
  );
});

describe('axisExcursion: a fixed axis never cuts a line off silently', () => {
  const flowAxis = { min: 0, max: 100 };
  it.each([
    [[10, 50, 99.9, null, undefined], null],
    [[10, 152, 130, null], { above: 152, below: null }],
    [[-3, 20, -1], { above: null, below: -3 }],
    [[-3, 120, 20], { above: 120, below: -3 }],
    [[100, 0], null],
    [[Number.NaN, 40], null],
  ])('%j on 0-100 -> %j', (values, expected) => expect(axisExcursion(values, flowAxis)).toEqual(expected));
});

describe('unitAxisSettings: one y axis per unit', () => {
  it.each<[string, { code: string; units?: string }[], { units: string; channels: string[] }[]]>([
    [
      'a totalizer never shares the temperature axis',
      [
        { code: 'c1', units: '°C' },
        { code: 't1', units: 'L' },
        { code: 'sp1', units: '°C' },
      ],
      [
        { units: '°C', channels: ['c1', 'sp1'] },
        { units: 'L', channels: ['t1'] },
      ],
    ],
    [
      'unit-less totalizers get an axis each; other unit-less channels share one',
      [{ code: 'a1' }, { code: 't1' }, { code: 'a2', units: ' ' }, { code: 't2' }],
      [
        { units: '', channels: ['a1', 'a2'] },
        { units: '', channels: ['t1'] },
        { units: '', channels: ['t2'] },
      ],
    ],
    ['nothing charted, no axis', [], []],
  ])('%s', (_name, channels, expected) => {
    expect(unitAxisSettings(channels)).toEqual(
      expected.map((axis) => ({ ...axis, name: '', isDedicated: true, hasFixRange: false })),
    );
  });

  it('lays out as alternating dedicated axes, each labelled with its unit', () => {
    const settings = unitAxisSettings([
      { code: 'c1', units: '°C' },
      { code: 't1', units: 'L' },
    ]);
    const { axes, scaleOf } = chartAxisLayout(settings, ['c1', 't1']);
    expect(axes.map((axis) => [axis.label, axis.side])).toEqual([
      ['°C', 'left'],
      ['L', 'right'],
    ]);
    expect(scaleOf.c1).not.toBe(scaleOf.t1);
  });
});

describe('axis labels name their unit (issue 36 item 4)', () => {
  it.each<[string, string[], string]>([
    ['Flow (L/min)', ['L/min'], 'Flow (L/min)'],
    ['Pressure', ['bar', 'bar'], 'Pressure (bar)'],
    ['', ['°C'], '°C'],
    ['', ['°C', '%'], '°C · %'],
    ['Level', [], 'Level'],
    ['', ['', ' '], ''],
  ])('"%s" over channels in %j reads "%s"', (label, units, expected) => {
    expect(axisLabelWithUnits(label, units)).toBe(expected);
  });
});
