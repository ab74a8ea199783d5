/**
 * Device diagnostic codes (specification core §8), reported in `health.errorStatus` and shown as
 * "#code message".
 */

/**
 * The specification's constant 24, exported under its original name. Its meaning is not given
 * ("Signed diagnostic ... meaning not shown"); it is kept, unused by the rules here, so that code
 * ported from the original console finds it under the same name. The specification asks for the
 * export itself, so knip is told not to report it.
 *
 * @public
 */
export const uL = 24;

/** Message of the checksum codes. */
export const CHECKSUM_ERROR_MESSAGE = 'Checksum error';

// Ranges are inclusive; the specification lists them as "7, 8, 12 to 15, ...".
const CHECKSUM_RANGES: readonly (readonly [number, number])[] = [
  [7, 8],
  [12, 15],
  [20, 26],
  [30, 36],
  [40, 43],
  [50, 58],
  [60, 63],
  [70, 74],
  [80, 82],
  [90, 94],
  [100, 110],
  [120, 131],
  [150, 153],
  [208, 208],
];

const EEPROM_ERROR = 'EEPROM error, return for servicing';

/** The codes with a message of their own. */
export const DIAGNOSTIC_MESSAGES: ReadonlyMap<number, string> = new Map<number, string>([
  [0, 'Successful power up with no errors'],
  [1, EEPROM_ERROR],
  [2, EEPROM_ERROR],
  [3, EEPROM_ERROR],
  [4, EEPROM_ERROR],
  [5, EEPROM_ERROR],
  [75, EEPROM_ERROR],
  [6, 'RAM error, return for servicing'],
  [9, 'Power supply error'],
  [200, 'RTC missing'],
  [201, 'Clock error'],
  [210, 'Oscillator reduced accuracy'],
  ...CHECKSUM_RANGES.flatMap(([from, to]) =>
    Array.from({ length: to - from + 1 }, (_, i): [number, string] => [from + i, CHECKSUM_ERROR_MESSAGE]),
  ),
]);

/** The message of a diagnostic code, or null when the code is unknown. */
export function diagnosticMessage(code: number): string | null {
  return DIAGNOSTIC_MESSAGES.get(code) ?? null;
}

/** The diagnostic as shown: "#code message", or "#code" alone for an unknown code. */
export function describeDiagnostic(code: number): string {
  const message = diagnosticMessage(code);
  return message === null ? `#${code}` : `#${code} ${message}`;
}
