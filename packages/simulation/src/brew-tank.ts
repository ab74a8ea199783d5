import { ambientTemperature, clamp, roundTo } from './daily-cycle';
import { PlantModel, type ChannelSpec, type PlantModelOptions } from './plant-model';
import { SeededRandom } from './seeded-random';

/**
 * A jacketed cylindro-conical fermentation tank. Yeast ferments the extract (°Plato) along a lag,
 * a peak and a tail, releasing heat and CO2; a glycol valve (relay do1) cools the jacket when the
 * beer rises above setpoint sp1 plus a band, and the jacket chills with a lag. Head and bottom
 * pressures differ by the liquid column, which is how the console derives the tank level.
 */

export const BREW_TANK_CHANNELS: readonly ChannelSpec[] = [
  { code: 'c1', name: 'Temperature', range: [-5, 40], alarm: true },
  { code: 'c2', name: 'Upper pressure', range: [0, 30] },
  { code: 'c3', name: 'Lower pressure', range: [0, 40] },
  { code: 'a1', name: 'CO2 flow', range: [0, 100] },
  { code: 't1', name: 'CO2 total', range: [0, 1e10] },
  { code: 't9', name: 'pH', range: [3.5, 6] },
  { code: 't10', name: 'Probe temperature', range: [-5, 40] },
  { code: 'sp1', name: 'Temperature setpoint', range: [-5, 100], writable: true },
  { code: 'do1', name: 'Glycol valve', range: [0, 1], writable: true },
];

/** Vat registers named by the specification. */
export const REGISTER_VAT_NUMBER = 5405;
export const REGISTER_INPUT_CHANNEL = 5406;
/** Cooling band in tenths of a degree either side of sp1. */
export const REGISTER_COOLING_BAND = 110;

const DAY = 86_400;
/** A tank is emptied, cleaned and refilled with fresh wort every two weeks. */
const BATCH_SECONDS = 14 * DAY;
const TANK_DIAMETER_M = 1.2;
const GLYCOL_C = -2;
/** Heat transfer of the jacket fully chilled, and of the tank skin to the cellar, in W/K. */
const JACKET_UA = 150;
const CELLAR_UA = 12;
const JACKET_TAU = 600;
const SENSOR_TAU = 120;
/** Specific heat of beer, J/(kg K); fermentation heat per kg of extract fermented, J/kg. */
const BEER_HEAT_CAPACITY = 4000;
const FERMENTATION_HEAT = 600_000;
/** kg of CO2 per kg of extract fermented (Balling), and CO2 density in kg/m³. */
const CO2_PER_EXTRACT = 0.46;
const CO2_DENSITY = 1.98;
/** Yeast growth rate and extract uptake rate at 18 °C, per second. */
const YEAST_GROWTH = 3e-5;
const EXTRACT_UPTAKE = 8e-6;
const PSI_PER_KPA = 0.145038;

export class BrewTank extends PlantModel {
  readonly kind = 'brewTank' as const;
  readonly channels = BREW_TANK_CHANNELS;

  private readonly volumeLitres: number;
  private originalExtract = 12;
  private terminalExtract = 2.5;
  private extract = 12;
  private yeast = 0.02;
  private batchSeconds = 0;
  private temperature: number;
  private sensorTemperature: number;
  private jacket = 0;
  private valveOpen = false;
  private setpoint: number;
  private co2Flow = 0;
  private co2TotalLitres: number;
  private reading = { temperature: 0, probe: 0, flow: 0, upper: 0, lower: 0, ph: 0 };

  constructor(options: PlantModelOptions) {
    // Start part-way into a batch, so a fresh demo already shows an active fermentation.
    const batchAgeSeconds = new SeededRandom(options.seed ^ 0x5bd1e995).between(0.5, 4) * DAY;
    super({ ...options, startTimeMs: options.startTimeMs - batchAgeSeconds * 1000 });
    this.volumeLitres = this.random.integer(10, 30) * 100;
    this.setpoint = this.random.chance(0.5) ? 12 : 19;
    this.temperature = this.setpoint + 1;
    this.sensorTemperature = this.temperature;
    this.co2TotalLitres = Math.round(this.random.between(1e5, 1e6));
    this.defineRegisters({
      [REGISTER_VAT_NUMBER]: this.random.integer(1, 12),
      [REGISTER_INPUT_CHANNEL]: 1,
      [REGISTER_COOLING_BAND]: 3,
    });
    this.fillTank();
    this.sample();
    this.step(batchAgeSeconds);
  }

  /** The fastest lag here is the 120 s probe, and each tank pre-rolls days of fermentation at start. */
  protected override get maxStepSeconds(): number {
    return 10;
  }

  values(): Record<string, number> {
    return {
      c1: roundTo(this.reading.temperature, 2),
      c2: roundTo(this.reading.upper, 2),
      c3: roundTo(this.reading.lower, 2),
      a1: roundTo(this.reading.flow, 2),
      t1: Math.round(this.co2TotalLitres),
      t9: roundTo(this.reading.ph, 2),
      t10: roundTo(this.reading.probe, 2),
      sp1: this.setpoint,
      do1: this.valveOpen ? 1 : 0,
    };
  }

  protected advance(h: number): void {
    this.batchSeconds += h;
    if (this.batchSeconds >= BATCH_SECONDS) this.fillTank();

    // Yeast works faster when warm: roughly doubling every 8 °C.
    const warmth = clamp(Math.exp(0.09 * (this.temperature - 18)), 0.05, 3);
    this.yeast += YEAST_GROWTH * warmth * this.yeast * (1 - this.yeast) * h;
    const uptake = EXTRACT_UPTAKE * warmth * this.yeast * Math.max(0, this.extract - this.terminalExtract);
    this.extract -= uptake * h;

    // One degree Plato is about 10.4 g of extract per litre of wort.
    const extractKgPerSecond = (uptake * 10.4 * this.volumeLitres) / 1000;
    this.co2Flow = ((extractKgPerSecond * CO2_PER_EXTRACT) / CO2_DENSITY) * 1000 * 60;
    this.co2TotalLitres += (this.co2Flow / 60) * h;

    this.jacket += (((this.valveOpen ? 1 : 0) - this.jacket) / JACKET_TAU) * h;
    const cellar = ambientTemperature(this.hourOfDay(), 18, 2);
    const heatWatts =
      extractKgPerSecond * FERMENTATION_HEAT +
      CELLAR_UA * (cellar - this.temperature) -
      JACKET_UA * this.jacket * (this.temperature - GLYCOL_C);
    const heatCapacity = this.volumeLitres * this.density() * BEER_HEAT_CAPACITY;
    this.temperature += (heatWatts / heatCapacity) * h;
    this.sensorTemperature += ((this.temperature - this.sensorTemperature) / SENSOR_TAU) * h;

    this.sample();
    this.control();
  }

  protected applyWrite(code: string, value: number): number | undefined {
    if (code === 'sp1') this.setpoint = value;
    else if (code === 'do1') this.valveOpen = value === 1;
    else return undefined;
    return value;
  }

  /** Cooling only: open the glycol valve above the band, close it below. */
  private control(): void {
    const band = Math.min(this.register(REGISTER_COOLING_BAND), 50) / 10;
    if (this.reading.temperature > this.setpoint + band) this.valveOpen = true;
    else if (this.reading.temperature < this.setpoint - band) this.valveOpen = false;
  }

  /** Fresh wort, pitched with yeast at about the setpoint. */
  private fillTank(): void {
    this.batchSeconds = 0;
    this.originalExtract = this.random.between(11, 15);
    this.terminalExtract = this.originalExtract * this.random.between(0.18, 0.24);
    this.extract = this.originalExtract;
    this.yeast = 0.02;
    this.temperature = this.setpoint + this.random.between(0.5, 1.5);
  }

  /** kg per litre; wort is about 0.4 % denser per degree Plato. */
  private density(): number {
    return 1 + 0.004 * this.extract;
  }

  private sample(): void {
    const liquidHeightM = this.volumeLitres / 1000 / (Math.PI * (TANK_DIAMETER_M / 2) ** 2);
    const columnPsi = ((this.density() * 1000 * 9.81 * liquidHeightM) / 1000) * PSI_PER_KPA;
    // The blow-off line holds a little head pressure, more while CO2 pours out.
    const upper = 0.4 + 0.06 * this.co2Flow + this.random.normal(0.01);
    const attenuation = (this.originalExtract - this.extract) / (this.originalExtract - this.terminalExtract);
    this.reading = {
      // The controller acts on the reading as reported, at its resolution.
      temperature: roundTo(this.sensorTemperature + this.random.normal(0.02), 2),
      probe: this.sensorTemperature + 0.15 + this.random.normal(0.03),
      flow: Math.max(0, this.co2Flow + this.random.normal(0.1)),
      upper: Math.max(0, upper),
      lower: Math.max(0, upper + columnPsi + this.random.normal(0.01)),
      ph: clamp(5.3 - 1.05 * attenuation + this.random.normal(0.01), 3.5, 6),
    };
  }
}
