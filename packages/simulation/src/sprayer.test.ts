import { describe, expect, it } from 'vitest';
import {
  EMPTY_ALARM_BIT,
  EXCESSIVE_SPRAY_Z1_BIT,
  EXCESSIVE_SPRAY_Z2_BIT,
  HIGH_WIND_BIT,
  PUMP_ALARM_BIT,
  REFILL_ALARM_BIT,
  SPRAYER_CHANNELS as CH,
  TANK_LEAK_ALARM_BIT,
  TEST_SPRAY_SECONDS,
  countedSprayerAlarms,
  isSprayer,
  nextScheduledSpray,
  packSpraySchedule,
  sprayScheduleRegisters,
  type SpraySchedule,
} from '@fieldlink/domain/spray';
import {
  BROADCAST_SPRAY_STEPS,
  MANUAL_SPRAY_SECONDS,
  Sprayer,
  SPRAYER_CHANNELS,
  clockPastFactorySprays,
} from './sprayer';

/** Monday 6 January 2025, 05:00 UTC. */
const MONDAY_5AM = Date.UTC(2025, 0, 6, 5);
const bit = (n: number) => 1 << n;

/** A unit without random faults, its tank full, the wind calm, and only `schedule` as T-1. */
function sprayer(schedule?: SpraySchedule, seed = 1): Sprayer {
  const model = new Sprayer({ seed, startTimeMs: MONDAY_5AM, faultsPerDay: 0 });
  for (let index = 0; index < 5; index += 1) {
    const address = sprayScheduleRegisters(index);
    model.writeRegister(address.time, 0);
    model.writeRegister(address.days, 0);
  }
  if (schedule) writeSchedule(model, 0, schedule);
  model.writeChannel(CH.refillLevel, 0);
  model.writeChannel(CH.emptyLevel, 0);
  model.writeChannel('sp4', 150);
  return model;
}

function writeSchedule(model: Sprayer, index: number, schedule: SpraySchedule): void {
  const address = sprayScheduleRegisters(index);
  const packed = packSpraySchedule(schedule);
  expect(model.writeRegister(address.time, packed.time)).toBe(packed.time & 0xffff);
  expect(model.writeRegister(address.days, packed.days)).toBe(packed.days);
}

const value = (model: Sprayer, code: string) => model.values()[code] ?? Number.NaN;

describe('sprayer schedules', () => {
  it('reports its schedules T-1 to T-5 in its registers from the start', () => {
    const model = new Sprayer({ seed: 7, startTimeMs: MONDAY_5AM });
    expect(isSprayer(model.registers())).toBe(true);
    const schedules = model.schedules();
    expect(schedules).toHaveLength(5);
    expect(nextScheduledSpray(schedules, { weekday: 1, minuteOfDay: 300 })).toMatchObject({
      index: 0,
      minuteOfDay: 360,
    });
  });

  it('runs a schedule from its registers: zone 1 then zone 2, counted and timed for the day', () => {
    // 05:02 Monday, 2 steps of 10 s.
    const model = sprayer({ enabled: true, minuteOfDay: 302, durationSteps: 2, days: [1] });
    const level = value(model, CH.tankLevel);
    model.step(115);
    expect(value(model, CH.zone1)).toBe(0);
    model.step(10);
    expect(value(model, CH.zone1)).toBe(1);
    expect(value(model, CH.pumpPressure)).toBeGreaterThan(3);
    model.step(15);
    expect([value(model, CH.zone1), value(model, CH.zone2)]).toEqual([0, 1]);
    model.step(60);
    expect([value(model, CH.zone1), value(model, CH.zone2)]).toEqual([0, 0]);
    expect([value(model, CH.spraysTodayZone1), value(model, CH.spraysTodayZone2)]).toEqual([1, 1]);
    expect([value(model, CH.sprayTimeTodayZone1), value(model, CH.sprayTimeTodayZone2)]).toEqual([20, 20]);
    // 40 s at 0.06 L/s from 400 L: 0.6 % of the tank.
    expect(level - value(model, CH.tankLevel)).toBeGreaterThan(0.3);
    expect(level - value(model, CH.tankLevel)).toBeLessThan(0.9);
    expect(model.statusBits()).toBe(0);
  });

  it('runs its schedules in its local time, moved by a time zone change', () => {
    // 05:00 Monday UTC is 15:00 at UTC+10: a schedule at 15:01 local runs a minute later.
    const model = sprayer({ enabled: true, minuteOfDay: 15 * 60 + 1, durationSteps: 1, days: [1] });
    model.setUtcOffset(600);
    model.step(30);
    expect(value(model, CH.spraysTodayZone1)).toBe(0);
    model.step(40);
    expect(value(model, CH.spraysTodayZone1)).toBe(1);
  });

  it.each([
    ['disabled', { enabled: false, minuteOfDay: 302, durationSteps: 2, days: [1] }],
    ['not on Mondays', { enabled: true, minuteOfDay: 302, durationSteps: 2, days: [0, 2, 3, 4, 5, 6] }],
  ] satisfies [string, SpraySchedule][])('does not spray a schedule that is %s', (_label, schedule) => {
    const model = sprayer(schedule);
    model.step(600);
    expect(value(model, CH.spraysTodayZone1)).toBe(0);
  });

  it('starts the day’s counts again at local midnight', () => {
    const model = sprayer({ enabled: true, minuteOfDay: 302, durationSteps: 1, days: [1] });
    model.step(600);
    expect(value(model, CH.spraysTodayZone1)).toBe(1);
    model.step(19 * 3600);
    expect(value(model, CH.spraysTodayZone1)).toBe(0);
  });
});

describe('a clock moved past the factory sprays', () => {
  /** Wednesday 2 December 2026 (a weekday: T-1 sprays at 06:00), UTC. */
  const at = (hh: number, mm: number, ss = 0) => Date.UTC(2026, 11, 2, hh, mm, ss);
  const WINDOW = 15 * 60_000;

  it.each([
    // [what, now, moved to]
    ['a spray due in a few minutes', at(5, 55), at(6, 2)],
    ['a spray due at the window’s end', at(5, 45), at(6, 2)],
    ['a spray under way', at(6, 0, 30), at(6, 2)],
    ['the evening spray', at(18, 20), at(18, 32)],
    ['nothing due within the window', at(5, 44), null],
    ['a spray long over', at(6, 3), null],
    ['Sunday morning, when T-1 does not run', Date.UTC(2026, 11, 6, 5, 55), null],
  ])('%s', (_what, now, movedTo) => {
    expect(clockPastFactorySprays(now, WINDOW)).toBe(movedTo);
  });

  it.each([at(5, 50), at(5, 59, 50), at(6, 0, 10), at(6, 0, 30), at(18, 29)])(
    'leaves a factory-set sprayer at %i idle for the whole window',
    (now) => {
      // Ten minutes lived up to `now`: a spray due before it is under way, as in the fleet.
      const model = new Sprayer({ seed: 3, startTimeMs: now - 600_000, faultsPerDay: 0 });
      model.writeChannel('sp4', 150);
      model.step(600);
      const moved = clockPastFactorySprays(model.timeMs, WINDOW);
      if (moved !== null) model.step((moved - model.timeMs) / 1000);
      for (let second = 0; second < WINDOW / 1000; second += 5) {
        model.step(5);
        expect([value(model, CH.zone1), value(model, CH.zone2)]).toEqual([0, 0]);
      }
    },
  );
});

describe('sprayer commands', () => {
  it('skip-spray holds scheduled sprays back for the skip time, and needs GPF-9', () => {
    const model = sprayer({ enabled: true, minuteOfDay: 302, durationSteps: 1, days: [1] });
    model.writeChannel('gpf9', 0);
    expect(model.writeChannel(CH.skipSprayActive, 1)).toBeUndefined();
    model.writeChannel('gpf9', 1);
    model.writeChannel('sp2', 2);
    expect(model.writeChannel(CH.skipSprayActive, 1)).toBe(1);
    expect(value(model, CH.skipTime)).toBe(120);
    model.step(600);
    expect(value(model, CH.spraysTodayZone1)).toBe(0);
    expect(value(model, CH.skipSprayActive)).toBe(1);
    expect(value(model, CH.skipTime)).toBe(110);
    expect(model.writeChannel(CH.skipSprayActive, 0)).toBe(0);
    expect(value(model, CH.skipTime)).toBe(0);
  });

  it('a manual spray runs the chosen zone until stopped or its time is up', () => {
    const model = sprayer();
    expect(model.writeChannel(CH.manualSprayControl, 2)).toBe(2);
    model.step(5);
    expect([value(model, CH.zone1), value(model, CH.zone2), value(model, CH.manualSprayControl)]).toEqual([0, 1, 2]);
    expect(model.writeChannel(CH.manualSprayControl, 0)).toBe(0);
    model.step(5);
    expect(value(model, CH.zone2)).toBe(0);
    model.writeChannel(CH.manualSprayControl, 1);
    model.step(MANUAL_SPRAY_SECONDS + 5);
    expect(value(model, CH.zone1)).toBe(0);
    expect(value(model, CH.sprayTimeTodayZone1)).toBe(MANUAL_SPRAY_SECONDS);
  });

  it('a zone relay switched on is a manual spray of that zone, refused while the tank is empty', () => {
    const model = sprayer();
    expect(model.writeChannel(CH.zone2, 1)).toBe(1);
    model.step(5);
    expect([value(model, CH.zone1), value(model, CH.zone2)]).toEqual([0, 1]);
    expect(model.writeChannel(CH.zone2, 0)).toBe(0);
    expect(value(model, CH.zone2)).toBe(0);
    model.writeChannel(CH.emptyLevel, 100);
    expect(model.writeChannel(CH.zone1, 1)).toBeUndefined();
  });

  it('a broadcast spray runs both zones for its steps, unless the unit does not accept broadcasts (GPF-11)', () => {
    const model = sprayer();
    model.writeChannel('gpf11', 0);
    expect(model.writeChannel(CH.broadcastSpray, 1)).toBeUndefined();
    model.writeChannel('gpf11', 1);
    expect(model.writeChannel(CH.broadcastSpray, 1)).toBe(1);
    model.step(2 * BROADCAST_SPRAY_STEPS * 10 + 10);
    expect([value(model, CH.sprayTimeTodayZone1), value(model, CH.sprayTimeTodayZone2)]).toEqual([
      BROADCAST_SPRAY_STEPS * 10,
      BROADCAST_SPRAY_STEPS * 10,
    ]);
  });
});

describe('sprayer alarms', () => {
  it('the Empty Alarm blocks scheduled, manual and broadcast sprays; a test spray still runs; refill clears it', () => {
    const model = sprayer({ enabled: true, minuteOfDay: 302, durationSteps: 1, days: [1] });
    model.writeChannel(CH.emptyLevel, 100);
    model.writeChannel(CH.refillLevel, 100);
    expect(model.statusBits() & (bit(EMPTY_ALARM_BIT) | bit(REFILL_ALARM_BIT))).toBe(
      bit(EMPTY_ALARM_BIT) | bit(REFILL_ALARM_BIT),
    );
    expect(model.writeChannel(CH.manualSprayControl, 1)).toBeUndefined();
    expect(model.writeChannel(CH.broadcastSpray, 1)).toBeUndefined();
    model.step(300);
    expect(value(model, CH.spraysTodayZone1)).toBe(0);
    expect(model.writeChannel(CH.testSpray, 1)).toBe(1);
    model.step(2 * TEST_SPRAY_SECONDS + 5);
    expect([value(model, CH.sprayTimeTodayZone1), value(model, CH.sprayTimeTodayZone2)]).toEqual([
      TEST_SPRAY_SECONDS,
      TEST_SPRAY_SECONDS,
    ]);
    // The service visit comes within eight hours and fills the tank.
    model.writeChannel(CH.emptyLevel, 10);
    model.writeChannel(CH.refillLevel, 25);
    model.step(8 * 3600);
    expect(value(model, CH.tankLevel)).toBeGreaterThan(90);
    expect(model.statusBits() & (bit(EMPTY_ALARM_BIT) | bit(REFILL_ALARM_BIT))).toBe(0);
  });

  it('wind above the limit raises the High Wind Speed Warning, which stops every spray until it drops', () => {
    const model = sprayer();
    model.writeChannel('sp4', 1);
    model.step(60);
    expect(model.statusBits() & bit(HIGH_WIND_BIT)).toBe(bit(HIGH_WIND_BIT));
    expect(model.writeChannel(CH.manualSprayControl, 1)).toBeUndefined();
    expect(model.writeChannel(CH.testSpray, 1)).toBeUndefined();
    expect(model.writeChannel(CH.broadcastSpray, 1)).toBeUndefined();
    model.writeChannel('sp4', 150);
    model.step(60);
    expect(model.statusBits() & bit(HIGH_WIND_BIT)).toBe(0);
    expect(model.writeChannel(CH.manualSprayControl, 1)).toBe(1);
  });

  it('a spray that leaves the level unchanged raises the Pump Alarm; one faster than the max rate Excessive Spray', () => {
    const model = sprayer();
    model.writeChannel('sp7', 10);
    model.writeChannel(CH.maxSprayRateZone1, 0.5);
    model.writeChannel(CH.broadcastSpray, 1);
    model.step(120);
    expect(model.statusBits() & (bit(PUMP_ALARM_BIT) | bit(EXCESSIVE_SPRAY_Z1_BIT) | bit(EXCESSIVE_SPRAY_Z2_BIT))).toBe(
      bit(PUMP_ALARM_BIT) | bit(EXCESSIVE_SPRAY_Z1_BIT),
    );
    // Reported on their s{n} channels, so the console counts them.
    const channels = SPRAYER_CHANNELS.map((channel) => ({ code: channel.code, alarm: channel.alarm ?? false }));
    expect(countedSprayerAlarms(model.statusBits(), channels)).toEqual([EXCESSIVE_SPRAY_Z1_BIT, PUMP_ALARM_BIT]);
    expect([value(model, 's4'), value(model, 's5'), value(model, 's10')]).toEqual([1, 0, 1]);
  });

  it('faults raise the leak, pump and excessive spray alarms, and a service visit clears them', () => {
    const seen = new Set<number>();
    let cleared = false;
    const latched =
      bit(TANK_LEAK_ALARM_BIT) | bit(PUMP_ALARM_BIT) | bit(EXCESSIVE_SPRAY_Z1_BIT) | bit(EXCESSIVE_SPRAY_Z2_BIT);
    const model = new Sprayer({ seed: 11, startTimeMs: MONDAY_5AM, faultsPerDay: 12 });
    model.writeChannel('sp4', 150);
    for (let minute = 0; minute < 8 * 24 * 60; minute += 10) {
      const before = model.statusBits() & latched;
      model.step(600);
      const after = model.statusBits() & latched;
      for (const alarm of [TANK_LEAK_ALARM_BIT, PUMP_ALARM_BIT, EXCESSIVE_SPRAY_Z1_BIT, EXCESSIVE_SPRAY_Z2_BIT]) {
        if (after & bit(alarm)) seen.add(alarm);
      }
      if (before !== 0 && after === 0) cleared = true;
    }
    expect([...seen].sort((a, b) => a - b)).toEqual([4, 5, 9, 10]);
    expect(cleared).toBe(true);
  });
});
