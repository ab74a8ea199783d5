import {
  INLET_PRESSURE_THRESHOLDS,
  OUTLET_PRESSURE_THRESHOLDS,
  PLANT_RESETS,
  UV_SIGNAL_POINTS,
} from '@fieldlink/domain/plant-dashboard';
import { clamp, hourBump, roundTo } from './daily-cycle';
import { PlantModel, type ChannelSpec, type PlantModelOptions } from './plant-model';
import { PressureTransmitter } from './transmitter';

/**
 * A small community water-treatment plant: the treatment train (bore pump, pre-treatment, multimedia,
 * carbon and greensand filters, softener, UV, chlorine dosing) runs at a fixed rate into a storage
 * tank, started and stopped by the tank level; the town draws supply from the tank along a daily
 * demand curve with a morning and an evening peak. The filters backwash and the softener regenerates
 * each night. Peak demand stays under 100 L/min, inside the flow axis of every plant app (§9: 0-180 in
 * the main plant, 0-100 in the others), so no chart of a demo plant is cut off.
 */

const flags = (prefix: string, count: number): ChannelSpec[] =>
  Array.from({ length: count }, (_, i) => ({ code: `${prefix}${i + 1}`, name: `${prefix}${i + 1}`, range: [0, 1] }));

/**
 * Every channel the generated plant dashboards read (packages/domain plant-dashboard): flows and
 * totals, pressures, UV, the filters' differential pressures and backwash outputs, softener and
 * chlorination, the alarm flags s1-s16 and xdo1-xdo16 (older alarm version: the simulated macro is
 * Filtec 2.1) and the reset buttons gpf1-gpf14. A plant reports all of them; its configuration tag
 * decides what its dashboard shows.
 */
export const WATER_PLANT_CHANNELS: readonly ChannelSpec[] = [
  { code: 'a1', name: 'Supply 1 flow', units: 'L/min', range: [0, 200] },
  { code: 'a2', name: 'Supply 2 flow', units: 'L/min', range: [0, 100] },
  { code: 'a3', name: 'Community flow', units: 'L/min', range: [0, 200] },
  { code: 'a4', name: 'Chlorine residual', units: 'mg/L', range: [0, 5] },
  { code: 'a16', name: 'Tank level', units: '%', range: [0, 100], alarm: true },
  { code: 'd1', name: 'Supply 1 total', units: 'm³', range: [0, 1e9] },
  { code: 'd2', name: 'Supply 2 total', units: 'm³', range: [0, 1e9] },
  { code: 'd3', name: 'Community total', units: 'm³', range: [0, 1e9] },
  { code: 'd4', name: 'Secondary treated total', units: 'm³', range: [0, 1e9] },
  { code: 't1', name: 'Operating time', units: 'h', range: [0, 1e7] },
  { code: 't2', name: 'UV lamp hours', units: 'h', range: [0, 1e7] },
  { code: 't3', name: 'Multimedia backwashes', range: [0, 1e7] },
  { code: 't4', name: 'Carbon backwashes', range: [0, 1e7] },
  { code: 't5', name: 'UV dose', units: 'mJ/cm²', range: [0, 300] },
  { code: 't6', name: 'Softener regenerations', range: [0, 1e7] },
  { code: 't7', name: 'Greensand backwashes', range: [0, 1e7] },
  { code: 't8', name: 'Chlorine dosed', units: 'L', range: [0, 1e9] },
  { code: 't9', name: 'Pre-treatment run time', units: 'h', range: [0, 1e7] },
  { code: 't10', name: 'Bore pump run time', units: 'h', range: [0, 1e7] },
  { code: 'c2', name: 'Inlet pressure', units: 'bar', range: [0, 6] },
  { code: 'c3', name: 'Outlet pressure', units: 'bar', range: [0, 3] },
  { code: 'c4', name: 'Bore pressure', units: 'bar', range: [0, 6] },
  { code: 'c5', name: 'Pre-treatment pressure', units: 'bar', range: [0, 6] },
  { code: 'c6', name: 'Multimedia differential pressure', units: 'bar', range: [0, 2] },
  { code: 'c7', name: 'Carbon differential pressure', units: 'bar', range: [0, 2] },
  { code: 'c8', name: 'Softener outlet hardness', units: 'mg/L', range: [0, 200] },
  { code: 'c9', name: 'Greensand differential pressure', units: 'bar', range: [0, 2] },
  { code: 'do1', name: 'Plant run', range: [0, 1], writable: true },
  ...flags('do', 12).slice(1),
  ...flags('s', 16),
  ...flags('xdo', 16),
  ...PLANT_RESETS.map(({ code, name }) => ({ code, name, range: [0, 1] as const, writable: true })),
];

/** Every reported code at 0: the shape each reading starts from. */
const VALUE_TEMPLATE: Readonly<Record<string, number>> = Object.fromEntries(
  WATER_PLANT_CHANNELS.map((channel) => [channel.code, 0]),
);

/** Tank level (%) below which the plant starts, and above which it stops. */
export const REGISTER_START_LEVEL = 200;
export const REGISTER_STOP_LEVEL = 201;

const TANK_LITRES = 50_000;
/**
 * The plant's pressure transmitters: 1-5 V outputs over 0-10 bar on the supply side and 0-4 bar after
 * treatment, 0-2.5 bar differential across the filters; wider than the charts' 0-6 bar axis, so a
 * fouled filter still reads its true inlet pressure above the alarm threshold.
 */
const LINE_TRANSMITTER = new PressureTransmitter('voltage', 10);
const OUTLET_TRANSMITTER = new PressureTransmitter('voltage', 4);
const DIFFERENTIAL_TRANSMITTER = new PressureTransmitter('voltage', 2.5);
const PRODUCTION_LITRES_PER_MINUTE = 70;
/** Filters foul while running, raising inlet pressure; a backwash at 02:00 clears them. */
const FOULING_BAR_PER_RUNNING_SECOND = 0.25 / 86_400;
const BACKWASH_HOUR = 2;
/** Night-time maintenance windows, in hours of the day: [start, end). */
const MEDIA_BACKWASH: readonly (readonly [number, number])[] = [
  [2, 2.1],
  [2.1, 2.2],
  [2.2, 2.3],
  [2.3, 2.4],
];
const CARBON_BACKWASH: readonly (readonly [number, number])[] = [
  [2.4, 2.5],
  [2.5, 2.6],
];
const GREENSAND_BACKWASH = [2.6, 2.75] as const;
/** Backwash outputs: multimedia filters 1-4 on do4-do7, carbon filters 1-2 on do8-do9. */
const BACKWASH_OUTPUTS: readonly (readonly [string, readonly [number, number]])[] = [
  ...MEDIA_BACKWASH.map((window, i) => [`do${4 + i}`, window] as const),
  ...CARBON_BACKWASH.map((window, i) => [`do${8 + i}`, window] as const),
];
const SOFTENER_REGENERATION = [3, 3.6] as const;
const CHLORINE_LITRES_PER_RUNNING_SECOND = 0.0005;
const DAY_MS = 86_400_000;

const within = (hour: number, [start, end]: readonly [number, number]) => hour >= start && hour < end;

/** The plant's totals, by channel code; the reset buttons set them back to zero. */
const TOTAL_CODES = ['d1', 'd2', 'd3', 'd4', 't1', 't2', 't3', 't4', 't6', 't7', 't8', 't9', 't10'] as const;
type Totals = Record<(typeof TOTAL_CODES)[number], number>;

export class WaterPlant extends PlantModel {
  readonly kind = 'waterPlant' as const;
  readonly channels = WATER_PLANT_CHANNELS;

  private levelLitres: number;
  private running = false;
  private supplyFlow = 0;
  private readonly totals: Totals;
  private fouling: number;
  private hardness: number;
  private chlorine = 1;
  private lastHour: number;
  private dayIndex = Number.NaN;
  private dayDemandFactor = 1;
  private readonly uvPhase: number;
  /** Latched alarm flags (by code) until the alarm reset (gpf12). */
  private readonly latched = new Set<string>();
  private readonly buttons = new Map<string, number>();
  private reading = {
    flow: 0,
    level: 0,
    inlet: 0,
    outlet: 0,
    uv: 0,
    bore: 0,
    preTreatment: 0,
    mediaDifferential: 0,
    carbonDifferential: 0,
    greensandDifferential: 0,
  };

  constructor(options: PlantModelOptions) {
    super(options);
    this.levelLitres = TANK_LITRES * this.random.between(0.55, 0.9);
    const between = (low: number, high: number, decimals = 2) => roundTo(this.random.between(low, high), decimals);
    this.totals = {
      d1: between(10_000, 50_000),
      d2: between(2_000, 12_000),
      d3: between(5_000, 30_000),
      d4: between(1_000, 6_000),
      t1: between(3_000, 9_000),
      t2: between(500, 8_000),
      t3: Math.round(this.random.between(100, 900)),
      t4: Math.round(this.random.between(50, 450)),
      t6: Math.round(this.random.between(50, 450)),
      t7: Math.round(this.random.between(50, 450)),
      t8: between(200, 2_000),
      t9: between(3_000, 9_000),
      t10: between(3_000, 9_000),
    };
    this.fouling = this.random.between(0, 0.2);
    this.hardness = this.random.between(5, 30);
    this.uvPhase = this.random.between(0, 2 * Math.PI);
    this.lastHour = this.hourOfDay();
    this.defineRegisters({ [REGISTER_START_LEVEL]: 55, [REGISTER_STOP_LEVEL]: 95 });
    this.sample();
  }

  protected override get maxStepSeconds(): number {
    return 10;
  }

  values(): Record<string, number> {
    const hour = this.hourOfDay();
    const { totals, running, reading } = this;
    const on = (condition: boolean) => (condition ? 1 : 0);
    // Every code is already a key of the template, so filling it keeps one object shape (fast).
    const values = { ...VALUE_TEMPLATE };
    values.a1 = roundTo(reading.flow, 1);
    values.a2 = roundTo(reading.flow * 0.3, 1);
    values.a3 = roundTo(reading.flow * 0.6, 1);
    values.a4 = roundTo(this.chlorine, 2);
    values.a16 = roundTo(reading.level, 1);
    values.t5 = roundTo(reading.uv, 1);
    values.c2 = roundTo(reading.inlet, 2);
    values.c3 = roundTo(reading.outlet, 2);
    values.c4 = roundTo(reading.bore, 2);
    values.c5 = roundTo(reading.preTreatment, 2);
    values.c6 = roundTo(reading.mediaDifferential, 2);
    values.c7 = roundTo(reading.carbonDifferential, 2);
    values.c8 = roundTo(this.hardness, 1);
    values.c9 = roundTo(reading.greensandDifferential, 2);
    values.do1 = on(running);
    values.do2 = on(running);
    values.do3 = on(running);
    values.do10 = on(within(hour, SOFTENER_REGENERATION));
    values.do11 = on(within(hour, GREENSAND_BACKWASH));
    values.do12 = on(running);
    for (const code of TOTAL_CODES) values[code] = roundTo(totals[code], 3);
    for (const [code, window] of BACKWASH_OUTPUTS) values[code] = on(within(hour, window));
    for (const code of this.latched) values[code] = 1;
    for (const [code, value] of this.buttons) values[code] = value;
    return values;
  }

  protected advance(h: number): void {
    const hour = this.hourOfDay();
    this.moveDay();

    const demand =
      (8 + 72 * (hourBump(hour, 7, 1.5) + 0.8 * hourBump(hour, 19, 2) + 0.3 * hourBump(hour, 13, 3))) *
      this.dayDemandFactor;
    const production = this.running ? PRODUCTION_LITRES_PER_MINUTE : 0;
    // An empty tank can pass on only what the plant makes.
    this.supplyFlow = this.levelLitres > 0 ? demand : Math.min(demand, production);
    this.levelLitres = clamp(this.levelLitres + ((production - this.supplyFlow) / 60) * h, 0, TANK_LITRES);
    const cubicMetres = (this.supplyFlow / 60 / 1000) * h;
    this.totals.d1 += cubicMetres;
    this.totals.d2 += cubicMetres * 0.3;
    this.totals.d3 += cubicMetres * 0.6;
    this.totals.d4 += ((production / 60 / 1000) * h) / 5;

    if (this.running) {
      for (const code of ['t1', 't2', 't9', 't10'] as const) this.totals[code] += h / 3600;
      this.totals.t8 += CHLORINE_LITRES_PER_RUNNING_SECOND * h;
      this.fouling += FOULING_BAR_PER_RUNNING_SECOND * h;
      this.hardness += (h / 86_400) * 40;
      this.chlorine += (1.4 - this.chlorine) * Math.min(1, h / 1800);
    } else {
      this.chlorine += (0.3 - this.chlorine) * Math.min(1, h / 14_400);
    }
    if (this.lastHour < BACKWASH_HOUR && hour >= BACKWASH_HOUR) {
      this.fouling = 0;
      this.totals.t3 += 1;
      this.totals.t4 += 1;
      this.totals.t7 += 1;
    }
    if (this.lastHour < SOFTENER_REGENERATION[1] && hour >= SOFTENER_REGENERATION[1]) {
      this.hardness = this.random.between(3, 6);
      this.totals.t6 += 1;
    }
    this.lastHour = hour;

    this.sample();
    this.control();
    this.latchAlarms();
  }

  protected applyWrite(code: string, value: number): number | undefined {
    if (code === 'do1') {
      this.running = value === 1;
      return value;
    }
    const reset = PLANT_RESETS.find((button) => button.code === code);
    if (!reset) return undefined;
    // A press (0 -> 1) resets; the button reads back as held until it is released.
    if (value === 1 && (this.buttons.get(code) ?? 0) === 0) {
      if (reset.clears === 'alarms') this.latched.clear();
      else if (reset.clears in this.totals) this.totals[reset.clears as keyof Totals] = 0;
    }
    this.buttons.set(code, value);
    return value;
  }

  private control(): void {
    if (this.reading.level < this.register(REGISTER_START_LEVEL)) this.running = true;
    else if (this.reading.level > this.register(REGISTER_STOP_LEVEL)) this.running = false;
  }

  /** Alarm flags (older alarm version codes) latch when their condition is seen. */
  private latchAlarms(): void {
    const { inlet, outlet, uv, level } = this.reading;
    // The domain's thresholds (§9): the inlet's warning, the outlet's fault, the default UV low point.
    if (inlet > INLET_PRESSURE_THRESHOLDS.warning) this.latched.add('s1');
    if (this.running && outlet < OUTLET_PRESSURE_THRESHOLDS.fault) this.latched.add('s2');
    if (this.running && uv < UV_SIGNAL_POINTS.default.low) this.latched.add('s4');
    if (level < 10) this.latched.add('s5');
    if (level > 99) this.latched.add('s6');
    if (this.chlorine < 0.2) this.latched.add('s8');
    if (this.hardness > 120) this.latched.add('s13');
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
      inlet: LINE_TRANSMITTER.read(
        this.running ? 4.3 + this.fouling + this.random.normal(0.02) : 4.55 + this.random.normal(0.01),
      ),
      outlet: OUTLET_TRANSMITTER.read(1.75 - 0.35 * (this.supplyFlow / 90) + this.random.normal(0.02)),
      // UV transmittance of the raw water drifts over days.
      uv: 55 + 3 * Math.sin((2 * Math.PI * days) / 3.3 + this.uvPhase) + this.random.normal(0.3),
      bore: LINE_TRANSMITTER.read(this.running ? 2.6 + this.random.normal(0.03) : 3.1 + this.random.normal(0.02)),
      preTreatment: LINE_TRANSMITTER.read(this.running ? 3.2 + this.fouling * 0.5 + this.random.normal(0.02) : 0),
      // Filters' differential pressures rise as they foul and fall back after the night's backwash.
      mediaDifferential: DIFFERENTIAL_TRANSMITTER.read(0.2 + this.fouling + this.random.normal(0.01)),
      carbonDifferential: DIFFERENTIAL_TRANSMITTER.read(0.15 + this.fouling * 0.6 + this.random.normal(0.01)),
      greensandDifferential: DIFFERENTIAL_TRANSMITTER.read(0.18 + this.fouling * 0.8 + this.random.normal(0.01)),
    };
  }
}
