import { ambientTemperature, clamp, hourBump, roundTo } from './daily-cycle';
import { PlantModel, type ChannelSpec, type PlantModelOptions } from './plant-model';

/**
 * A general-purpose controller in a heated plant room: a thermostat (heater relay do1 against
 * setpoint sp1) and a pressure pump (relay do2 against setpoint sp2) feeding a small pressure vessel,
 * a door contact and a flow totalizer. Both loops switch with hysteresis on the measured value, the
 * way a field controller does, so the relays cycle and the readings saw-tooth around the setpoints.
 */

export const GENERIC_CHANNELS: readonly ChannelSpec[] = [
  { code: 'c1', name: 'Room temperature', units: '°C', range: [-10, 45], alarm: true },
  { code: 'c2', name: 'Line pressure', units: 'bar', range: [0, 7] },
  { code: 'c3', name: 'Pump flow', units: 'L/min', range: [0, 45] },
  { code: 'c4', name: 'Humidity', units: '%', range: [5, 100] },
  { code: 'sp1', name: 'Heating setpoint', units: '°C', range: [5, 35], writable: true },
  { code: 'sp2', name: 'Pressure setpoint', units: 'bar', range: [1, 6], writable: true },
  { code: 'do1', name: 'Heater', range: [0, 1], writable: true },
  { code: 'do2', name: 'Pump', range: [0, 1], writable: true },
  { code: 't1', name: 'Pumped volume', units: 'L', range: [0, 1e9] },
  { code: 'd1', name: 'Door', range: [0, 1] },
];

/** Heating band in tenths of a degree (hysteresis either side of sp1). */
export const REGISTER_HEATING_BAND = 100;
/** Pressure band in hundredths of a bar (hysteresis either side of sp2). */
export const REGISTER_PRESSURE_BAND = 101;
const REGISTER_MODBUS_ADDRESS = 1;

/**
 * The room warms by 6 °C per hour with the heater on and nothing lost, and loses heat to outside air
 * with a four-hour time constant (one hour with the door open): the heater can hold 24 °C above outside.
 */
const HEAT_RATE = 6 / 3600;
const LOSS_TAU_SHUT = 4 * 3600;
const LOSS_TAU_OPEN = 3600;
/** The probe sits in a pocket and lags the air. */
const SENSOR_TAU = 90;
/** Pump curve: full flow at no head, none at shut-off head. */
const PUMP_FLOW_MAX = 40;
const PUMP_SHUT_OFF_BAR = 7;
/** Pressure rise of the vessel per litre pumped in. */
const VESSEL_BAR_PER_LITRE = 0.004;

export class GenericController extends PlantModel {
  readonly kind = 'generic' as const;
  readonly channels = GENERIC_CHANNELS;

  private readonly ambientMean: number;
  private readonly demandScale: number;
  private airTemperature: number;
  private sensorTemperature: number;
  private heaterOn = false;
  private pressure: number;
  private pumpOn = false;
  private pumpFlow = 0;
  private pumpedLitres: number;
  private doorOpenSeconds = 0;
  private setpointTemperature = 21;
  private setpointPressure = 3;
  private reading = { temperature: 0, pressure: 0, flow: 0, humidity: 0 };

  constructor(options: PlantModelOptions) {
    super(options);
    this.ambientMean = this.random.between(11, 16);
    this.demandScale = this.random.between(0.8, 1.2);
    this.airTemperature = this.setpointTemperature + this.random.normal(0.3);
    this.sensorTemperature = this.airTemperature;
    this.pressure = this.setpointPressure + this.random.normal(0.1);
    this.pumpedLitres = Math.round(this.random.between(1_000, 50_000));
    this.defineRegisters({ [REGISTER_MODBUS_ADDRESS]: 1, [REGISTER_HEATING_BAND]: 5, [REGISTER_PRESSURE_BAND]: 30 });
    this.sample();
  }

  values(): Record<string, number> {
    return {
      c1: roundTo(this.reading.temperature, 2),
      c2: roundTo(this.reading.pressure, 2),
      c3: roundTo(this.reading.flow, 1),
      c4: roundTo(this.reading.humidity, 1),
      sp1: this.setpointTemperature,
      sp2: this.setpointPressure,
      do1: this.heaterOn ? 1 : 0,
      do2: this.pumpOn ? 1 : 0,
      t1: roundTo(this.pumpedLitres, 1),
      d1: this.doorOpenSeconds > 0 ? 1 : 0,
    };
  }

  protected advance(h: number): void {
    const hour = this.hourOfDay();
    this.moveDoor(h, hour);

    const ambient = ambientTemperature(hour, this.ambientMean, 6);
    const lossTau = this.doorOpenSeconds > 0 ? LOSS_TAU_OPEN : LOSS_TAU_SHUT;
    this.airTemperature += ((ambient - this.airTemperature) / lossTau + (this.heaterOn ? HEAT_RATE : 0)) * h;
    this.sensorTemperature += ((this.airTemperature - this.sensorTemperature) / SENSOR_TAU) * h;

    // Taps draw more at higher pressure (orifice flow), so the vessel never drains below empty.
    const demand = (4 + 12 * (hourBump(hour, 7.5, 1.5) + 0.7 * hourBump(hour, 19, 2))) * this.demandScale;
    const draw = demand * Math.min(1, Math.sqrt(Math.max(0, this.pressure) / 2));
    this.pumpFlow = this.pumpOn ? Math.max(0, PUMP_FLOW_MAX * (1 - this.pressure / PUMP_SHUT_OFF_BAR)) : 0;
    this.pressure = clamp(this.pressure + ((this.pumpFlow - draw) / 60) * VESSEL_BAR_PER_LITRE * h, 0, 7);
    this.pumpedLitres += (this.pumpFlow / 60) * h;

    this.sample();
    this.control();
  }

  protected applyWrite(code: string, value: number): number | undefined {
    if (code === 'sp1') this.setpointTemperature = value;
    else if (code === 'sp2') this.setpointPressure = value;
    else if (code === 'do1') this.heaterOn = value === 1;
    else if (code === 'do2') this.pumpOn = value === 1;
    else return undefined;
    return value;
  }

  /** Both loops act on the measured value with hysteresis, like the controller's own scan. */
  private control(): void {
    const heatingBand = Math.min(this.register(REGISTER_HEATING_BAND), 50) / 10;
    if (this.reading.temperature < this.setpointTemperature - heatingBand) this.heaterOn = true;
    else if (this.reading.temperature > this.setpointTemperature + heatingBand) this.heaterOn = false;

    const pressureBand = Math.min(this.register(REGISTER_PRESSURE_BAND), 200) / 100;
    if (this.reading.pressure < this.setpointPressure - pressureBand) this.pumpOn = true;
    else if (this.reading.pressure > this.setpointPressure + pressureBand) this.pumpOn = false;
  }

  /** Staff open the door a few times an hour by day, rarely at night. */
  private moveDoor(h: number, hour: number): void {
    if (this.doorOpenSeconds > 0) {
      this.doorOpenSeconds = Math.max(0, this.doorOpenSeconds - h);
      return;
    }
    const opensPerHour = hour >= 7 && hour < 19 ? 2 : 0.2;
    if (this.random.chance((opensPerHour * h) / 3600)) this.doorOpenSeconds = this.random.between(20, 120);
  }

  private sample(): void {
    // Readings carry the instrument's resolution; the controller acts on the same numbers it reports.
    const temperature = roundTo(this.sensorTemperature + this.random.normal(0.03), 2);
    this.reading = {
      temperature,
      pressure: roundTo(Math.max(0, this.pressure + this.random.normal(0.01)), 2),
      flow: this.pumpFlow > 0 ? Math.max(0, this.pumpFlow + this.random.normal(0.3)) : 0,
      // Relative humidity falls as the same air warms.
      humidity: clamp(55 - 2 * (temperature - 20) + this.random.normal(0.5), 5, 100),
    };
  }
}
