import { describe, expect, it } from 'vitest';
import { activeAlarmBits, alarmText, matchesSelectedAlarm } from './status-alarms';

describe('status.sp alarm bits', () => {
  it.each([
    [0, []],
    [null, []],
    [undefined, []],
    [0b1100_0000, [6, 7]],
    [1, [0]],
    [2 ** 31, [31]],
    [1.5, []],
  ])('activeAlarmBits(%s)', (mask, bits) => expect(activeAlarmBits(mask)).toEqual(bits));

  it('names the active alarms for the table', () => {
    expect(alarmText(0b1100_0000)).toBe('Alarm 6, Alarm 7');
    expect(alarmText(0)).toBe('');
  });

  it.each([
    [0b1000_0000, 'ANY', true],
    [0, 'ANY', false],
    [0, 'none', true],
    [4, 'NONE', false],
    [0b1000_0000, '7', true],
    [0b1000_0000, ' 7 ', true],
    [0b1000_0000, '6', false],
    [0b1000_0000, '32', false],
    [0b1000_0000, 'seven', false],
  ])('mask %s matches %j: %s', (mask, selected, expected) =>
    expect(matchesSelectedAlarm(mask, selected)).toBe(expected),
  );
});
