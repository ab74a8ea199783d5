import { describe, expect, it } from 'vitest';
import { channelKindLabel, channelTitle, compareChannelCodes, formatChannelValue } from './channel-presentation';

describe('formatChannelValue', () => {
  it.each([
    ['c1', 21.456, '21.46'],
    ['c1', 4, '4'],
    ['c1', -0.5, '-0.5'],
    ['a2', 12345.678, '12,345.7'],
    ['t1', 1234567.8, '1,234,568'],
    ['do1', 1, 'On'],
    ['o2', 0, 'Off'],
    ['di3', 1, 'On'],
    ['gpf9', 0, 'Off'],
    ['xdo1', 1, 'On'],
    ['c1', Number.NaN, '—'],
  ])('%s %d -> %s', (code, value, expected) => {
    expect(formatChannelValue(code, value, 'en-US')).toBe(expected);
  });
});

describe('channel titles and order', () => {
  it('uses the custom name, else the display name', () => {
    expect(channelTitle('c1', 'Tank level')).toBe('Tank level');
    expect(channelTitle('c1', '  ')).toBe('Ch_1');
    expect(channelTitle('sp-1')).toBe('SP_1');
    expect(channelTitle('do1')).toBe('Relay_1');
    expect(channelTitle('weird')).toBe('weird');
  });

  it('names the kind', () => {
    expect(channelKindLabel('do2')).toBe('Relay');
    expect(channelKindLabel('sp1')).toBe('Setpoint');
    expect(channelKindLabel('zz')).toBe('Channel');
  });

  it('sorts by kind then number', () => {
    const codes = ['do1', 'c10', 'sp1', 'c2', 'a1', 'xdo1', 'do2', 't1', 'c1'];
    expect(codes.sort(compareChannelCodes)).toEqual(['c1', 'c2', 'c10', 'a1', 'sp1', 'do1', 'do2', 'xdo1', 't1']);
  });
});
