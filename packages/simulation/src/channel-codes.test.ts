import { describe, expect, it } from 'vitest';
import { expandedIoPoints, parseChannelCode, resolveChannelCode } from './channel-codes';

describe('resolveChannelCode', () => {
  const generic = ['c1', 'c2', 'sp1', 'sp2', 'do1', 'do2', 't1', 'd1'];

  it.each([
    ['sp1', 'sp1'],
    ['sp-1', 'sp1'],
    ['s1', 'sp1'],
    ['SP-2', 'sp2'],
    ['do-2', 'do2'],
    ['o1', 'do1'],
    ['di1', 'd1'],
    ['c2', 'c2'],
  ])('%s names %s', (requested, expected) => {
    expect(resolveChannelCode(requested, generic)).toBe(expected);
  });

  it.each(['c9', 'sp3', 'a1', 'x', '', 'sp--1', 'do1/#'])('%s names no channel', (requested) => {
    expect(resolveChannelCode(requested, generic)).toBeUndefined();
  });

  it('prefers an exact code over an alias', () => {
    expect(resolveChannelCode('s1', ['s1', 'sp1'])).toBe('s1');
  });

  it('parses the prefix and the index', () => {
    expect(parseChannelCode('gpf-11')).toEqual({ prefix: 'gpf', index: 11 });
    expect(parseChannelCode('o4')).toEqual({ prefix: 'do', index: 4 });
  });
});

describe('expandedIoPoints', () => {
  it.each<[string[], number]>([
    [['c1', 'do1'], 0],
    [['xdo1'], 16],
    [['c1', 'xdo16', 'xdi3'], 16],
    [['xdo17'], 32],
    [[], 0],
  ])('%j -> %i points', (codes, points) => expect(expandedIoPoints(codes)).toBe(points));
});
