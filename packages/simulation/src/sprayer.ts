import {
  COUNTED_SPRAYER_ALARM_BITS,
  EMPTY_ALARM_BIT,
  EXCESSIVE_SPRAY_Z1_BIT,
  EXCESSIVE_SPRAY_Z2_BIT,
  HIGH_WIND_BIT,
  PUMP_ALARM_BIT,
  REFILL_ALARM_BIT,
  SPRAYER_ALARMS,
  SPRAYER_CHANNELS as CH,
  SPRAY_PARAMETERS,
  SPRAY_SCHEDULE_COUNT,
  TANK_LEAK_ALARM_BIT,
  TEST_SPRAY_SECONDS,
  nextScheduledSpray,
  packSpraySchedule,
  schedulesFromRegisters,
  schedulesStartingAt,
  sprayBlockedBy,
  sprayScheduleRegisters,
  weekTimeAt,
  type SprayKind,
  type SpraySchedule,
} from '@fieldlink/domain/spray';
import { clamp, hourBump, roundTo } from './daily-cycle';
import { PlantModel, type ChannelSpec, type PlantModelOptions } from './plant-model';

/**
 * A two-zone orchard sprayer. It runs its spray schedules T-1 to T-5 from its registers (zone 1, then
 * zone 2, each for the schedule's duration steps of SP-1 seconds), draws each spray from a chemical
 * tank, and raises the §8 alarm bits when their conditions happen: the refill and empty levels, a
 * tank leak (the level falls between sprays), a failed pump (a spray leaves the level unchanged), a
 * broken nozzle (a zone sprays faster than its max rate allows) and wind above the limit. It takes
 * manual, test and broadcast sprays and skip-spray through its flag channels, and counts sprays and
 * spray seconds per zone for the local day. A service visit some hours after an alarm refills the
 * tank and repairs whatever broke. Parameter and channel meanings: docs/decisions.md, "Spray control".
 */

const ALARM_CHANNEL_BITS = COUNTED_SPRAYER_ALARM_BITS;

/** Parameter channels (SP-1 ... GPF-11) and the other setpoints the unit keeps. */
type ParameterChannel = 'sp1' | 'sp2' | 'sp4' | 'sp5' | 'sp6' | 'sp7' | 'gpf9' | 'gpf11';
type SetpointChannel = 'sp8' | 'sp9' | 'sp10' | 'sp11';
const PARAMETER_CHANNELS: readonly string[] = SPRAY_PARAMETERS.map((parameter) => parameter.channel);
const SETPOINT_CHANNELS: readonly string[] = [
  CH.maxSprayRateZone1,
  CH.maxSprayRateZone2,
  CH.emptyLevel,
  CH.refillLevel,
];
const isParameterChannel = (code: string): code is ParameterChannel => PARAMETER_CHANNELS.includes(code);
const isSetpointChannel = (code: string): code is SetpointChannel => SETPOINT_CHANNELS.includes(code);

export const SPRAYER_CHANNELS: readonly ChannelSpec[] = [
  { code: CH.tankLevel, name: 'Tank level', units: '%', range: [0, 100], alarm: true },
  { code: CH.pumpPressure, name: 'Pump pressure', units: 'bar', range: [0, 6] },
  { code: CH.windSpeed, name: 'Wind speed', units: 'km/h', range: [0, 150] },
  { code: CH.zone1, name: 'Zone 1', range: [0, 1], writable: true },
  { code: CH.zone2, name: 'Zone 2', range: [0, 1], writable: true },
  { code: CH.spraysTodayZone1, name: 'Sprays today Z1', range: [0, 1e6] },
  { code: CH.spraysTodayZone2, name: 'Sprays today Z2', range: [0, 1e6] },
  { code: CH.sprayTimeTodayZone1, name: 'Spray time today Z1', units: 's', range: [0, 86_400] },
  { code: CH.sprayTimeTodayZone2, name: 'Spray time today Z2', units: 's', range: [0, 86_400] },
  ...SPRAY_PARAMETERS.map((parameter) => ({
    code: parameter.channel,
    name: parameter.name,
    range: [parameter.min, parameter.max] as const,
    writable: true,
  })),
  { code: CH.maxSprayRateZone1, name: 'Max spray rate Z1', units: 'L/min', range: [0.5, 20], writable: true },
  { code: CH.maxSprayRateZone2, name: 'Max spray rate Z2', units: 'L/min', range: [0.5, 20], writable: true },
  { code: CH.emptyLevel, name: 'Empty level', units: '%', range: [0, 100], writable: true },
  { code: CH.refillLevel, name: 'Refill level', units: '%', range: [0, 100], writable: true },
  { code: CH.manualSprayControl, name: 'Manual spray', range: [0, 2], writable: true },
  { code: CH.skipSprayActive, name: 'Skip spray', range: [0, 1], writable: true },
  { code: CH.testSpray, name: 'Test spray', range: [0, 1], writable: true },
  { code: CH.broadcastSpray, name: 'Broadcast spray', range: [0, 1], writable: true },
  { code: CH.skipTime, name: 'Skip time left', units: 'min', range: [0, 168 * 60] },
  // One channel s{n} per counted alarm bit, uploaded with its alarm flag, so the console counts it (§8).
  ...ALARM_CHANNEL_BITS.map((bit) => ({
    code: `s${bit}`,
    name: SPRAYER_ALARMS.find((alarm) => alarm.bit === bit)?.name ?? `Alarm ${bit}`,
    range: [0, 1] as const,
    alarm: true,
  })),
];

const TANK_LITRES = 400;
/** Misting nozzles of one zone together, litres per second (3.6 L/min). */
const ZONE_LITRES_PER_SECOND = 0.06;
/** A broken nozzle lets a zone spray this much faster. */
const BROKEN_NOZZLE_FACTOR = 1.8;
/** A leaking tank loses this share of the tank per hour. */
const LEAK_PERCENT_PER_HOUR = 1.5;
const PUMP_BAR = 4;
const PUMP_TAU = 2;
/** A manual spray runs its zone this long unless stopped. */
export const MANUAL_SPRAY_SECONDS = 60;
/** A broadcast spray runs each zone for this many duration steps. */
export const BROADCAST_SPRAY_STEPS = 3;
/** Zone runs shorter than this are too short to judge the pump by. */
const PUMP_CHECK_MIN_SECONDS = 10;
/** The wind warning clears below this share of the limit, so it does not chatter. */
const WIND_CLEAR_FRACTION = 0.85;
/** Expected faults per unit and day (leak, pump, nozzle): rare, but days of demo history show some. */
const FAULTS_PER_DAY = 0.04;

export interface SprayerOptions extends PlantModelOptions {
  /** Expected faults per day; {@link FAULTS_PER_DAY} unless given. */
  readonly faultsPerDay?: number;
}

/** Schedules a new unit comes with: 06:00 Monday to Saturday and 18:30 every day. */
/** SP-1 as a sprayer leaves the factory: seconds of one schedule duration step. */
const FACTORY_STEP_SECONDS = 10;

/** The schedules T-1 to T-5 a sprayer leaves the factory with, on its plant's local time. */
const FACTORY_SCHEDULES: readonly SpraySchedule[] = [
  { enabled: true, minuteOfDay: 6 * 60, durationSteps: 3, days: [1, 2, 3, 4, 5, 6] },
  { enabled: true, minuteOfDay: 18 * 60 + 30, durationSteps: 2, days: [0, 1, 2, 3, 4, 5, 6] },
  { enabled: false, minuteOfDay: 12 * 60, durationSteps: 2, days: [] },
  { enabled: false, minuteOfDay: 0, durationSteps: 0, days: [] },
  { enabled: false, minuteOfDay: 0, durationSteps: 0, days: [] },
];

/**
 * A factory spray that started this long ago may still be running: zone 1, then zone 2, each for the
 * longest schedule's steps, plus a minute (zone 2 starts on the step after zone 1 ends).
 */
const FACTORY_SPRAY_MAY_RUN_MS =
  (Math.max(...FACTORY_SCHEDULES.map((schedule) => schedule.durationSteps)) * FACTORY_STEP_SECONDS * 2 + 60) * 1000;

/**
 * Where to move the clock of a sprayer on its factory schedules (plant time on UTC, as the demo fleet
 * keeps it) so that none of them sprays from there for `windowMs`: past the scheduled spray under way
 * or due within the window, which then runs in the moved time. Null when none is. The e2e tests use
 * it, so a sprayer they drive changes only as they tell it, whatever the time of day of the run.
 */
export function clockPastFactorySprays(nowMs: number, windowMs: number): number | null {
  const since = nowMs - FACTORY_SPRAY_MAY_RUN_MS;
  const next = nextScheduledSpray(FACTORY_SCHEDULES, weekTimeAt(since, 0));
  if (!next) return null;
  const startMs = (Math.floor(since / 60_000) + next.minutesAhead) * 60_000;
  return startMs <= nowMs + windowMs ? startMs + FACTORY_SPRAY_MAY_RUN_MS : null;
}

/** One zone's spray in progress. */
interface ZoneRun {
  secondsLeft: number;
  seconds: number;
  levelAtStart: number;
  /** A test spray: allowed during the Empty Alarm, and not judged by the pump and excessive-spray checks. */
  test: boolean;
}

type Zone = 0 | 1;

export class Sprayer extends PlantModel {
  readonly kind = 'sprayer' as const;
  readonly channels = SPRAYER_CHANNELS;

  private levelLitres: number;
  private pressure = 0;
  private wind: number;
  private readonly runs: [ZoneRun | null, ZoneRun | null] = [null, null];
  /** Seconds zone 2 runs after zone 1 in the spray under way. */
  private zoneTwoSeconds = 0;
  private zoneTwoTest = false;
  private readonly spraysToday: [number, number] = [0, 0];
  private readonly secondsToday: [number, number] = [0, 0];
  private localDay: number;
  private lastMinute: number;
  /** Tank level (litres) when the last spray ended, for the leak check. */
  private levelAfterSpray: number;
  private skipSecondsLeft = 0;
  private readonly setpoints: Record<SetpointChannel, number> = {
    sp8: 4,
    sp9: 4,
    sp10: 10,
    sp11: 25,
  };
  private readonly parameters: Record<ParameterChannel, number> = {
    sp1: FACTORY_STEP_SECONDS,
    sp2: 24,
    sp4: 30,
    sp5: 3,
    sp6: 25,
    sp7: 0.1,
    gpf9: 1,
    gpf11: 1,
  };
  private leaking = false;
  private pumpFailed = false;
  private readonly nozzleBroken: [boolean, boolean] = [false, false];
  /** Alarms held until a service visit: leak, pump, excessive spray per zone. */
  private latched = 0;
  private windWarning = false;
  private serviceInSeconds: number | undefined;
  private levelReading = 0;
  private pressureReading = 0;

  private readonly faultsPerDay: number;

  constructor(options: SprayerOptions) {
    super(options);
    this.faultsPerDay = options.faultsPerDay ?? FAULTS_PER_DAY;
    const registers: Record<number, number> = {};
    FACTORY_SCHEDULES.slice(0, SPRAY_SCHEDULE_COUNT).forEach((schedule, index) => {
      const address = sprayScheduleRegisters(index);
      const packed = packSpraySchedule(schedule);
      registers[address.time] = packed.time;
      registers[address.days] = packed.days;
    });
    this.defineRegisters(registers);
    this.levelLitres = TANK_LITRES * this.random.between(0.4, 0.95);
    this.levelAfterSpray = this.levelLitres;
    this.wind = this.random.between(3, 12);
    this.localDay = this.dayNumber();
    this.lastMinute = this.minuteNumber();
    this.sample();
  }

  values(): Record<string, number> {
    const bits = this.statusBits();
    const values: Record<string, number> = {
      [CH.tankLevel]: roundTo(this.levelReading, 1),
      [CH.pumpPressure]: roundTo(this.pressureReading, 2),
      [CH.windSpeed]: roundTo(this.wind, 1),
      [CH.zone1]: this.runs[0] ? 1 : 0,
      [CH.zone2]: this.runs[1] ? 1 : 0,
      [CH.spraysTodayZone1]: this.spraysToday[0],
      [CH.spraysTodayZone2]: this.spraysToday[1],
      [CH.sprayTimeTodayZone1]: Math.round(this.secondsToday[0]),
      [CH.sprayTimeTodayZone2]: Math.round(this.secondsToday[1]),
      ...this.parameters,
      ...this.setpoints,
      [CH.manualSprayControl]: this.runs[0] ? 1 : this.runs[1] ? 2 : 0,
      [CH.skipSprayActive]: this.skipSecondsLeft > 0 ? 1 : 0,
      [CH.testSpray]: 0,
      [CH.broadcastSpray]: 0,
      [CH.skipTime]: Math.ceil(this.skipSecondsLeft / 60),
    };
    for (const bit of ALARM_CHANNEL_BITS) values[`s${bit}`] = (bits >>> bit) & 1;
    return values;
  }

  /** Level alarms follow the true level, not the noisy reading, so they do not chatter at a threshold. */
  override statusBits(): number {
    const level = this.levelPercent();
    let bits = this.latched;
    if (level < this.setpoints[CH.emptyLevel]) bits |= 1 << EMPTY_ALARM_BIT;
    if (level < this.setpoints[CH.refillLevel]) bits |= 1 << REFILL_ALARM_BIT;
    if (this.windWarning) bits |= 1 << HIGH_WIND_BIT;
    return bits;
  }

  /** The schedules as the registers hold them now. */
  schedules(): (SpraySchedule | null)[] {
    return schedulesFromRegisters(this.registers());
  }

  protected advance(h: number): void {
    this.moveWind(h);
    this.startScheduledSprays();
    this.moveFaults(h);

    // A spray stops when an alarm that blocks it comes on mid-spray (a test spray only for wind).
    for (const zone of [0, 1] as const) {
      const run = this.runs[zone];
      if (run && sprayBlockedBy(this.statusBits(), run.test ? 'test' : 'manual')) this.endRun(zone);
    }

    for (const zone of [0, 1] as const) {
      const run = this.runs[zone];
      if (!run) continue;
      const sprayed = Math.min(run.secondsLeft, h);
      const rate = this.pumpFailed ? 0 : ZONE_LITRES_PER_SECOND * (this.nozzleBroken[zone] ? BROKEN_NOZZLE_FACTOR : 1);
      this.levelLitres = Math.max(0, this.levelLitres - sprayed * rate);
      run.secondsLeft -= sprayed;
      run.seconds += sprayed;
      this.secondsToday[zone] += sprayed;
      if (run.secondsLeft <= 1e-9) this.endRun(zone);
    }
    if (this.leaking)
      this.levelLitres = Math.max(0, this.levelLitres - (TANK_LITRES * LEAK_PERCENT_PER_HOUR * h) / 360_000);

    const pumping = !this.pumpFailed && (this.runs[0] !== null || this.runs[1] !== null);
    // Exact first-order response: the pump settles in seconds, shorter than an integration step.
    this.pressure += ((pumping ? PUMP_BAR : 0) - this.pressure) * (1 - Math.exp(-h / PUMP_TAU));

    this.skipSecondsLeft = Math.max(0, this.skipSecondsLeft - h);
    this.moveService(h);
    this.sample();
  }

  protected applyWrite(code: string, value: number): number | undefined {
    if (isParameterChannel(code)) {
      if (code.startsWith('gpf') && value !== 0 && value !== 1) return undefined;
      this.parameters[code] = value;
      if (code === 'gpf9' && value === 0) this.skipSecondsLeft = 0;
      return value;
    }
    if (isSetpointChannel(code)) {
      this.setpoints[code] = value;
      return value;
    }
    switch (code) {
      // A zone's relay switched by hand is a manual spray of that zone.
      case CH.zone1:
      case CH.zone2: {
        const zone = code === CH.zone1 ? 0 : 1;
        if (value === 0) {
          if (zone === 0) this.zoneTwoSeconds = 0;
          this.endRun(zone);
          return 0;
        }
        if (sprayBlockedBy(this.statusBits(), 'manual')) return undefined;
        this.startRun(zone, MANUAL_SPRAY_SECONDS, false);
        return 1;
      }
      case CH.manualSprayControl: {
        if (value === 0) {
          this.stopAll();
          return 0;
        }
        if (!Number.isInteger(value) || sprayBlockedBy(this.statusBits(), 'manual')) return undefined;
        this.stopAll();
        this.startRun(value === 1 ? 0 : 1, MANUAL_SPRAY_SECONDS, false);
        return value;
      }
      case CH.testSpray: {
        if (value === 0) return 0;
        if (sprayBlockedBy(this.statusBits(), 'test')) return undefined;
        this.startSpray(TEST_SPRAY_SECONDS, true);
        return 1;
      }
      case CH.broadcastSpray: {
        if (value === 0) return 0;
        if (this.parameters.gpf11 !== 1 || !this.mayStart('broadcast')) return undefined;
        this.startSpray(BROADCAST_SPRAY_STEPS * this.parameters.sp1, false);
        return 1;
      }
      case CH.skipSprayActive: {
        if (value === 0) {
          this.skipSecondsLeft = 0;
          return 0;
        }
        // Skip-spray must be enabled (GPF-9) before it can be made active.
        if (this.parameters.gpf9 !== 1) return undefined;
        this.skipSecondsLeft = this.parameters.sp2 * 3600;
        return 1;
      }
      default:
        return undefined;
    }
  }

  private mayStart(kind: SprayKind): boolean {
    return sprayBlockedBy(this.statusBits(), kind) === null;
  }

  /** Runs the schedules that start in a minute entered since the last step, unless skipped or blocked. */
  private startScheduledSprays(): void {
    const minute = this.minuteNumber();
    if (minute === this.lastMinute) return;
    this.lastMinute = minute;
    const day = this.dayNumber();
    if (day !== this.localDay) {
      this.localDay = day;
      this.spraysToday.fill(0);
      this.secondsToday.fill(0);
    }
    const schedules = this.schedules();
    for (const index of schedulesStartingAt(schedules, weekTimeAt(this.timeMs, this.utcOffsetMinutes))) {
      if (this.skipSecondsLeft > 0 || !this.mayStart('scheduled') || this.runs[0] || this.runs[1]) continue;
      this.startSpray((schedules[index]?.durationSteps ?? 0) * this.parameters.sp1, false);
    }
  }

  /** Zone 1, then zone 2, each for `seconds`. */
  private startSpray(seconds: number, test: boolean): void {
    this.stopAll();
    this.startRun(0, seconds, test);
    this.zoneTwoSeconds = seconds;
    this.zoneTwoTest = test;
  }

  private startRun(zone: Zone, seconds: number, test: boolean): void {
    // The leak check: the level should not have fallen since the last spray ended.
    const sinceLast = ((this.levelAfterSpray - this.levelLitres) / TANK_LITRES) * 100;
    if (sinceLast > this.parameters.sp5) this.latched |= 1 << TANK_LEAK_ALARM_BIT;
    this.runs[zone] = { secondsLeft: seconds, seconds: 0, levelAtStart: this.levelLitres, test };
    this.spraysToday[zone] += 1;
  }

  private endRun(zone: Zone): void {
    const run = this.runs[zone];
    if (!run) return;
    this.runs[zone] = null;
    this.levelAfterSpray = this.levelLitres;
    if (!run.test && run.seconds >= PUMP_CHECK_MIN_SECONDS) {
      const dropLitres = run.levelAtStart - this.levelLitres;
      if ((dropLitres / TANK_LITRES) * 100 < this.parameters.sp7) this.latched |= 1 << PUMP_ALARM_BIT;
      const litresPerMinute = (dropLitres / run.seconds) * 60;
      const maxRate = this.setpoints[zone === 0 ? CH.maxSprayRateZone1 : CH.maxSprayRateZone2];
      if (litresPerMinute > maxRate * (1 + this.parameters.sp6 / 100)) {
        this.latched |= 1 << (zone === 0 ? EXCESSIVE_SPRAY_Z1_BIT : EXCESSIVE_SPRAY_Z2_BIT);
      }
    }
    if (zone === 0 && run.secondsLeft <= 1e-9 && this.zoneTwoSeconds > 0) {
      const seconds = this.zoneTwoSeconds;
      this.zoneTwoSeconds = 0;
      this.startRun(1, seconds, this.zoneTwoTest);
    }
  }

  private stopAll(): void {
    this.zoneTwoSeconds = 0;
    this.endRun(0);
    this.endRun(1);
  }

  /** Wind: a gusty random walk around a calm night and a breezy afternoon. */
  private moveWind(h: number): void {
    // The afternoon breeze stays well under the default limit; a lower SP-4 meets it.
    const mean = 5 + 11 * hourBump(this.hourOfDay(), 15, 3);
    const tau = 900;
    this.wind = Math.max(0, this.wind + ((mean - this.wind) * h) / tau + this.random.normal(1.2 * Math.sqrt(h / 60)));
    const limit = this.parameters.sp4;
    if (this.wind > limit) this.windWarning = true;
    else if (this.wind < limit * WIND_CLEAR_FRACTION) this.windWarning = false;
  }

  /** Now and then something breaks: the tank starts leaking, the pump fails or a nozzle breaks. */
  private moveFaults(h: number): void {
    if (!this.random.chance((this.faultsPerDay * h) / 86_400)) return;
    const fault = this.random.integer(0, 3);
    if (fault === 0) this.leaking = true;
    else if (fault === 1) this.pumpFailed = true;
    else this.nozzleBroken[fault === 2 ? 0 : 1] = true;
  }

  /**
   * A service visit comes one to eight hours after the refill level or a latched alarm: it refills
   * the tank, repairs what broke and clears the latched alarms.
   */
  private moveService(h: number): void {
    if (this.serviceInSeconds === undefined) {
      if (this.latched !== 0 || this.levelPercent() < this.setpoints[CH.refillLevel]) {
        this.serviceInSeconds = this.random.between(1, 8) * 3600;
      }
      return;
    }
    this.serviceInSeconds -= h;
    if (this.serviceInSeconds > 0) return;
    this.serviceInSeconds = undefined;
    this.levelLitres = TANK_LITRES * this.random.between(0.95, 1);
    this.levelAfterSpray = this.levelLitres;
    this.leaking = false;
    this.pumpFailed = false;
    this.nozzleBroken.fill(false);
    this.latched = 0;
  }

  private localMs(): number {
    return this.timeMs + this.utcOffsetMinutes * 60_000;
  }

  /** Whole minutes since the epoch, local time. */
  private minuteNumber(): number {
    return Math.floor(this.localMs() / 60_000);
  }

  /** Whole days since the epoch, local time. */
  private dayNumber(): number {
    return Math.floor(this.localMs() / 86_400_000);
  }

  private levelPercent(): number {
    return (this.levelLitres / TANK_LITRES) * 100;
  }

  private sample(): void {
    this.levelReading = clamp(this.levelPercent() + this.random.normal(0.1), 0, 100);
    this.pressureReading = this.pressure > 0.05 ? Math.max(0, this.pressure + this.random.normal(0.03)) : 0;
  }
}
