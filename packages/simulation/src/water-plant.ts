import { clamp, hourBump, roundTo } from './daily-cycle';
import { PlantModel, type ChannelSpec, type PlantModelOptions } from './plant-model';

/**
 * A small community water-treatment plant: the treatment train (bore pump, filters, UV) runs at a
 * fixed rate into a storage tank, started and stopped by the tank level; the town draws supply from
 * the tank along a daily demand curve with a morning and an evening peak.
 */

export const WATER_PLANT_CHANNELS: readonly ChannelSpec[] = [
  { code: 'a1', name: 'Supply 1 flow', range: [0, 200] },
  { code: 'd1', name: 'Supply 1 total', range: [0, 1e9] },
  { code: 't1', name: 'Operating time', range: [0, 1e7] },
  { code: 'a16', name: 'Tank level', range: [0, 100], alarm: true },
  { code: 'c2', name: 'Inlet pressure', range: [0, 6] },
  { code: 'c3', name: 'Outlet pressure', range: [0, 3] },
  { code: 't5', name: 'UV dose', range: [0, 300] },
  { code: 'do1', name: 'Plant run', range: [0, 1], writable: true },
];

/** Tank level (%) below which the plant starts, and above which it stops. */
export const REGISTER_START_LEVEL = 200;
export const REGISTER_STOP_LEVEL = 201;

const TANK_LITRES = 50_000;
const PRODUCTION_LITRES_PER_MINUTE = 110;
/** Filters foul while running, raising inlet pressure; a backwash at 02:00 clears them. */
const FOULING_BAR_PER_RUNNING_SECOND = 0.25 / 86_400;
const BACKWASH_HOUR = 2;
const DAY_MS = 86_400_000;

export class WaterPlant extends PlantModel {
  readonly kind = 'waterPlant' as const;
  readonly channels = WATER_PLANT_CHANNELS;

  private levelLitres: number;
  private running = false;
  private supplyFlow = 0;
  private totalCubicMetres: number;
  private operatingHours: number;
  private fouling: number;
  private lastHour: number;
  private dayIndex = Number.NaN;
  private dayDemandFactor = 1;
  private readonly uvPhase: number;
  private reading = { flow: 0, level: 0, inlet: 0, outlet: 0, uv: 0 };

  constructor(options: PlantModelOptions) {
    super(options);
    this.levelLitres = TANK_LITRES * this.random.between(0.55, 0.9);
    this.totalCubicMetres = roundTo(this.random.between(10_000, 50_000), 2);
    this.operatingHours = roundTo(this.random.between(3_000, 9_000), 2);
    this.fouling = this.random.between(0, 0.2);
    this.uvPhase = this.random.between(0, 2 * Math.PI);
    this.lastHour = this.hourOfDay();
    this.defineRegisters({ [REGISTER_START_LEVEL]: 55, [REGISTER_STOP_LEVEL]: 95 });
    this.sample();
  }

  protected override get maxStepSeconds(): number {
    return 10;
  }

  values(): Record<string, number> {
    return {
      a1: roundTo(this.reading.flow, 1),
      d1: roundTo(this.totalCubicMetres, 3),
      t1: roundTo(this.operatingHours, 2),
      a16: roundTo(this.reading.level, 1),
      c2: roundTo(this.reading.inlet, 2),
      c3: roundTo(this.reading.outlet, 2),
      t5: roundTo(this.reading.uv, 1),
      do1: this.running ? 1 : 0,
    };
  }

  protected advance(h: number): void {
    const hour = this.hourOfDay();
    this.moveDay();

    const demand =
      (12 + 120 * (hourBump(hour, 7, 1.5) + 0.8 * hourBump(hour, 19, 2) + 0.3 * hourBump(hour, 13, 3))) *
      this.dayDemandFactor;
    const production = this.running ? PRODUCTION_LITRES_PER_MINUTE : 0;
    // An empty tank can pass on only what the plant makes.
    this.supplyFlow = this.levelLitres > 0 ? demand : Math.min(demand, production);
    this.levelLitres = clamp(this.levelLitres + ((production - this.supplyFlow) / 60) * h, 0, TANK_LITRES);
    this.totalCubicMetres += (this.supplyFlow / 60 / 1000) * h;

    if (this.running) {
      this.operatingHours += h / 3600;
      this.fouling += FOULING_BAR_PER_RUNNING_SECOND * h;
    }
    if (this.lastHour < BACKWASH_HOUR && hour >= BACKWASH_HOUR) this.fouling = 0;
    this.lastHour = hour;

    this.sample();
    this.control();
  }

  protected applyWrite(code: string, value: number): number | undefined {
    if (code !== 'do1') return undefined;
    this.running = value === 1;
    return value;
  }

  private control(): void {
    if (this.reading.level < this.register(REGISTER_START_LEVEL)) this.running = true;
    else if (this.reading.level > this.register(REGISTER_STOP_LEVEL)) this.running = false;
  }

  /** Each day draws a little more or less than the last (weather, weekends). */
  private moveDay(): void {
    const day = Math.floor((this.timeMs + this.utcOffsetMinutes * 60_000) / DAY_MS);
    if (day === this.dayIndex) return;
    this.dayIndex = day;
    this.dayDemandFactor = this.random.between(0.85, 1.15);
  }

  private sample(): void {
    const days = this.timeMs / DAY_MS;
    this.reading = {
      flow: this.supplyFlow > 0 ? Math.max(0, this.supplyFlow + this.random.normal(0.8)) : 0,
      // The level controller acts on the reading as reported, at its resolution.
      level: roundTo(clamp((this.levelLitres / TANK_LITRES) * 100 + this.random.normal(0.1), 0, 100), 1),
      // Running, the bore pump's delivery pressure sags a little and rises as the filters foul.
      inlet: this.running ? 4.3 + this.fouling + this.random.normal(0.02) : 4.55 + this.random.normal(0.01),
      outlet: Math.max(0, 1.75 - 0.35 * (this.supplyFlow / 135) + this.random.normal(0.02)),
      // UV transmittance of the raw water drifts over days.
      uv: 55 + 3 * Math.sin((2 * Math.PI * days) / 3.3 + this.uvPhase) + this.random.normal(0.3),
    };
  }
}
