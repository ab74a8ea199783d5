/**
 * Alarms a device reports in its status frame: `status.sp` is a bit mask, bit n set while alarm n is
 * active (specification core §3; application §8 names the sprayer's bits). The device table shows
 * them and the ALARM filter selects by them until alarm definitions of their own exist.
 */

/** Highest bit a 32-bit mask can carry. */
export const MAX_ALARM_BIT = 31;

/** The ALARM filter's choice meaning "any alarm active". */
export const ANY_ALARM = 'ANY';
/** The ALARM filter's choice meaning "no alarm active". */
export const NO_ALARM = 'NONE';

/** The active alarm bits of a mask, lowest first (`0b1100_0000` -> [6, 7]). */
export function activeAlarmBits(mask: number | null | undefined): number[] {
  const bits: number[] = [];
  if (!mask || !Number.isInteger(mask)) return bits;
  for (let bit = 0; bit <= MAX_ALARM_BIT; bit += 1) {
    if ((mask >>> bit) & 1) bits.push(bit);
  }
  return bits;
}

/** A bit's name in the table and the filter editor. */
export function alarmBitLabel(bit: number): string {
  return `Alarm ${bit}`;
}

/** The table's alarm cell: the active alarms' names, or empty when none is active. */
export function alarmText(mask: number | null | undefined): string {
  return activeAlarmBits(mask).map(alarmBitLabel).join(', ');
}

/**
 * True when a device with this mask matches the ALARM filter's selected alarm: `ANY`, `NONE`, or a
 * bit number. A selection that is none of these matches nothing.
 */
export function matchesSelectedAlarm(mask: number | null | undefined, selectedAlarm: string): boolean {
  const bits = mask && Number.isInteger(mask) ? mask : 0;
  const choice = selectedAlarm.trim().toUpperCase();
  if (choice === ANY_ALARM) return bits !== 0;
  if (choice === NO_ALARM) return bits === 0;
  if (!/^[0-9]{1,2}$/.test(choice)) return false;
  const bit = Number(choice);
  return bit <= MAX_ALARM_BIT && ((bits >>> bit) & 1) === 1;
}
