/**
 * Hardware strings (specification core §3): a device reports its hardware as colon-separated fields,
 * `FAMILY[:REVISION[:OPTION...]]`, e.g. `ZEN_IOT:rev3:4G`. Documented in docs/device-protocol.md.
 */

/** Hardware families the console knows. */
export const HARDWARE_FAMILIES = ['NIM2', 'NIM3', 'ZEN6', 'ZEN_IOT', 'ZEN_G3'] as const;
export type HardwareFamily = (typeof HARDWARE_FAMILIES)[number];

/** A hardware string taken apart. */
export interface HardwareDescription {
  /** The known family, or null when the first field names none. */
  family: HardwareFamily | null;
  /** The second field (board revision), or null when absent or empty. */
  revision: string | null;
  /** Any further fields (fitted options such as `4G`, `WIFI`), empty ones dropped. */
  options: string[];
}

const FAMILY_SET: ReadonlySet<string> = new Set(HARDWARE_FAMILIES);

function isHardwareFamily(text: string): text is HardwareFamily {
  return FAMILY_SET.has(text);
}

/** Takes a hardware string apart. Fields are trimmed; the family is matched without regard to case. */
export function parseHardwareString(hw: string | null | undefined): HardwareDescription {
  const [first = '', second = '', ...rest] = (hw ?? '').split(':').map((field) => field.trim());
  const family = first.toUpperCase();
  return {
    family: isHardwareFamily(family) ? family : null,
    revision: second === '' ? null : second,
    options: rest.filter((field) => field !== ''),
  };
}

/** The hardware family of a hardware string (`ZEN_IOT:rev3:4G` -> `ZEN_IOT`), or null when unknown. */
export function parseHardwareFamily(hw: string | null | undefined): HardwareFamily | null {
  return parseHardwareString(hw).family;
}
