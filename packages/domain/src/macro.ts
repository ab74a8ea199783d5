/**
 * Custom macro versions (specification core §5, application §4, §5). A device's `custom` string names
 * its custom macro and version, e.g. `Vats 4.1` or `BrewCtl 7.52`; `Unfieldlinkd` means none.
 */

/** The custom string of a device without a custom macro (`Un{product}d`). */
export const NO_CUSTOM_MACRO = 'Unfieldlinkd';
/** Versions below this select the legacy tank channel. */
export const MACRO_VERSION_THRESHOLD = 7.5;
/** Tank channel of macros below {@link MACRO_VERSION_THRESHOLD} and of devices without a macro. */
export const LEGACY_TANK_CHANNEL = 'c3';
/** Tank channel of macros from {@link MACRO_VERSION_THRESHOLD} on. */
export const TANK_CHANNEL = 'a5';
/** The vats feature needs this text in the custom string... */
export const VATS_MARKER = 'Vats';
/** ...and at least this version. */
export const VATS_MIN_VERSION = 4.0;
/** The filtec app type uses the newer alarm version above this macro version. */
export const FILTEC_NEWER_ALARM_ABOVE = 3.0;
/** Bits 6 and 7 of a vat status register: both set marks the vat. */
export const VAT_MARK_MASK = 0b1100_0000;

// Macro versions are decimals written with two places (7.50, 3.00): 7.5 and 7.50 are the same version.
const DECIMAL_RE = /[0-9]+(?:\.[0-9]+)?/g;

/** True when the custom string says there is no custom macro (missing, empty or `Unfieldlinkd`). */
export function hasNoCustomMacro(custom: string | null | undefined): boolean {
  const text = (custom ?? '').trim();
  // The specification spells it both `Un{product}d` and `un{product}d`.
  return text === '' || text.toLowerCase() === NO_CUSTOM_MACRO.toLowerCase();
}

/**
 * The macro version in a custom string, read as a decimal (`BrewCtl 7.52` -> 7.52), or null when there
 * is no macro or no number. The last number wins, so a digit in the macro's name (`Filtec2 3.10`) is
 * not taken for its version.
 */
export function parseMacroVersion(custom: string | null | undefined): number | null {
  if (hasNoCustomMacro(custom)) return null;
  const numbers = (custom ?? '').match(DECIMAL_RE);
  const last = numbers?.[numbers.length - 1];
  return last === undefined ? null : Number(last);
}

/**
 * The channel holding a tank's level: `c3` below version 7.50 or without a macro, else `a5`. A custom
 * string without a readable version counts as below: such macros predate the move to `a5`.
 */
export function tankChannel(custom: string | null | undefined): typeof LEGACY_TANK_CHANNEL | typeof TANK_CHANNEL {
  const version = parseMacroVersion(custom);
  return version === null || version < MACRO_VERSION_THRESHOLD ? LEGACY_TANK_CHANNEL : TANK_CHANNEL;
}

/** The Vats flag: the custom string contains `Vats` and its version is 4.0 or later. */
export function hasVatsFlag(custom: string | null | undefined): boolean {
  if (!(custom ?? '').includes(VATS_MARKER)) return false;
  const version = parseMacroVersion(custom);
  return version !== null && version >= VATS_MIN_VERSION;
}

/** True when bits 6 and 7 of a vat status register are both set. Works on signed readings too. */
export function isVatStatusMarked(statusRegister: number): boolean {
  return (statusRegister & VAT_MARK_MASK) === VAT_MARK_MASK;
}

/** A vat is marked only on devices with the Vats flag, when its status register has bits 6 and 7 set. */
export function isVatMarked(custom: string | null | undefined, statusRegister: number): boolean {
  return hasVatsFlag(custom) && isVatStatusMarked(statusRegister);
}

/** True when a filtec device uses the newer alarm version: macro version greater than 3.00. */
export function usesNewerFiltecAlarms(custom: string | null | undefined): boolean {
  const version = parseMacroVersion(custom);
  return version !== null && version > FILTEC_NEWER_ALARM_ABOVE;
}

/**
 * Compares dot-separated integer versions (`1.10` after `1.9`; `1.0` equals `1`), for sorting and
 * version filters. A part that does not start with digits counts as 0. Returns -1, 0 or 1.
 */
export function compareVersions(a: string, b: string): -1 | 0 | 1 {
  const left = versionParts(a);
  const right = versionParts(b);
  for (let i = 0; i < Math.max(left.length, right.length); i += 1) {
    const difference = (left[i] ?? 0) - (right[i] ?? 0);
    if (difference !== 0) return difference < 0 ? -1 : 1;
  }
  return 0;
}

function versionParts(version: string): number[] {
  return version
    .trim()
    .split('.')
    .map((part) => {
      const digits = /^[0-9]+/.exec(part.trim());
      return digits ? Number(digits[0]) : 0;
    });
}
