import { describe, expect, it } from 'vitest';
import {
  channelKindLabel,
  channelValueParts,
  channelValueType,
  compareChannelCodes,
  describeChannel,
  formatChannelValue,
  shownUnits,
  type ChannelDescription,
} from './channel-presentation';

describe('describeChannel: name, kind, type and unit', () => {
  it.each<[ChannelDescription, string, string, string, 'state' | 'quantity', string]>([
    [{ code: 'c1' }, 'Ch_1', 'Ch_1', 'Input', 'quantity', ''],
    [{ code: 'c1', name: 'Room temperature', units: ' °C ' }, 'Room temperature', 'Ch_1', 'Input', 'quantity', '°C'],
    [{ code: 'c1', name: '  ' }, 'Ch_1', 'Ch_1', 'Input', 'quantity', ''],
    [{ code: 'd1', name: 'Supply 1 total', units: 'm³' }, 'Supply 1 total', 'DI_1', 'Pulse input', 'quantity', 'm³'],
    [{ code: 'd2' }, 'DI_2', 'DI_2', 'Digital input', 'state', ''],
    [{ code: 'do1', name: 'Plant run' }, 'Plant run', 'Relay_1', 'Relay', 'state', ''],
    [{ code: 'sp-1' }, 'SP_1', 'SP_1', 'Setpoint', 'quantity', ''],
    [{ code: 'gpf9' }, 'GPF_9', 'GPF_9', 'Flag', 'state', ''],
    [{ code: 't5', name: 'UV dose', units: 'mJ/cm²' }, 'UV dose', 'Total_5', 'Totalizer', 'quantity', 'mJ/cm²'],
    [{ code: 'xdo1' }, 'XRelay_1', 'XRelay_1', 'Relay', 'state', ''],
    [{ code: 'weird' }, 'weird', 'weird', 'Channel', 'quantity', ''],
  ])('%j', (channel, title, displayName, kind, type, units) => {
    expect(describeChannel(channel)).toEqual({ code: channel.code, title, displayName, kind, type, units });
  });
});

describe('formatChannelValue: the same text on every screen', () => {
  it.each<[ChannelDescription, number, { decimals?: number; units?: string }, string]>([
    [{ code: 'c1', units: '°C' }, 21.456, {}, '21.5 °C'],
    [{ code: 'c1' }, 4, {}, '4'],
    [{ code: 'c1' }, 0.456, {}, '0.46'],
    [{ code: 'c1' }, -0.5, {}, '-0.5'],
    [{ code: 't5', units: 'mJ/cm²' }, 56.73, {}, '56.7 mJ/cm²'],
    [{ code: 't5', units: 'mJ/cm²' }, 56.73, { decimals: 2 }, '56.73 mJ/cm²'],
    [{ code: 'd1', units: 'm³' }, 35928.4, {}, '35,928 m³'],
    [{ code: 'a2' }, 12345.678, {}, '12,346'],
    [{ code: 'c2', units: 'bar' }, 4.2, { units: 'kPa' }, '4.2 kPa'],
    [{ code: 'do1' }, 1, {}, 'On'],
    [{ code: 'o2' }, 0, {}, 'Off'],
    [{ code: 'di3' }, 1, {}, 'On'],
    [{ code: 'gpf9' }, 0, {}, 'Off'],
    [{ code: 'c1', units: '°C' }, Number.NaN, {}, '—'],
  ])('%j %d %j -> %s', (channel, value, format, expected) => {
    expect(formatChannelValue(channel, value, { ...format, locale: 'en-US' })).toBe(expected);
  });
});

describe('channelValueParts: the text and the unit apart', () => {
  it.each<[ChannelDescription, number, { text: string; units: string }]>([
    [{ code: 'a1', units: 'L/min' }, 102.34, { text: '102.3', units: 'L/min' }],
    [{ code: 'do1' }, 1, { text: 'On', units: '' }],
    [{ code: 'd1', units: 'm³' }, 0, { text: '0', units: 'm³' }],
    [{ code: 'c1', units: '°C' }, Number.POSITIVE_INFINITY, { text: '—', units: '' }],
  ])('%j %d -> %j', (channel, value, expected) => {
    expect(channelValueParts(channel, value, { locale: 'en-US' })).toEqual(expected);
  });
});

describe('value types and kinds', () => {
  it.each([
    ['do1', undefined, 'state', 'Relay'],
    ['d1', 'm³', 'quantity', 'Pulse input'],
    ['d1', '  ', 'state', 'Digital input'],
    ['c1', undefined, 'quantity', 'Input'],
    ['cs2', undefined, 'quantity', 'Secondary input'],
    ['st1', undefined, 'quantity', 'Temperature control'],
  ])('%s with unit %j is a %s (%s)', (code, units, type, kind) => {
    expect(channelValueType(code, units)).toBe(type);
    expect(channelKindLabel(code, units)).toBe(kind);
  });

  it.each([
    [{ units: 'bar' }, undefined, 'bar'],
    [{ units: 'bar' }, ' kPa ', 'kPa'],
    [{ units: 'bar' }, '', 'bar'],
    [{}, null, ''],
  ])('shown units of %j with override %j -> %j', (channel, override, expected) => {
    expect(shownUnits(channel, override)).toBe(expected);
  });
});

describe('compareChannelCodes', () => {
  it('sorts by kind, then expanded IO last, then number', () => {
    const codes = ['do1', 'c10', 'sp1', 'c2', 'a1', 'xdo1', 'do2', 't1', 'c1', 'zz'];
    expect(codes.sort(compareChannelCodes)).toEqual(['c1', 'c2', 'c10', 'a1', 'sp1', 'do1', 'do2', 'xdo1', 't1', 'zz']);
  });
});
