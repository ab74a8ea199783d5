import { clamp, roundTo } from './daily-cycle';
import { PlantModel, type ChannelSpec, type PlantModelOptions } from './plant-model';

/**
 * A misting spray unit: on a fixed interval it sprays zone 1 then zone 2 (relays do1, do2) from a
 * chemical tank, so the tank level a16 steps down with each spray. Below the refill level it raises
 * the refill alarm; below the empty level it raises the empty alarm and blocks scheduled and manual
 * sprays. Someone comes to refill the tank some hours after the refill alarm.
 */

export const SPRAYER_CHANNELS: readonly ChannelSpec[] = [
  { code: 'a16', name: 'Tank level', range: [0, 100], alarm: true },
  { code: 'c1', name: 'Pump pressure', range: [0, 6] },
  { code: 't1', name: 'Spray count', range: [0, 1e9] },
  { code: 'do1', name: 'Zone 1', range: [0, 1], writable: true },
  { code: 'do2', name: 'Zone 2', range: [0, 1], writable: true },
  { code: 'sp1', name: 'Spray duration', range: [5, 300], writable: true },
  { code: 'sp2', name: 'Spray interval', range: [1, 1440], writable: true },
  { code: 'sp4', name: 'Empty level', range: [0, 100], writable: true },
  { code: 'sp5', name: 'Refill level', range: [0, 100], writable: true },
];

/** Sprayer alarm bits of `status.sp` (specification: sprayer alarm bits). */
export const EMPTY_ALARM_BIT = 6;
export const REFILL_ALARM_BIT = 7;

const TANK_LITRES = 400;
/** Misting nozzles of one zone together, litres per second. */
const ZONE_LITRES_PER_SECOND = 0.06;
const PUMP_BAR = 4;
const PUMP_TAU = 2;

export class Sprayer extends PlantModel {
  readonly kind = 'sprayer' as const;
  readonly channels = SPRAYER_CHANNELS;

  private levelLitres: number;
  private pressure = 0;
  private sprayCount: number;
  /** Seconds of spraying left per zone. */
  private readonly zoneSeconds: [number, number] = [0, 0];
  /** Zone 2 follows zone 1 in a scheduled spray. */
  private zoneTwoQueued = false;
  private secondsSinceSpray: number;
  private refillInSeconds: number | undefined;
  private durationSeconds = 30;
  private intervalMinutes = 15;
  private emptyLevel = 10;
  private refillLevel = 25;
  private levelReading = 0;
  private pressureReading = 0;

  constructor(options: PlantModelOptions) {
    super(options);
    this.levelLitres = TANK_LITRES * this.random.between(0.4, 0.95);
    this.sprayCount = this.random.integer(100, 5000);
    this.secondsSinceSpray = this.random.between(0, this.intervalMinutes * 60);
    this.sample();
  }

  values(): Record<string, number> {
    return {
      a16: roundTo(this.levelReading, 1),
      c1: roundTo(this.pressureReading, 2),
      t1: this.sprayCount,
      do1: this.zoneSeconds[0] > 0 ? 1 : 0,
      do2: this.zoneSeconds[1] > 0 ? 1 : 0,
      sp1: this.durationSeconds,
      sp2: this.intervalMinutes,
      sp4: this.emptyLevel,
      sp5: this.refillLevel,
    };
  }

  /** Alarms follow the true level, not the noisy reading, so they do not chatter at a threshold. */
  override statusBits(): number {
    const level = this.levelPercent();
    let bits = 0;
    if (level < this.emptyLevel) bits |= 1 << EMPTY_ALARM_BIT;
    if (level < this.refillLevel) bits |= 1 << REFILL_ALARM_BIT;
    return bits;
  }

  protected advance(h: number): void {
    this.secondsSinceSpray += h;
    if (this.secondsSinceSpray >= this.intervalMinutes * 60) {
      this.secondsSinceSpray = 0;
      if (!this.isEmpty()) this.startSpray(0, true);
    }

    for (const zone of [0, 1] as const) {
      const sprayed = Math.min(this.zoneSeconds[zone], h);
      this.levelLitres = Math.max(0, this.levelLitres - sprayed * ZONE_LITRES_PER_SECOND);
      this.zoneSeconds[zone] -= sprayed;
      if (zone === 0 && sprayed > 0 && this.zoneSeconds[0] === 0 && this.zoneTwoQueued) {
        this.zoneTwoQueued = false;
        this.zoneSeconds[1] = this.durationSeconds;
      }
    }

    const pumping = this.zoneSeconds[0] > 0 || this.zoneSeconds[1] > 0;
    // Exact first-order response: the pump settles in seconds, shorter than an integration step.
    this.pressure += ((pumping ? PUMP_BAR : 0) - this.pressure) * (1 - Math.exp(-h / PUMP_TAU));

    this.moveRefill(h);
    this.sample();
  }

  protected applyWrite(code: string, value: number): number | undefined {
    switch (code) {
      case 'do1':
      case 'do2': {
        const zone = code === 'do1' ? 0 : 1;
        if (value === 0) {
          this.zoneSeconds[zone] = 0;
          if (zone === 0) this.zoneTwoQueued = false;
          return 0;
        }
        // An empty tank blocks manual sprays too; the device refuses the command.
        if (this.isEmpty()) return undefined;
        this.startSpray(zone, false);
        return 1;
      }
      case 'sp1':
        this.durationSeconds = value;
        return value;
      case 'sp2':
        this.intervalMinutes = value;
        return value;
      case 'sp4':
        this.emptyLevel = value;
        return value;
      case 'sp5':
        this.refillLevel = value;
        return value;
      default:
        return undefined;
    }
  }

  private startSpray(zone: 0 | 1, scheduled: boolean): void {
    this.zoneSeconds[zone] = this.durationSeconds;
    this.zoneTwoQueued = scheduled;
    this.sprayCount += 1;
  }

  /** A refill visit comes one to eight hours after the refill alarm. */
  private moveRefill(h: number): void {
    if (this.refillInSeconds === undefined) {
      if (this.levelPercent() < this.refillLevel) this.refillInSeconds = this.random.between(1, 8) * 3600;
      return;
    }
    this.refillInSeconds -= h;
    if (this.refillInSeconds <= 0) {
      this.refillInSeconds = undefined;
      this.levelLitres = TANK_LITRES * this.random.between(0.95, 1);
    }
  }

  private isEmpty(): boolean {
    return this.levelPercent() < this.emptyLevel;
  }

  private levelPercent(): number {
    return (this.levelLitres / TANK_LITRES) * 100;
  }

  private sample(): void {
    this.levelReading = clamp(this.levelPercent() + this.random.normal(0.1), 0, 100);
    this.pressureReading = this.pressure > 0.05 ? Math.max(0, this.pressure + this.random.normal(0.03)) : 0;
  }
}
