import { describe, expect, it } from 'vitest';
import { legendNames, type LegendSeries } from './chart-legend';

const s = (name: string, source: string): LegendSeries => ({ name, source });

describe('legend names', () => {
  it.each<[string, LegendSeries[], boolean, string[]]>([
    [
      'one device: own names',
      [s('Temperature', 'Boiler 1'), s('Humidity', 'Boiler 1')],
      false,
      ['Temperature', 'Humidity'],
    ],
    [
      'several devices: prefixed with the device',
      [s('Room temperature', 'Boiler 1'), s('Room temperature', 'Boiler 2')],
      true,
      ['Boiler 1 · Room temperature', 'Boiler 2 · Room temperature'],
    ],
    [
      'a name that says its device is not prefixed again',
      [s('Boiler 1', 'Boiler 1'), s('Boiler 2', 'Boiler 2')],
      true,
      ['Boiler 1', 'Boiler 2'],
    ],
    [
      'case does not matter',
      [s('boiler 1 temperature', 'Boiler 1'), s('x', 'Boiler 2')],
      true,
      ['boiler 1 temperature', 'Boiler 2 · x'],
    ],
    [
      'repeated product names on different shelves: told apart by shelf',
      [s('Orange juice 350ml', 'Shelf A2'), s('Cola 375ml', 'Shelf A1'), s('Orange juice 350ml', 'Shelf B4')],
      false,
      ['Shelf A2 · Orange juice 350ml', 'Cola 375ml', 'Shelf B4 · Orange juice 350ml'],
    ],
    [
      'the same name on the same source: numbered',
      [s('Sensor', 'Pump'), s('Sensor', 'Pump')],
      false,
      ['Pump · Sensor (1)', 'Pump · Sensor (2)'],
    ],
    ['no source to tell them apart: numbered', [s('Flow', ''), s('Flow', '')], true, ['Flow (1)', 'Flow (2)']],
  ])('%s', (_, series, qualifyAll, names) => {
    expect(legendNames(series, qualifyAll)).toEqual(names);
  });
});
