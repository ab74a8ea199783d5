import {
  ATMOSPHERIC_PSI,
  BREW_REGISTERS,
  CALIBRATION_CONTROLS,
  CALIBRATION_DISPLAY_SCALE,
  PSI_PER_KPA,
  VAT_STATUS_BITS,
  registerWords,
  vatStatusRegister,
} from '@fieldlink/domain/brew';
import { ambientTemperature, clamp, roundTo } from './daily-cycle';
import { PlantModel, type ChannelSpec, type PlantModelOptions } from './plant-model';
import { SeededRandom } from './seeded-random';
import { PressureTransmitter } from './transmitter';

/**
 * A jacketed cylindro-conical fermentation tank. Yeast ferments the real extract (°Plato) along a
 * lag, a peak and a tail, releasing heat and CO2 by Balling's balance (2.0665 g of extract give 1 g of
 * ethanol and 0.9565 g of CO2). The CO2 first saturates the beer (Henry's law for CO2 in beer) and
 * the rest leaves through the flow meter (a1, totalled in t1), until the spunding valve closes near
 * the end of fermentation: then it builds head pressure instead. A glycol valve (relay do1) cools the
 * jacket when the beer rises above setpoint sp1 plus a band, and the jacket chills with a lag. Head
 * and bottom pressures differ by the liquid column, which is how the console derives the tank level.
 * The model's own apparent gravity (`trueGravity`) is what the console's estimate is checked against.
 *
 * Like a real vat controller it keeps its vat number (VAT_NUMBER), the vat's status register and the
 * calibration of §3: the controls gpf1 to gpf7 (zero the CO2 meter and the pressure transmitters,
 * calibration mode, capture the low and high points of the input INPUT_CHANNEL_REGISTER names, apply,
 * and the error flag), the captured points in LOW_CAL_DISPLAY and HIGH_CAL_DISPLAY and its CO2 total in
 * CO2_TOTAL. docs/decisions.md ("Issue 42, item 9") describes what each does.
 */

export const BREW_TANK_CHANNELS: readonly ChannelSpec[] = [
  { code: 'c1', name: 'Temperature', units: '°C', range: [-5, 40], alarm: true },
  { code: 'c2', name: 'Upper pressure', units: 'psi', range: [0, 30] },
  { code: 'c3', name: 'Lower pressure', units: 'psi', range: [0, 40] },
  { code: 'a1', name: 'CO2 flow', units: 'L/min', range: [0, 100] },
  { code: 't1', name: 'CO2 total', units: 'L', range: [0, 1e10] },
  { code: 't9', name: 'pH', range: [3.5, 6] },
  { code: 't10', name: 'Probe temperature', units: '°C', range: [-5, 40] },
  { code: 'sp1', name: 'Temperature setpoint', units: '°C', range: [-5, 100], writable: true },
  { code: 'do1', name: 'Glycol valve', range: [0, 1], writable: true },
  // The calibration controls: buttons and the mode switch accept 0 or 1; the error flag is read-only.
  ...CALIBRATION_CONTROLS.map((control): ChannelSpec => ({
    code: control.code,
    name: control.label,
    range: [0, 1],
    writable: control.code !== 'gpf7',
  })),
];

/** The input channels (Ch_n) INPUT_CHANNEL_REGISTER may name, by number. */
const INPUT_CHANNELS = ['c1', 'c2', 'c3'] as const;

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
/** Balling: g of CO2 per g of extract fermented; CO2 density at 0 °C and 1 atm in g/L. */
const CO2_PER_EXTRACT = 0.9565 / 2.0665;
const CO2_DENSITY = 1.98;
/** The spunding valve closes at this attenuation and holds the head up to this pressure (psi). */
const SPUNDING_ATTENUATION = 0.85;
const SPUNDING_PSI = 15;
/** Litres of head space above the beer, for the pressure the CO2 builds there. */
const HEAD_SPACE_LITRES = 400;
/** Yeast growth rate and extract uptake rate at 18 °C, per second. */
const YEAST_GROWTH = 3e-5;
const EXTRACT_UPTAKE = 8e-6;
/** The head and bottom transmitters: 4-20 mA loops over 0-30 and 0-40 psi (the channels' ranges). */
const UPPER_TRANSMITTER = new PressureTransmitter('current', 30);
const LOWER_TRANSMITTER = new PressureTransmitter('current', 40);

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
  /** CO2 held in the beer, g/L, and the head pressure (psi gauge) once the valve is closed. */
  private dissolved = 0;
  private headPsi = 0;
  private valveClosed = false;
  private filledAt = 0;
  private co2AtFill = 0;
  private reading = { temperature: 0, probe: 0, flow: 0, upper: 0, lower: 0, ph: 0 };
  /** Zero errors of the CO2 flow meter (L/min) and of both pressure transmitters (psi), until zeroed. */
  private flowZeroError: number;
  private pressureZeroError: number;
  /** Calibration mode (gpf3), the points captured and the error flag (gpf7). */
  private calibrating = false;
  private lowCapture: number | null = null;
  private highCapture: number | null = null;
  private calibrationError = false;
  private readonly vatNumber: number;

  constructor(options: PlantModelOptions) {
    // Start part-way into a batch, so a fresh demo already shows an active fermentation.
    const batchAgeSeconds = new SeededRandom(options.seed ^ 0x5bd1e995).between(0.5, 4) * DAY;
    super({ ...options, startTimeMs: options.startTimeMs - batchAgeSeconds * 1000 });
    this.volumeLitres = this.random.integer(10, 30) * 100;
    this.setpoint = this.random.chance(0.5) ? 12 : 19;
    this.temperature = this.setpoint + 1;
    this.sensorTemperature = this.temperature;
    this.co2TotalLitres = Math.round(this.random.between(1e5, 1e6));
    this.vatNumber = this.random.integer(1, 12);
    // Drawn apart from the plant's own numbers, so adding them moved no fermentation.
    const drift = new SeededRandom(options.seed ^ 0x2c1b3c6d);
    this.flowZeroError = drift.between(0.02, 0.06);
    this.pressureZeroError = drift.between(0.01, 0.08);
    this.defineRegisters({
      [BREW_REGISTERS.VAT_NUMBER]: this.vatNumber,
      [BREW_REGISTERS.INPUT_CHANNEL_REGISTER]: 1,
      [vatStatusRegister(this.vatNumber)]: 0,
      [BREW_REGISTERS.LOW_CAL_DISPLAY]: 0,
      [BREW_REGISTERS.LOW_CAL_DISPLAY + 1]: 0,
      [BREW_REGISTERS.HIGH_CAL_DISPLAY]: 0,
      [BREW_REGISTERS.HIGH_CAL_DISPLAY + 1]: 0,
      [BREW_REGISTERS.CO2_TOTAL]: 0,
      [BREW_REGISTERS.CO2_TOTAL + 1]: 0,
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
      // The buttons read 0: the controller acts on a press and clears it.
      gpf1: 0,
      gpf2: 0,
      gpf3: this.calibrating ? 1 : 0,
      gpf4: 0,
      gpf5: 0,
      gpf6: 0,
      gpf7: this.calibrationError ? 1 : 0,
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

    // °P is grams of extract per 100 g of wort.
    const extractKgPerSecond = (uptake * 10 * this.density() * this.volumeLitres) / 1000;
    this.releaseCo2(extractKgPerSecond * CO2_PER_EXTRACT * 1000 * h, h);

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

  // The registers that follow the plant are brought up to date when read, not on every step.
  override registers(): Record<string, number> {
    this.updateRegisters();
    return super.registers();
  }

  override readRegister(register: number): number | undefined {
    this.updateRegisters();
    return super.readRegister(register);
  }

  protected applyWrite(code: string, value: number): number | undefined {
    if (code === 'sp1') this.setpoint = value;
    else if (code === 'do1') this.valveOpen = value === 1;
    else if (code.startsWith('gpf') && (value === 0 || value === 1)) this.calibrate(code, value);
    else return undefined;
    return value;
  }

  /**
   * A calibration control: zeroing the CO2 meter or the pressure transmitters; calibration mode on or
   * off; capturing the selected input's reading as the low or high point (only in calibration mode,
   * else the error flag is raised); applying the two points (ends calibration mode; the error flag
   * says when there were not two distinct points). A press of 0 on a button does nothing.
   */
  private calibrate(code: string, value: number): void {
    if (code === 'gpf3') {
      this.calibrating = value === 1;
      if (this.calibrating) this.calibrationError = false;
      return;
    }
    if (value !== 1) return;
    if (code === 'gpf1') this.flowZeroError = 0;
    else if (code === 'gpf2') this.pressureZeroError = 0;
    else if (code === 'gpf4' || code === 'gpf5') {
      const input = this.inputReading();
      if (!this.calibrating || input === null) {
        this.calibrationError = true;
        return;
      }
      if (code === 'gpf4') this.lowCapture = input;
      else this.highCapture = input;
    } else if (code === 'gpf6') {
      const valid = this.calibrating && this.lowCapture !== null && this.highCapture !== null;
      this.calibrationError = !valid || this.lowCapture === this.highCapture;
      if (!this.calibrationError) this.calibrating = false;
    }
  }

  /** The reading of the input INPUT_CHANNEL_REGISTER names, or null when it names none. */
  private inputReading(): number | null {
    const code = INPUT_CHANNELS[this.register(BREW_REGISTERS.INPUT_CHANNEL_REGISTER) - 1];
    return code === undefined ? null : this.values()[code]!;
  }

  /** The registers the controller keeps up to date: the vat's cooling bit, the captured points, the CO2 total. */
  private updateRegisters(): void {
    const statusRegister = vatStatusRegister(this.vatNumber);
    let status = this.register(statusRegister) & ~VAT_STATUS_BITS.cooling;
    if (this.valveOpen) status |= VAT_STATUS_BITS.cooling;
    this.setRegister(statusRegister, status);
    const pair = (register: number, value: number) => {
      const [high, low] = registerWords(value);
      this.setRegister(register, high);
      this.setRegister(register + 1, low);
    };
    pair(BREW_REGISTERS.LOW_CAL_DISPLAY, Math.round((this.lowCapture ?? 0) * CALIBRATION_DISPLAY_SCALE));
    pair(BREW_REGISTERS.HIGH_CAL_DISPLAY, Math.round((this.highCapture ?? 0) * CALIBRATION_DISPLAY_SCALE));
    pair(BREW_REGISTERS.CO2_TOTAL, Math.round(this.co2TotalLitres));
  }

  /** Sets status bits 6 and 7 (the vat mark) as the vat seals and reaches its pressure; a refill clears them. */
  private latchVatStatus(bits: number, on: boolean): void {
    const statusRegister = vatStatusRegister(this.vatNumber);
    const status = this.register(statusRegister);
    const next = on ? status | bits : status & ~bits;
    if (next === status) return;
    this.setRegister(statusRegister, next);
    // The console learns registers from the configuration: send it again.
    this.settingsChanged();
  }

  /**
   * CO2 fermentation released over `h` seconds (grams): it tops the beer up to saturation, and the
   * rest leaves through the flow meter, or, with the spunding valve closed, pressurises the head.
   */
  private releaseCo2(grams: number, h: number): void {
    if (!this.valveClosed && this.attenuation() >= SPUNDING_ATTENUATION) {
      this.valveClosed = true;
      this.latchVatStatus(VAT_STATUS_BITS.sealed, true);
    }
    const capacity = saturatedGramsPerLitre(this.headPsi, this.temperature) * this.volumeLitres;
    const held = this.dissolved * this.volumeLitres;
    const free = Math.max(0, held + grams - capacity);
    this.dissolved = (held + grams - free) / this.volumeLitres;
    const litres = free / CO2_DENSITY;
    if (this.valveClosed && this.headPsi < SPUNDING_PSI) {
      this.headPsi = Math.min(SPUNDING_PSI, this.headPsi + (litres / HEAD_SPACE_LITRES) * ATMOSPHERIC_PSI);
      if (this.headPsi >= SPUNDING_PSI) this.latchVatStatus(VAT_STATUS_BITS.atPressure, true);
      this.co2Flow = 0;
      return;
    }
    this.co2Flow = (litres / h) * 60;
    this.co2TotalLitres += litres;
  }

  private attenuation(): number {
    return (this.originalExtract - this.extract) / (this.originalExtract - this.terminalExtract);
  }

  /** The apparent specific gravity of the beer now, as a hydrometer reads it (Balling). */
  trueGravity(): number {
    const apparentExtract = (this.extract - 0.1808 * this.originalExtract) / 0.8192;
    return platoToGravity(apparentExtract);
  }

  /** The batch now in the tank: when it was filled, its original gravity, the CO2 total then, its litres. */
  batch(): { filledAt: number; originalGravity: number; co2TotalAtFill: number; litres: number } {
    return {
      filledAt: this.filledAt,
      originalGravity: platoToGravity(this.originalExtract),
      co2TotalAtFill: this.co2AtFill,
      litres: this.volumeLitres,
    };
  }

  /** Litres per kPa of liquid column in this tank, at the original gravity (its level calibration scale). */
  levelScale(): number {
    const area = Math.PI * (TANK_DIAMETER_M / 2) ** 2;
    return (area * 1e6) / (platoToGravity(this.originalExtract) * 1000 * 9.81);
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
    this.dissolved = 0;
    this.headPsi = 0;
    this.valveClosed = false;
    this.latchVatStatus(VAT_STATUS_BITS.sealed | VAT_STATUS_BITS.atPressure, false);
    this.filledAt = this.timeMs;
    this.co2AtFill = this.co2TotalLitres;
    this.temperature = this.setpoint + this.random.between(0.5, 1.5);
  }

  /** kg per litre: the wort's specific gravity. */
  private density(): number {
    return platoToGravity(this.extract);
  }

  private sample(): void {
    const liquidHeightM = this.volumeLitres / 1000 / (Math.PI * (TANK_DIAMETER_M / 2) ** 2);
    const columnPsi = ((this.density() * 1000 * 9.81 * liquidHeightM) / 1000) * PSI_PER_KPA;
    // The blow-off line holds a little head pressure, more while CO2 pours out.
    const upper = this.headPsi + 0.4 + 0.06 * this.co2Flow + this.random.normal(0.01);
    const attenuation = this.attenuation();
    this.reading = {
      // The controller acts on the reading as reported, at its resolution.
      temperature: roundTo(this.sensorTemperature + this.random.normal(0.02), 2),
      probe: this.sensorTemperature + 0.15 + this.random.normal(0.03),
      flow: Math.max(0, this.co2Flow + this.flowZeroError + this.random.normal(0.1)),
      upper: UPPER_TRANSMITTER.read(upper) + this.pressureZeroError,
      lower: LOWER_TRANSMITTER.read(upper + columnPsi + this.random.normal(0.01)) + this.pressureZeroError,
      ph: clamp(5.3 - 1.05 * attenuation + this.random.normal(0.01), 3.5, 6),
    };
  }
}

/** Specific gravity of a solution of `plato` °P (ASBC). */
function platoToGravity(plato: number): number {
  return 1 + plato / (258.6 - (plato / 258.2) * 227.1);
}

/** CO2 beer holds at saturation, g/L, at a head pressure (psi gauge) and °C: Henry's law (braukaiser.com). */
function saturatedGramsPerLitre(headPsi: number, celsius: number): number {
  const bar = headPsi / 14.5038;
  return (bar + 1.013) * Math.exp(-10.73797 + 2617.25 / (celsius + 273.15)) * 10;
}
