import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CHANNEL_PREFIXES,
  channelDisplayName,
  channelName,
  countChannels,
  countsAsChannel,
  formatChannelCode,
  isWithinMaxCount,
  maxChannelCount,
  normaliseChannelCode,
  parseChannelCode,
  sameChannelCode,
  setpointIndexFromWidgetName,
} from './channels';

describe('parseChannelCode', () => {
  it.each([
    ['a1', { prefix: 'a', number: 1, expanded: false }],
    ['c12', { prefix: 'c', number: 12, expanded: false }],
    ['cs2', { prefix: 'cs', number: 2, expanded: false }],
    ['d4', { prefix: 'd', number: 4, expanded: false }],
    ['di-3', { prefix: 'di', number: 3, expanded: false }],
    ['do16', { prefix: 'do', number: 16, expanded: false }],
    ['o-1', { prefix: 'o', number: 1, expanded: false }],
    ['gpf-9', { prefix: 'gpf', number: 9, expanded: false }],
    ['GPF-11', { prefix: 'gpf', number: 11, expanded: false }],
    ['s16', { prefix: 's', number: 16, expanded: false }],
    ['sp-3', { prefix: 'sp', number: 3, expanded: false }],
    ['SP-1', { prefix: 'sp', number: 1, expanded: false }],
    ['T-5', { prefix: 't', number: 5, expanded: false }],
    ['st2', { prefix: 'st', number: 2, expanded: false }],
    ['sp03', { prefix: 'sp', number: 3, expanded: false }],
    ['xdo1', { prefix: 'do', number: 1, expanded: true }],
    ['xdi-2', { prefix: 'di', number: 2, expanded: true }],
  ])('%s', (code, expected) => expect(parseChannelCode(code)).toEqual(expected));

  it.each([
    [''],
    ['sp'],
    ['3'],
    ['sp--3'],
    ['sp-'],
    ['q1'],
    ['c0'],
    ['sp-0'],
    ['sp1234'],
    ['xa1'],
    ['xsp1'],
    ['x1'],
    ['sp 3'],
    ['sp-3a'],
    ['__proto__1'],
  ])('refuses %j', (code) => expect(parseChannelCode(code)).toBeNull());

  it('accepts every prefix in both written forms', () => {
    for (const prefix of CHANNEL_PREFIXES) {
      expect(parseChannelCode(`${prefix}7`)?.prefix).toBe(prefix);
      expect(parseChannelCode(`${prefix}-7`)?.prefix).toBe(prefix);
    }
  });
});

describe('normaliseChannelCode', () => {
  it.each([
    ['SP-03', 'sp3'],
    ['sp3', 'sp3'],
    [' gpf-11 ', 'gpf11'],
    ['T-1', 't1'],
    ['XDO-1', 'xdo1'],
    ['s1', 's1'],
    ['nope', null],
  ])('%j -> %j', (code, expected) => expect(normaliseChannelCode(code)).toBe(expected));

  it('is idempotent and agrees with parse for every valid code', () => {
    const code = fc
      .tuple(
        fc.constantFrom(...CHANNEL_PREFIXES),
        fc.boolean(),
        fc.integer({ min: 1, max: 999 }),
        fc.boolean(),
        fc.boolean(),
      )
      .map(([prefix, hyphen, n, upper, pad]) => {
        const text = `${prefix}${hyphen ? '-' : ''}${pad && n < 100 ? '0' : ''}${n}`;
        return { text: upper ? text.toUpperCase() : text, prefix, n };
      });
    fc.assert(
      fc.property(code, ({ text, prefix, n }) => {
        const canonical = normaliseChannelCode(text);
        expect(canonical).toBe(`${prefix}${n}`);
        expect(normaliseChannelCode(canonical ?? '')).toBe(canonical);
      }),
    );
  });
});

describe('sameChannelCode', () => {
  it.each([
    ['sp-3', 'SP3', true],
    ['s3', 'sp3', false],
    ['d1', 'di1', false],
    ['bad', 'bad', false],
  ])('%s vs %s -> %s', (a, b, expected) => expect(sameChannelCode(a, b)).toBe(expected));
});

describe('channelDisplayName', () => {
  it.each([
    ['a5', 'Aux_5'],
    ['c3', 'Ch_3'],
    ['cs2', 'ChB_2'],
    ['d1', 'DI_1'],
    ['di-2', 'DI_2'],
    ['do3', 'Relay_3'],
    ['o4', 'Relay_4'],
    ['gpf-9', 'GPF_9'],
    ['s1', 'SP_1'],
    ['sp-2', 'SP_2'],
    ['t10', 'Total_10'],
    ['st1', 'TempControl_1'],
    ['xdo1', 'XRelay_1'],
    ['zz1', null],
  ])('%s -> %j', (code, expected) => expect(channelDisplayName(code)).toBe(expected));
});

describe('maximum counts', () => {
  it.each([
    ['a', 16],
    ['do', 16],
    ['s', 16],
    ['sp', 16],
    ['gpf', 32],
    ['t', 10],
    ['d', 4],
    ['di', 4],
    ['o', 4],
    ['c', null],
    ['cs', null],
    ['st', null],
  ] as const)('%s -> %j', (prefix, max) => {
    expect(maxChannelCount({ prefix, number: 1, expanded: false })).toBe(max);
    if (max !== null) {
      expect(isWithinMaxCount(`${prefix}${max}`)).toBe(true);
      expect(isWithinMaxCount(`${prefix}${max + 1}`)).toBe(false);
    } else {
      expect(isWithinMaxCount(`${prefix}999`)).toBe(true);
    }
  });

  it.each([
    ['xdo8', 8, true],
    ['xdo9', 8, false],
    ['xdo1', undefined, false],
    ['xdo1', null, false],
    ['xdi16', 16, true],
  ])('expanded IO %s with maximum %j -> %s', (code, max, expected) =>
    expect(isWithinMaxCount(code, max)).toBe(expected),
  );

  it('refuses what is not a code', () => expect(isWithinMaxCount('nope')).toBe(false));
});

describe('channel count', () => {
  it.each([
    ['c1', true],
    ['C2', true],
    ['cs1', true],
    ['a1', false],
    ['sp1', false],
    ['do1', false],
  ])('%s counts: %s', (code, expected) => expect(countsAsChannel(code)).toBe(expected));

  it('counts only codes starting with c', () =>
    expect(countChannels(['c1', 'c2', 'a1', 'sp1', 'cs1', 'do2', 't1'])).toBe(3));
  it('counts nothing in an empty list', () => expect(countChannels([])).toBe(0));
});

describe('setpoint widget names', () => {
  it.each([
    ['sp-1', 1],
    ['sp-16', 16],
    ['sp-0', 0],
    ['sp1', null],
    ['SP-1', null],
    ['sp-', null],
    ['sp-x', null],
    ['c-1', null],
  ])('%s -> %j', (name, expected) => expect(setpointIndexFromWidgetName(name)).toBe(expected));

  it('reads every index of up to three digits', () =>
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 999 }), (n) => {
        expect(setpointIndexFromWidgetName(`sp-${n}`)).toBe(n);
      }),
    ));
});

describe('formatChannelCode', () => {
  it('writes the canonical form', () => {
    expect(formatChannelCode({ prefix: 'gpf', number: 3, expanded: false })).toBe('gpf3');
    expect(formatChannelCode({ prefix: 'o', number: 2, expanded: true })).toBe('xo2');
  });
});

describe('channelName', () => {
  it.each<[string, string | null | undefined, string]>([
    ['c1', 'Inlet pressure', 'Inlet pressure'],
    ['c1', '  Inlet  ', 'Inlet'],
    ['c1', '   ', 'Ch_1'],
    ['a3', undefined, 'Aux_3'],
    ['do2', null, 'Relay_2'],
    ['zz', undefined, 'zz'],
  ])('%s named %j is shown as %j', (code, own, shown) => expect(channelName(code, own)).toBe(shown));
});
