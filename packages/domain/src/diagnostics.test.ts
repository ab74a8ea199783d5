import { describe, expect, it } from 'vitest';
import { describeDiagnostic, diagnosticMessage, uL } from './diagnostics';

const EEPROM = 'EEPROM error, return for servicing';
const CHECKSUM_CODES = [
  7, 8, 12, 13, 14, 15, 20, 21, 22, 23, 24, 25, 26, 30, 31, 32, 33, 34, 35, 36, 40, 41, 42, 43, 50, 51, 52, 53, 54, 55,
  56, 57, 58, 60, 61, 62, 63, 70, 71, 72, 73, 74, 80, 81, 82, 90, 91, 92, 93, 94, 100, 101, 102, 103, 104, 105, 106,
  107, 108, 109, 110, 120, 121, 122, 123, 124, 125, 126, 127, 128, 129, 130, 131, 150, 151, 152, 153, 208,
];

describe('describeDiagnostic', () => {
  it.each([
    [0, '#0 Successful power up with no errors'],
    [1, `#1 ${EEPROM}`],
    [2, `#2 ${EEPROM}`],
    [3, `#3 ${EEPROM}`],
    [4, `#4 ${EEPROM}`],
    [5, `#5 ${EEPROM}`],
    [75, `#75 ${EEPROM}`],
    [6, '#6 RAM error, return for servicing'],
    [9, '#9 Power supply error'],
    [200, '#200 RTC missing'],
    [201, '#201 Clock error'],
    [210, '#210 Oscillator reduced accuracy'],
  ])('%d -> %s', (code, expected) => expect(describeDiagnostic(code)).toBe(expected));

  it.each(CHECKSUM_CODES)('%d is a checksum error', (code) =>
    expect(describeDiagnostic(code)).toBe(`#${code} Checksum error`),
  );

  it.each([10, 11, 16, 19, 27, 29, 37, 44, 59, 64, 76, 83, 95, 111, 132, 149, 154, 202, 207, 209, 211, 999, -1])(
    'shows unknown code %d as-is',
    (code) => {
      expect(diagnosticMessage(code)).toBeNull();
      expect(describeDiagnostic(code)).toBe(`#${code}`);
    },
  );

  it('knows exactly the listed codes', () => {
    const known = Array.from({ length: 300 }, (_, code) => code).filter((code) => diagnosticMessage(code) !== null);
    expect(known).toEqual([0, 1, 2, 3, 4, 5, 6, ...CHECKSUM_CODES, 9, 75, 200, 201, 210].sort((a, b) => a - b));
  });
});

it('exports the constant uL as 24', () => expect(uL).toBe(24));
