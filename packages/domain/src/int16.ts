/**
 * 16-bit register values (specification core §9): devices hold registers as unsigned 16-bit words,
 * while many values mean signed numbers, so they are converted both ways.
 */

/** Smallest and largest signed 16-bit values. */
export const INT16_MIN = -32_768;
export const INT16_MAX = 32_767;
/** Largest unsigned 16-bit value. */
export const UINT16_MAX = 65_535;

/** True for an integer from {@link INT16_MIN} to {@link INT16_MAX}. */
export function isInt16(value: number): boolean {
  return Number.isInteger(value) && value >= INT16_MIN && value <= INT16_MAX;
}

/** True for an integer from 0 to {@link UINT16_MAX}. */
export function isUint16(value: number): boolean {
  return Number.isInteger(value) && value >= 0 && value <= UINT16_MAX;
}

/** What a register holds when written: a 16-bit value, signed or unsigned (-2 and 65534 are one word). */
export const REGISTER_VALUE_RANGE = { min: INT16_MIN, max: UINT16_MAX } as const;
/** Register numbers: 0 to {@link UINT16_MAX}. */
export const REGISTER_NUMBER_RANGE = { min: 0, max: UINT16_MAX } as const;

/** True for a value a register may be written with: {@link isInt16} or {@link isUint16}. */
export function isRegisterValue(value: number): boolean {
  return isInt16(value) || isUint16(value);
}

/**
 * The signed reading of an unsigned 16-bit word (65535 -> -1). Throws a RangeError for anything that is
 * not a 16-bit word: a silently wrapped value would write the wrong number to a device.
 */
export function toSigned16(word: number): number {
  if (!isUint16(word)) throw new RangeError(`Not an unsigned 16-bit value: ${word}`);
  return word > INT16_MAX ? word - 65_536 : word;
}

/** The unsigned 16-bit word of a signed value (-1 -> 65535). Throws a RangeError when out of range. */
export function toUnsigned16(value: number): number {
  if (!isInt16(value)) throw new RangeError(`Not a signed 16-bit value: ${value}`);
  return value < 0 ? value + 65_536 : value;
}
