import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BROADCAST_SPRAY_COOLDOWN_SECONDS,
  DURATION_ERROR,
  durationRule,
  NO_DAY_SELECTED,
  SPRAYER_ALARMS,
  SPRAY_PARAMETERS,
  UNSUPPORTED_TIME,
  WEEKDAYS,
  ZERO_DURATION,
  activeSprayerAlarms,
  broadcastRetryAfterSeconds,
  broadcastSprayWaitMessage,
  checkSprayScheduleForm,
  countedSprayerAlarms,
  durationSteps,
  formatSprayTime,
  isSprayer,
  nextScheduledSpray,
  packSpraySchedule,
  parseSprayTime,
  schedulesFromRegisters,
  schedulesStartingAt,
  weekTimeAt,
  sprayBlockedBy,
  sprayScheduleCode,
  sprayScheduleRegisters,
  unpackSpraySchedule,
  type SpraySchedule,
  type Weekday,
} from './spray';
import { parseChannelCode, formatChannelCode } from './channels';

const schedule = (overrides: Partial<SpraySchedule> = {}): SpraySchedule => ({
  enabled: true,
  minuteOfDay: 390,
  durationSteps: 3,
  days: [1, 3, 5],
  ...overrides,
});

describe('register packing', () => {
  it.each([
    ['06:30, 3 steps, enabled, Mon Wed Fri', schedule(), { time: -32768 + 390 + (3 << 11), days: 0b0101010 }],
    ['disabled keeps the bit clear', schedule({ enabled: false }), { time: 390 + (3 << 11), days: 0b0101010 }],
    [
      'midnight, 1 step, Sunday',
      schedule({ minuteOfDay: 0, durationSteps: 1, days: [0] }),
      { time: -32768 + 2048, days: 1 },
    ],
    [
      '23:59, 15 steps, every day',
      schedule({ minuteOfDay: 1439, durationSteps: 15, days: [...WEEKDAYS] }),
      { time: -1 - (2047 - 1439), days: 127 },
    ],
    [
      'Saturday is bit 6',
      schedule({ enabled: false, minuteOfDay: 0, durationSteps: 0, days: [6] }),
      { time: 0, days: 64 },
    ],
  ])('%s', (_label, input, registers) => {
    expect(packSpraySchedule(input)).toEqual(registers);
    expect(unpackSpraySchedule(registers)).toEqual(input);
  });

  it.each([
    ['signed and unsigned words read the same', { time: 65535, days: 65535 }, { time: -1, days: -1 }],
    ['a high word written unsigned', { time: 32768 + 390, days: 2 }, { time: -32768 + 390, days: 2 }],
  ])('%s', (_label, unsigned, signed) => {
    expect(unpackSpraySchedule(unsigned)).toEqual(unpackSpraySchedule(signed));
  });

  it.each([
    ['minute past 11 bits', schedule({ minuteOfDay: 2048 })],
    ['negative minute', schedule({ minuteOfDay: -1 })],
    ['16 steps', schedule({ durationSteps: 16 })],
    ['fractional steps', schedule({ durationSteps: 1.5 })],
  ])('refuses a schedule that does not fit: %s', (_label, input) => {
    expect(() => packSpraySchedule(input)).toThrow(RangeError);
  });

  it('refuses a register value outside 16 bits', () => {
    expect(() => unpackSpraySchedule({ time: 65536, days: 0 })).toThrow(RangeError);
    expect(() => unpackSpraySchedule({ time: 0, days: -32769 })).toThrow(RangeError);
  });

  const scheduleArb = fc.record({
    enabled: fc.boolean(),
    minuteOfDay: fc.integer({ min: 0, max: 2047 }),
    durationSteps: fc.integer({ min: 0, max: 15 }),
    days: fc.subarray([...WEEKDAYS] as Weekday[]),
  });

  it('pack then unpack is the identity', () => {
    fc.assert(
      fc.property(scheduleArb, (input) => {
        expect(unpackSpraySchedule(packSpraySchedule(input))).toEqual(input);
      }),
    );
  });

  it('unpack then pack is the identity on every time word and day word', () => {
    fc.assert(
      fc.property(fc.integer({ min: -32768, max: 65535 }), fc.integer({ min: 0, max: 127 }), (time, days) => {
        const packed = packSpraySchedule(unpackSpraySchedule({ time, days }));
        expect(packed).toEqual({ time: time > 32767 ? time - 65536 : time, days });
      }),
    );
  });

  it('packs into signed 16-bit values', () => {
    fc.assert(
      fc.property(scheduleArb, (input) => {
        const { time, days } = packSpraySchedule(input);
        for (const value of [time, days]) {
          expect(Number.isInteger(value) && value >= -32768 && value <= 32767).toBe(true);
        }
      }),
    );
  });
});

describe('schedule validation', () => {
  const form = { enabled: true, time: '06:30', durationSeconds: 30, days: [1] as Weekday[] };

  it.each([
    ['valid', form, { ok: true, schedule: { enabled: true, minuteOfDay: 390, durationSteps: 3, days: [1] } }],
    [
      'one-digit hour',
      { ...form, time: '6:05' },
      { ok: true, schedule: expect.objectContaining({ minuteOfDay: 365 }) },
    ],
    ['time without colon', { ...form, time: '0630' }, { ok: false, message: UNSUPPORTED_TIME }],
    ['hour 24', { ...form, time: '24:00' }, { ok: false, message: UNSUPPORTED_TIME }],
    ['minute 60', { ...form, time: '12:60' }, { ok: false, message: UNSUPPORTED_TIME }],
    ['empty time', { ...form, time: '' }, { ok: false, message: UNSUPPORTED_TIME }],
    ['am/pm', { ...form, time: '6:30 pm' }, { ok: false, message: UNSUPPORTED_TIME }],
    ['zero duration', { ...form, durationSeconds: 0 }, { ok: false, message: ZERO_DURATION }],
    ['under one step', { ...form, durationSeconds: 9 }, { ok: false, message: ZERO_DURATION }],
    ['duration text', { ...form, durationSeconds: 'abc' }, { ok: false, message: DURATION_ERROR }],
    ['blank duration', { ...form, durationSeconds: ' ' }, { ok: false, message: DURATION_ERROR }],
    ['negative duration', { ...form, durationSeconds: -10 }, { ok: false, message: DURATION_ERROR }],
    ['more steps than 4 bits', { ...form, durationSeconds: 160 }, { ok: false, message: DURATION_ERROR }],
    ['no day', { ...form, days: [] }, { ok: false, message: NO_DAY_SELECTED }],
    [
      'time is checked first',
      { ...form, time: 'x', durationSeconds: 0, days: [] },
      { ok: false, message: UNSUPPORTED_TIME },
    ],
    ['duration before days', { ...form, durationSeconds: 0, days: [] }, { ok: false, message: ZERO_DURATION }],
    [
      'days sorted and unique',
      { ...form, days: [5, 1, 5] as Weekday[] },
      { ok: true, schedule: expect.objectContaining({ days: [1, 5] }) },
    ],
  ])('%s', (_label, input, expected) => expect(checkSprayScheduleForm(input, 10)).toEqual(expected));

  it.each([
    [30, 10, 3],
    ['30', 10, 3],
    [35, 10, 3],
    [150, 10, 15],
    [10, 0, DURATION_ERROR],
    [10, Number.NaN, DURATION_ERROR],
    [Number.POSITIVE_INFINITY, 10, DURATION_ERROR],
  ])('duration %j with step %d -> %j', (seconds, step, expected) =>
    expect(durationSteps(seconds, step)).toBe(expected),
  );

  it.each([
    ['00:00', 0],
    ['23:59', 1439],
    ['07:5', null],
    [' 7:45 ', 465],
  ])('time %j -> %j', (text, minutes) => expect(parseSprayTime(text)).toBe(minutes));

  it('formats minutes as HH:MM and back', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1439 }), (minutes) => {
        expect(parseSprayTime(formatSprayTime(minutes))).toBe(minutes);
      }),
    );
  });
});

describe('parameter codes and registers', () => {
  it('names the specification’s codes, each on the channel its code spells', () => {
    expect(SPRAY_PARAMETERS.map((parameter) => parameter.code)).toEqual([
      'SP-1',
      'SP-2',
      'SP-4',
      'SP-5',
      'SP-6',
      'SP-7',
      'GPF-9',
      'GPF-11',
    ]);
    for (const parameter of SPRAY_PARAMETERS) {
      expect(formatChannelCode(parseChannelCode(parameter.code)!)).toBe(parameter.channel);
    }
  });

  it.each([
    [0, 'T-1', 5400, 5401],
    [4, 'T-5', 5408, 5409],
  ])('schedule %d is %s at registers %d and %d', (index, code, time, days) => {
    expect(sprayScheduleCode(index)).toBe(code);
    expect(sprayScheduleRegisters(index)).toEqual({ time, days });
  });

  it('reads the schedules from a device’s registers, null where missing', () => {
    const packed = packSpraySchedule(schedule());
    const registers = { '5400': packed.time + 65536, '5401': packed.days, '5404': 0, '5405': 0 };
    expect(schedulesFromRegisters(registers)).toEqual([
      schedule(),
      null,
      { enabled: false, minuteOfDay: 0, durationSteps: 0, days: [] },
      null,
      null,
    ]);
    expect(isSprayer(registers)).toBe(true);
    expect(isSprayer({ '5400': 1 })).toBe(false);
    expect(isSprayer(undefined)).toBe(false);
  });
});

describe('schedule timing', () => {
  const schedules = [
    schedule({ minuteOfDay: 360, days: [1, 3, 5] }),
    null,
    schedule({ minuteOfDay: 1080, days: [0] }),
    schedule({ enabled: false, minuteOfDay: 400, days: [1] }),
    schedule({ minuteOfDay: 360, days: [1] }),
  ];

  it.each([
    [
      'Monday 05:00: Monday 06:00 is next, the lower number wins a tie',
      { weekday: 1, minuteOfDay: 300 },
      { index: 0, weekday: 1, minuteOfDay: 360, minutesAhead: 60 },
    ],
    [
      'at the start minute the next is later',
      { weekday: 1, minuteOfDay: 360 },
      { index: 0, weekday: 3, minuteOfDay: 360, minutesAhead: 2880 },
    ],
    [
      'Saturday night wraps to Sunday',
      { weekday: 6, minuteOfDay: 1200 },
      { index: 2, weekday: 0, minuteOfDay: 1080, minutesAhead: 1320 },
    ],
    [
      'Sunday after 18:00 wraps to Monday',
      { weekday: 0, minuteOfDay: 1100 },
      { index: 0, weekday: 1, minuteOfDay: 360, minutesAhead: 700 },
    ],
  ] as const)('%s', (_label, from, next) => expect(nextScheduledSpray(schedules, from)).toEqual(next));

  it.each([
    ['Monday 6 January 2025 05:00 UTC', Date.UTC(2025, 0, 6, 5), 0, { weekday: 1, minuteOfDay: 300 }],
    ['the same instant at UTC+10', Date.UTC(2025, 0, 6, 5), 600, { weekday: 1, minuteOfDay: 900 }],
    ['Sunday night at UTC-6 from Monday 03:00 UTC', Date.UTC(2025, 0, 6, 3), -360, { weekday: 0, minuteOfDay: 1260 }],
    ['Saturday 23:59:59 UTC', Date.UTC(2025, 0, 4, 23, 59, 59), 0, { weekday: 6, minuteOfDay: 1439 }],
    ['before 1970', Date.UTC(1969, 11, 31, 12), 0, { weekday: 3, minuteOfDay: 720 }],
  ])('week time of %s', (_label, time, offset, expected) => expect(weekTimeAt(time, offset)).toEqual(expected));

  it('a single weekly schedule is next a week later at its own minute', () => {
    expect(nextScheduledSpray([schedule({ days: [2] })], { weekday: 2, minuteOfDay: 390 })?.minutesAhead).toBe(10080);
  });

  it.each([
    ['none', []],
    ['disabled', [schedule({ enabled: false })]],
    ['no day', [schedule({ days: [] })]],
    ['time past the day', [schedule({ minuteOfDay: 1500 })]],
    ['zero duration', [schedule({ durationSteps: 0 })]],
  ])('no next spray: %s', (_label, list) =>
    expect(nextScheduledSpray(list, { weekday: 0, minuteOfDay: 0 })).toBeNull(),
  );

  it.each([
    [{ weekday: 1, minuteOfDay: 360 }, [0, 4]],
    [{ weekday: 3, minuteOfDay: 360 }, [0]],
    [{ weekday: 1, minuteOfDay: 400 }, []],
    [{ weekday: 0, minuteOfDay: 1080 }, [2]],
  ] as const)('starting at %j: %j', (at, indexes) => expect(schedulesStartingAt(schedules, at)).toEqual(indexes));
});

describe('sprayer alarms', () => {
  it('names the specification’s bits', () => {
    expect(SPRAYER_ALARMS.map((alarm) => `${alarm.bit} ${alarm.name}`)).toEqual([
      '4 Excessive Spray Z1',
      '5 Excessive Spray Z2',
      '6 Empty Alarm',
      '7 Refill Alarm',
      '9 Tank Leak Alarm',
      '10 Pump Alarm',
      '12 Level Sensor Overflow',
      '13 Level Sensor Fault',
      '14 High Wind Speed Warning',
      '16 Blower Pump Alarm',
    ]);
  });

  it('lists the active named alarms, skipping bits the sprayer does not name', () => {
    expect(activeSprayerAlarms((1 << 6) | (1 << 8) | (1 << 16)).map((alarm) => alarm.bit)).toEqual([6, 16]);
    expect(activeSprayerAlarms(null)).toEqual([]);
  });

  const all = SPRAYER_ALARMS.reduce((mask, alarm) => mask | (1 << alarm.bit), 0);
  const channels = (...codes: string[]) => codes.map((code) => ({ code, upload: true }));

  it.each([
    [
      'every counted bit with its channel',
      all,
      channels('s4', 's5', 's9', 's10', 's12', 's13', 's16'),
      [4, 5, 9, 10, 12, 13, 16],
    ],
    ['empty, refill and wind are never counted', (1 << 6) | (1 << 7) | (1 << 14), channels('s6', 's7', 's14'), []],
    ['a bit without its channel is not counted', (1 << 4) | (1 << 5), channels('s4'), [4]],
    ['alarm flag alone counts', 1 << 9, [{ code: 's9', alarm: true }], [9]],
    ['neither flag: not counted', 1 << 9, [{ code: 's9', upload: false, alarm: false }], []],
    ['sp9 is not s9', 1 << 9, channels('sp9'), []],
    ['codes in capitals', 1 << 10, channels('S10'), [10]],
    ['no configuration', all, undefined, []],
    ['no mask', undefined, channels('s4'), []],
  ])('%s', (_label, mask, configured, counted) => expect(countedSprayerAlarms(mask, configured)).toEqual(counted));

  it.each([
    ['nothing active', 0, [null, null, null, null]],
    ['refill does not block', 1 << 7, [null, null, null, null]],
    ['empty blocks all but test sprays', 1 << 6, ['Empty Alarm', 'Empty Alarm', null, 'Empty Alarm']],
    [
      'high wind blocks every spray',
      1 << 14,
      ['High Wind Speed Warning', 'High Wind Speed Warning', 'High Wind Speed Warning', 'High Wind Speed Warning'],
    ],
    [
      'wind named before empty',
      (1 << 6) | (1 << 14),
      ['High Wind Speed Warning', 'High Wind Speed Warning', 'High Wind Speed Warning', 'High Wind Speed Warning'],
    ],
    ['pump and leak alarms do not block', (1 << 9) | (1 << 10), [null, null, null, null]],
  ])('%s', (_label, mask, reasons) => {
    expect(
      (['scheduled', 'manual', 'test', 'broadcast'] as const).map((kind) => sprayBlockedBy(mask, kind)?.name ?? null),
    ).toEqual(reasons);
  });
});

describe('broadcast spray cool-down', () => {
  const start = 1_700_000_000_000;
  it.each([
    ['never broadcast', null, start, 0],
    ['just now', start, start, BROADCAST_SPRAY_COOLDOWN_SECONDS],
    ['half a second ago rounds up', start, start + 500, BROADCAST_SPRAY_COOLDOWN_SECONDS],
    ['a second before the end', start, start + (BROADCAST_SPRAY_COOLDOWN_SECONDS - 1) * 1000, 1],
    ['at the end', start, start + BROADCAST_SPRAY_COOLDOWN_SECONDS * 1000, 0],
    ['long ago', start, start + 86_400_000, 0],
  ])('%s', (_label, last, now, seconds) => expect(broadcastRetryAfterSeconds(last, now)).toBe(seconds));

  it('says how long to wait in the specification’s words', () => {
    expect(broadcastSprayWaitMessage(42)).toBe(
      'Broadcast spray has recently been initiated. Please wait 42 seconds before trying again.',
    );
  });
});

// Issue 36 item 5: §5's duration messages keep their words; the rule is said beside them.
describe('the duration rule beside the messages', () => {
  const rule10 = 'Durations are whole steps of 10 s (SP-1): 10 s to 150 s.';
  it.each<[number | string, number, string | null]>([
    [10, 10, null],
    [150, 10, null],
    ['35', 10, null],
    [7, 10, `7 s is less than one step, and a part step is not sprayed. ${rule10}`],
    [0, 10, `0 s is less than one step, and a part step is not sprayed. ${rule10}`],
    ['9', 10, `9 s is less than one step, and a part step is not sprayed. ${rule10}`],
    [160, 10, `160 s is more than 15 steps. ${rule10}`],
    [64, 4, '64 s is more than 15 steps. Durations are whole steps of 4 s (SP-1): 4 s to 60 s.'],
    ['', 10, `Give the duration in seconds. ${rule10}`],
    ['abc', 10, `Give the duration in seconds. ${rule10}`],
    [-10, 10, `Give the duration in seconds. ${rule10}`],
    [10, 0, 'The duration step (SP-1) is not known, so no duration can be worked out.'],
  ])('duration %j with step %d', (seconds, step, expected) => expect(durationRule(seconds, step)).toBe(expected));
});
