import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isInt16, isRegisterValue, isUint16, REGISTER_VALUE_RANGE, toSigned16, toUnsigned16 } from './int16';

describe('toSigned16', () => {
  it.each([
    [0, 0],
    [1, 1],
    [32_767, 32_767],
    [32_768, -32_768],
    [65_535, -1],
    [65_534, -2],
  ])('%d -> %d', (word, expected) => expect(toSigned16(word)).toBe(expected));

  it.each([-1, 65_536, 1.5, Number.NaN, Number.POSITIVE_INFINITY])('refuses %d', (word) =>
    expect(() => toSigned16(word)).toThrow(RangeError),
  );
});

describe('toUnsigned16', () => {
  it.each([
    [0, 0],
    [1, 1],
    [32_767, 32_767],
    [-32_768, 32_768],
    [-1, 65_535],
  ])('%d -> %d', (value, expected) => expect(toUnsigned16(value)).toBe(expected));

  it.each([32_768, -32_769, 0.5, Number.NaN])('refuses %d', (value) =>
    expect(() => toUnsigned16(value)).toThrow(RangeError),
  );
});

describe('round trips', () => {
  it('unsigned -> signed -> unsigned', () =>
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 65_535 }), (word) => {
        expect(toUnsigned16(toSigned16(word))).toBe(word);
      }),
    ));
  it('signed -> unsigned -> signed, and agrees with Int16Array', () =>
    fc.assert(
      fc.property(fc.integer({ min: -32_768, max: 32_767 }), (value) => {
        const word = toUnsigned16(value);
        expect(toSigned16(word)).toBe(value);
        expect(new Uint16Array([value])[0]).toBe(word);
      }),
    ));
});

describe('predicates', () => {
  it.each([
    [-32_768, true, false],
    [-1, true, false],
    [0, true, true],
    [32_767, true, true],
    [32_768, false, true],
    [65_535, false, true],
    [65_536, false, false],
    [2.5, false, false],
  ])('%d: int16 %s, uint16 %s', (value, int16, uint16) => {
    expect(isInt16(value)).toBe(int16);
    expect(isUint16(value)).toBe(uint16);
  });
});

describe('isRegisterValue (what a register may be written with, core §9)', () => {
  it.each([
    [-32_769, false],
    [-32_768, true],
    [-1, true],
    [0, true],
    [32_768, true],
    [65_535, true],
    [65_536, false],
    [1.5, false],
    [Number.NaN, false],
  ])('%d -> %s', (value, expected) => expect(isRegisterValue(value)).toBe(expected));

  it('spans REGISTER_VALUE_RANGE, the one range the schemas, the console and the simulator use', () => {
    expect(REGISTER_VALUE_RANGE).toEqual({ min: -32_768, max: 65_535 });
    expect(isRegisterValue(REGISTER_VALUE_RANGE.min) && isRegisterValue(REGISTER_VALUE_RANGE.max)).toBe(true);
  });
});
