import { describe, expect, it } from 'vitest';
import { GenericController, REGISTER_HEATING_BAND } from './generic-controller';

const NOON = Date.UTC(2025, 5, 1, 12);

/** Steps the controller `seconds` in 5 s scans and returns the reading after each. */
function run(model: GenericController, seconds: number): Record<string, number>[] {
  const readings: Record<string, number>[] = [];
  for (let elapsed = 0; elapsed < seconds; elapsed += 5) {
    model.step(5);
    readings.push(model.values());
  }
  return readings;
}

describe('generic controller thermostat', () => {
  it.each([1, 2, 3])('warms with the heater on and cools with it off (seed %i)', (seed) => {
    // Evening: outside air is falling, so the room has somewhere to lose its heat to.
    const model = new GenericController({ seed, startTimeMs: NOON + 6 * 3600_000 });
    const start = model.values().c1 ?? Number.NaN;

    model.writeChannel('sp1', 35);
    const heating = run(model, 1800);
    expect(heating.every((reading) => reading.do1 === 1)).toBe(true);
    const warmed = heating.at(-1)?.c1 ?? Number.NaN;
    expect(warmed).toBeGreaterThan(start + 0.5);

    model.writeChannel('sp1', 5);
    const cooling = run(model, 3600);
    expect(cooling.every((reading) => reading.do1 === 0)).toBe(true);
    expect(cooling.at(-1)?.c1).toBeLessThan(warmed - 0.5);
  });

  it.each([1, 2, 3])('switches the heater with hysteresis around the setpoint (seed %i)', (seed) => {
    const model = new GenericController({ seed, startTimeMs: NOON });
    const setpoint = 21;
    const band = (model.readRegister(REGISTER_HEATING_BAND) ?? 0) / 10;
    expect(band).toBe(0.5);

    let previous = model.values();
    let switches = 0;
    for (const reading of run(model, 12 * 3600)) {
      const temperature = reading.c1 ?? Number.NaN;
      if (previous.do1 === 0 && reading.do1 === 1) {
        expect(temperature).toBeLessThan(setpoint - band);
        switches += 1;
      } else if (previous.do1 === 1 && reading.do1 === 0) {
        expect(temperature).toBeGreaterThan(setpoint + band);
        switches += 1;
      } else if (temperature > setpoint - band && temperature < setpoint + band) {
        // Inside the band the relay holds its state.
        expect(reading.do1).toBe(previous.do1);
      }
      // The room stays near the setpoint: the band plus a little overshoot from the probe's lag.
      expect(Math.abs(temperature - setpoint)).toBeLessThan(band + 0.6);
      previous = reading;
    }
    expect(switches).toBeGreaterThanOrEqual(6);
  });

  it('follows a wider band written to its register', () => {
    const narrow = new GenericController({ seed: 4, startTimeMs: NOON });
    const wide = new GenericController({ seed: 4, startTimeMs: NOON });
    expect(wide.writeRegister(REGISTER_HEATING_BAND, 15)).toBe(15);
    const count = (readings: Record<string, number>[]): number =>
      readings.filter((reading, index) => index > 0 && reading.do1 !== readings[index - 1]?.do1).length;
    expect(count(run(wide, 12 * 3600))).toBeLessThan(count(run(narrow, 12 * 3600)));
  });

  it('keeps line pressure around its setpoint with the pump relay, and totals the pumped volume', () => {
    const model = new GenericController({ seed: 5, startTimeMs: NOON });
    const readings = run(model, 6 * 3600);
    const pressures = readings.map((reading) => reading.c2 ?? Number.NaN);
    expect(Math.min(...pressures)).toBeGreaterThan(2.5);
    expect(Math.max(...pressures)).toBeLessThan(3.5);
    expect(new Set(readings.map((reading) => reading.do2))).toEqual(new Set([0, 1]));
    const totals = readings.map((reading) => reading.t1 ?? Number.NaN);
    expect(totals.every((total, index) => index === 0 || total >= (totals[index - 1] ?? 0))).toBe(true);
    expect(totals.at(-1)).toBeGreaterThan(totals[0] ?? Number.POSITIVE_INFINITY);
  });
});
