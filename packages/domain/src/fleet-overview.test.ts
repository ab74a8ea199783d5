import { describe, expect, it } from 'vitest';
import { firstRelay, fleetOverview, primaryChannel, type OverviewChannel } from './fleet-overview';
import { GRID_BREAKPOINTS, WIDGET_DEFAULTS } from './widgets';

const channel = (code: string, units?: string): OverviewChannel => ({ code, name: `Name ${code}`, units });

describe('the reading a device is known by', () => {
  it.each([
    [
      'the first input with a unit',
      [channel('sp1', '°C'), channel('c1'), channel('c2', 'bar'), channel('c3', '°C')],
      'c2',
    ],
    ['an auxiliary channel with a unit', [channel('do1'), channel('a1', 'L/min'), channel('c1', '°C')], 'a1'],
    ['the first channel when no input has a unit', [channel('t1', 'L'), channel('c1'), channel('do1')], 't1'],
    ['a unit of blanks is no unit', [channel('d1', 'm³'), channel('c1', ''), channel('a2', 'bar')], 'a2'],
    ['none of no channels', [], undefined],
  ])('%s', (_, channels, code) => {
    expect(primaryChannel(channels)?.code).toBe(code);
  });
});

describe('the relay a device shows the state of', () => {
  it.each([
    ['its first relay output', [channel('c1', '°C'), channel('do2'), channel('do1')], 'do2'],
    ['an output of prefix o', [channel('o1'), channel('do1')], 'o1'],
    ['not a digital input counting pulses', [channel('d1', 'm³'), channel('di1'), channel('do3')], 'do3'],
    ['not an output with a unit (a quantity)', [channel('do1', 'L'), channel('do2')], 'do2'],
    ['none without one', [channel('c1', '°C'), channel('d1', 'm³')], undefined],
  ])('%s', (_, channels, code) => {
    expect(firstRelay(channels)?.code).toBe(code);
  });
});

describe('the overview of a fleet', () => {
  const devices = [
    { id: 'd1', name: 'Boiler', channels: [channel('c1', '°C'), channel('do1')] },
    { id: 'd2', name: 'Tank', channels: [channel('a1', '%')] },
    { id: 'd3', name: 'Silent', channels: [] },
  ];
  const overview = fleetOverview('Acme', devices, (index) => `w${index}`);
  const shown = overview.widgets.map(({ id, type, name, channels }) => ({
    id,
    type,
    name,
    channels: channels.map(({ deviceId, code }) => `${deviceId}:${code}`),
  }));

  it('titles it, charts every main reading, then shows each reading and relay in the devices’ order', () => {
    expect(overview.name).toBe('Overview');
    expect(shown.map(({ id, type, name, channels }) => [id, type, name, channels])).toEqual([
      ['w0', 'customText', '', []],
      ['w1', 'chart', 'Main readings', ['d1:c1', 'd2:a1']],
      ['w2', 'value', 'Boiler: Name c1', ['d1:c1']],
      ['w3', 'indicator', 'Boiler: Name do1', ['d1:do1']],
      ['w4', 'value', 'Tank: Name a1', ['d2:a1']],
    ]);
    expect(overview.widgets[0]).toMatchObject({ value: 'Acme: live overview' });
    expect(overview.widgets[1]!.channels.map((entry) => entry.name)).toEqual(['Name c1', 'Name a1']);
  });

  it('gives each widget its units, §3’s defaults and visible legends, and lays every one out on every breakpoint', () => {
    expect(overview.widgets.map((widget) => ('units' in widget ? widget.units : null))).toEqual([
      null,
      null,
      '°C',
      null,
      '%',
    ]);
    for (const widget of overview.widgets) {
      expect(widget).toMatchObject({ min: WIDGET_DEFAULTS.min, max: WIDGET_DEFAULTS.max, doesInheritName: false });
      expect(widget.channels.every((entry) => entry.legendVisibility)).toBe(true);
    }
    for (const breakpoint of GRID_BREAKPOINTS) {
      expect(overview.gridLayout[breakpoint].map((item) => item.i)).toEqual(['w0', 'w1', 'w2', 'w3', 'w4']);
    }
    // The chart spans the row; the title sits above it, each reading's tiles after it.
    expect(overview.gridLayout.lg.map(({ x, y, w }) => [x, y, w])).toEqual([
      [0, 0, 12],
      [0, 3, 12],
      [0, expect.any(Number), 3],
      [3, expect.any(Number), 3],
      [6, expect.any(Number), 3],
    ]);
  });
});
