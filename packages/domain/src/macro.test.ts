import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compareVersions,
  hasNoCustomMacro,
  hasVatsFlag,
  isVatMarked,
  isVatStatusMarked,
  parseMacroVersion,
  tankChannel,
  usesNewerFiltecAlarms,
} from './macro';

describe('parseMacroVersion', () => {
  it.each([
    ['Vats 4.1', 4.1],
    ['BrewCtl 7.52', 7.52],
    ['BrewCtl 7.50', 7.5],
    ['Filtec2 3.10', 3.1],
    ['Spray 8', 8],
    ['Vats4.0', 4],
    ['Unfieldlinkd', null],
    ['unfieldlinkd', null],
    ['NoNumber', null],
    ['', null],
    [null, null],
    [undefined, null],
  ])('%j -> %j', (custom, expected) => expect(parseMacroVersion(custom)).toBe(expected));
});

describe('hasNoCustomMacro', () => {
  it.each([
    ['Unfieldlinkd', true],
    [' UNFIELDLINKD ', true],
    ['', true],
    [null, true],
    ['BrewCtl 7.52', false],
  ])('%j -> %s', (custom, expected) => expect(hasNoCustomMacro(custom)).toBe(expected));
});

describe('tankChannel', () => {
  it.each([
    ['BrewCtl 7.49', 'c3'],
    ['BrewCtl 7.5', 'a5'],
    ['BrewCtl 7.50', 'a5'],
    ['BrewCtl 7.52', 'a5'],
    ['BrewCtl 10.1', 'a5'],
    ['BrewCtl 2.0', 'c3'],
    ['Unfieldlinkd', 'c3'],
    ['unfieldlinkd', 'c3'],
    ['BrewCtl', 'c3'],
    [null, 'c3'],
  ])('%j -> %s', (custom, expected) => expect(tankChannel(custom)).toBe(expected));
});

describe('hasVatsFlag', () => {
  it.each([
    ['Vats 4.0', true],
    ['Vats 4.1', true],
    ['Vats 12.3', true],
    ['Vats 3.99', false],
    ['Vats', false],
    ['vats 4.1', false],
    ['BrewCtl 7.52', false],
    ['Unfieldlinkd', false],
    [null, false],
  ])('%j -> %s', (custom, expected) => expect(hasVatsFlag(custom)).toBe(expected));
});

describe('vat marking', () => {
  it.each([
    [0b1100_0000, true],
    [0b1111_1111, true],
    [0b0100_0000, false],
    [0b1000_0000, false],
    [0, false],
    [0xffc0, true],
    [-1, true],
    [0x0100, false],
  ])('status %d -> %s', (status, expected) => expect(isVatStatusMarked(status)).toBe(expected));

  it.each([
    ['Vats 4.1', 0xc0, true],
    ['Vats 3.9', 0xc0, false],
    ['BrewCtl 7.52', 0xc0, false],
    ['Vats 4.1', 0x40, false],
  ])('%j with status %d -> %s', (custom, status, expected) => expect(isVatMarked(custom, status)).toBe(expected));
});

describe('usesNewerFiltecAlarms', () => {
  it.each([
    ['Filtec 3.00', false],
    ['Filtec 3.01', true],
    ['Filtec 2.5', false],
    ['Filtec 4', true],
    ['Unfieldlinkd', false],
  ])('%j -> %s', (custom, expected) => expect(usesNewerFiltecAlarms(custom)).toBe(expected));
});

describe('compareVersions', () => {
  it.each([
    ['1.10', '1.9', 1],
    ['1.9', '1.10', -1],
    ['1.0', '1', 0],
    ['2.0.1', '2.0', 1],
    ['7.50', '7.52', -1],
    ['10', '9', 1],
    ['1.2-beta', '1.2', 0],
    ['', '0', 0],
    ['v1', '0', 0],
  ])('%j vs %j -> %d', (a, b, expected) => expect(compareVersions(a, b)).toBe(expected));

  const version = fc.array(fc.nat({ max: 200 }), { minLength: 1, maxLength: 4 }).map((parts) => parts.join('.'));
  it('is antisymmetric and transitive', () =>
    fc.assert(
      fc.property(version, version, version, (a, b, c) => {
        expect(compareVersions(a, b)).toBe(-compareVersions(b, a) || 0);
        if (compareVersions(a, b) <= 0 && compareVersions(b, c) <= 0)
          expect(compareVersions(a, c)).toBeLessThanOrEqual(0);
      }),
    ));
});
