import { clamp, roundTo } from './daily-cycle';
import { SeededRandom } from './seeded-random';

/** A health reading as a device's `health` frame carries it. */
export interface DeviceHealthReading {
  t: number;
  networkInterface: string;
  currentTimeZone: string;
  supplyVoltage: number;
  signal: number;
  signalQuality: number;
  resets: number;
  port1Resets: number;
  networkConnects: number;
  mqttConnects: number;
  cpuTemp: number;
  errorStatus: number;
}

/**
 * The modem and board health a device reports: supply voltage, cellular signal wandering within its
 * site's range, reset and connect counters, CPU temperature.
 */
export class DeviceHealthMonitor {
  private readonly random: SeededRandom;
  private readonly siteSignal: number;
  private readonly resets: number;
  private readonly port1Resets: number;
  private readonly earlierConnects: number;
  private signal: number;

  constructor(seed: number) {
    this.random = new SeededRandom(seed ^ 0x2c1b3c6d);
    this.siteSignal = this.random.between(-95, -65);
    this.signal = this.siteSignal;
    this.resets = this.random.integer(0, 6);
    this.port1Resets = this.random.integer(0, 2);
    this.earlierConnects = this.random.integer(5, 60);
  }

  /** A health reading at `t` (unix ms); `mqttConnects` counts this run's connections. */
  read(t: number, context: { timeZone: string; mqttConnects: number }): DeviceHealthReading {
    // A random walk pulled back to the site's level: signal drifts with weather and traffic.
    this.signal = clamp(this.signal + 0.2 * (this.siteSignal - this.signal) + this.random.normal(1.5), -113, -51);
    const connects = this.earlierConnects + context.mqttConnects;
    return {
      t,
      networkInterface: 'cellular',
      currentTimeZone: context.timeZone,
      supplyVoltage: roundTo(12.2 + this.random.normal(0.05), 2),
      signal: Math.round(this.signal),
      // Signal quality as the modem's CSQ (0 to 31) for the same signal.
      signalQuality: Math.round(clamp((this.signal + 113) / 2, 0, 31)),
      resets: this.resets,
      port1Resets: this.port1Resets,
      networkConnects: connects,
      mqttConnects: connects,
      cpuTemp: roundTo(41 + this.random.normal(0.8), 1),
      errorStatus: 0,
    };
  }
}
