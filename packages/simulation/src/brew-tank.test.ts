import { describe, expect, it } from 'vitest';
import {
  BREW_REGISTERS,
  CALIBRATION_CONTROLS,
  CALIBRATION_READ_REGISTERS,
  calibrationReadout,
  estimateGravity,
  isTankVatMarked,
  pressurizedAt,
  tankLevel,
  vatStatusRegister,
} from '@fieldlink/domain/brew';
import { BrewTank } from './brew-tank';

const START = Date.UTC(2025, 2, 10, 8);
const HOUR = 3600;

function sample(model: BrewTank, hours: number, everySeconds = 60): Record<string, number>[] {
  const readings: Record<string, number>[] = [];
  for (let elapsed = 0; elapsed < hours * HOUR; elapsed += everySeconds) {
    model.step(everySeconds);
    readings.push(model.values());
  }
  return readings;
}

describe('brew tank', () => {
  it.each([
    [1, 4],
    [2, 10],
    [3, 16],
  ])('brings the beer to a new setpoint and holds it there (seed %i, setpoint %i °C)', (seed, setpoint) => {
    const model = new BrewTank({ seed, startTimeMs: START });
    expect(model.writeChannel('sp1', setpoint)).toBe(setpoint);
    const readings = sample(model, 48);
    const gaps = readings.map((reading) => Math.abs((reading.c1 ?? Number.NaN) - setpoint));
    // Closer after a day than at the start, and inside the band plus lag for the whole second day.
    expect(gaps[24 * 60] ?? Number.NaN).toBeLessThan(Math.max(gaps[0] ?? 0, 1));
    expect(Math.max(...gaps.slice(24 * 60))).toBeLessThan(0.8);
  });

  it('warms from fermentation heat while the glycol valve stays shut', () => {
    const model = new BrewTank({ seed: 1, startTimeMs: START });
    // A setpoint above anything reachable keeps the valve shut.
    model.writeChannel('sp1', 100);
    const start = model.values();
    expect(start.a1).toBeGreaterThan(1);
    const later = sample(model, 6).at(-1) ?? {};
    expect(later.do1).toBe(0);
    expect(later.c1).toBeGreaterThan((start.c1 ?? Number.NaN) + 0.3);
  });

  it('puts out less CO2 as the fermentation runs down over the days, and pH falls', () => {
    const model = new BrewTank({ seed: 2, startTimeMs: START });
    const days = [0, 1, 2, 3, 4, 5, 6].map(() => sample(model, 24, 600));
    const meanFlow = days.map((day) => day.reduce((sum, reading) => sum + (reading.a1 ?? 0), 0) / day.length);
    expect(meanFlow[6]).toBeLessThan((meanFlow[1] ?? 0) / 3);
    expect(days[6]?.at(-1)?.t9).toBeLessThan((days[0]?.[0]?.t9 ?? 0) - 0.1);
    const totals = days.flat().map((reading) => reading.t1 ?? 0);
    expect(totals.every((total, index) => index === 0 || total >= (totals[index - 1] ?? 0))).toBe(true);
  });

  it('reads a higher pressure at the bottom than at the top, by the liquid column', () => {
    const model = new BrewTank({ seed: 3, startTimeMs: START });
    for (const reading of sample(model, 4)) {
      const column = (reading.c3 ?? 0) - (reading.c2 ?? 0);
      expect(column).toBeGreaterThan(1);
      expect(column).toBeLessThan(6);
    }
  });
});

describe('brew tank against the console’s gravity estimate', () => {
  it.each([1, 2, 3, 4, 5])(
    'estimates the gravity within 0.003 of the model’s own until the tank is pressurized (seed %i)',
    (seed) => {
      const model = new BrewTank({ seed, startTimeMs: START });
      // Wait for a fresh fill, then follow the whole batch hour by hour.
      const first = model.batch().filledAt;
      while (model.batch().filledAt === first) model.step(600);
      const batch = model.batch();
      const start = model.values();
      const calibration = { scale: model.levelScale(), offset: 0 };
      const level = tankLevel(start.c2, start.c3, calibration)!;
      expect(Math.abs(level - batch.litres)).toBeLessThan(batch.litres * 0.01);
      const samples: { t: number; upper: number; lower: number }[] = [];
      let compared = 0;
      let worst = 0;
      for (let hour = 0; hour < 13 * 24; hour += 1) {
        model.step(HOUR);
        const values = model.values();
        samples.push({ t: model.timeMs, upper: values.c2 ?? 0, lower: values.c3 ?? 0 });
        const pressurized = pressurizedAt(samples);
        if (pressurized !== null) break;
        const estimate = estimateGravity({
          originalGravity: batch.originalGravity,
          co2TotalAtStart: batch.co2TotalAtFill,
          co2Total: values.t1 ?? null,
          co2TotalGain: 1,
          tankLevel: level,
          temperature: values.t10 ?? null,
          headPressure: values.c2 ?? null,
        });
        worst = Math.max(worst, Math.abs(estimate.currentGravity! - model.trueGravity()));
        compared += 1;
      }
      // Most of the fermentation was compared, then the closed valve pressurized the tank.
      expect(compared).toBeGreaterThan(48);
      expect(pressurizedAt(samples)).not.toBeNull();
      expect(worst).toBeLessThan(0.003);
    },
  );
});

describe('brew tank as a vat controller (issue 42, item 9)', () => {
  const readout = (model: BrewTank) =>
    calibrationReadout(Object.fromEntries(CALIBRATION_READ_REGISTERS.map((r) => [r, model.readRegister(r)])));
  const vat = (model: BrewTank) => model.readRegister(BREW_REGISTERS.VAT_NUMBER)!;

  it('has the calibration controls gpf1 to gpf7, and every press answers as a device would', () => {
    const model = new BrewTank({ seed: 7, startTimeMs: START });
    expect(model.channels.filter((channel) => channel.code.startsWith('gpf')).map((c) => c.code)).toEqual(
      CALIBRATION_CONTROLS.map((control) => control.code),
    );
    for (const code of ['gpf1', 'gpf2', 'gpf3', 'gpf4', 'gpf5', 'gpf6']) expect(model.writeChannel(code, 1)).toBe(1);
    expect(model.writeChannel('gpf3', 0)).toBe(0);
    // The error flag is the controller's to set; a button takes 0 or 1 only.
    expect(model.writeChannel('gpf7', 0)).toBeUndefined();
    expect(model.writeChannel('gpf4', 0.5)).toBeUndefined();
  });

  it.each<[string, (model: BrewTank) => void, { error: number; mode: number; low: boolean; high: boolean }]>([
    [
      'a capture outside calibration mode raises the error flag',
      (m) => m.writeChannel('gpf4', 1),
      { error: 1, mode: 0, low: false, high: false },
    ],
    [
      'low and high captured and applied: mode ends, no error',
      (m) => {
        m.writeChannel('gpf3', 1);
        m.writeChannel('gpf4', 1);
        // The probe goes from one reference to the other: here the beer is chilled instead.
        m.writeChannel('sp1', 2);
        m.step(12 * HOUR);
        m.writeChannel('gpf5', 1);
        m.writeChannel('gpf6', 1);
      },
      { error: 0, mode: 0, low: true, high: true },
    ],
    [
      'apply with one point only: error, still in calibration mode',
      (m) => {
        m.writeChannel('gpf3', 1);
        m.writeChannel('gpf4', 1);
        m.writeChannel('gpf6', 1);
      },
      { error: 1, mode: 1, low: true, high: false },
    ],
    [
      'calibration mode on again clears the error',
      (m) => {
        m.writeChannel('gpf6', 1);
        m.writeChannel('gpf3', 1);
      },
      { error: 0, mode: 1, low: false, high: false },
    ],
  ])('%s', (_name, act, expected) => {
    const model = new BrewTank({ seed: 3, startTimeMs: START });
    act(model);
    const values = model.values();
    expect({ error: values.gpf7, mode: values.gpf3 }).toEqual({ error: expected.error, mode: expected.mode });
    const shown = readout(model);
    expect(shown.inputChannel).toBe('c1');
    expect(shown.lowCapture !== 0).toBe(expected.low);
    expect(shown.highCapture !== 0).toBe(expected.high);
  });

  it('shows the captured temperature in LOW_CAL_DISPLAY and its CO2 total in CO2_TOTAL', () => {
    const model = new BrewTank({ seed: 4, startTimeMs: START });
    model.writeChannel('gpf3', 1);
    const reading = model.values().c1!;
    model.writeChannel('gpf4', 1);
    expect(readout(model).lowCapture).toBeCloseTo(reading, 2);
    // The total is past 16 bits: the pair carries it whole.
    expect(model.values().t1).toBeGreaterThan(65_535);
    expect(readout(model).co2Total).toBe(model.values().t1);
  });

  it('zeroes the CO2 meter and the pressure transmitters on a press', () => {
    // Two tanks alike in everything but the presses: the difference is the zero error removed.
    const zeroed = new BrewTank({ seed: 5, startTimeMs: START });
    const twin = new BrewTank({ seed: 5, startTimeMs: START });
    expect(zeroed.writeChannel('gpf1', 1)).toBe(1);
    expect(zeroed.writeChannel('gpf2', 1)).toBe(1);
    zeroed.step(600);
    twin.step(600);
    const [after, before] = [zeroed.values(), twin.values()];
    for (const code of ['c2', 'c3']) {
      expect(before[code]! - after[code]!).toBeGreaterThan(0.009);
      expect(before[code]! - after[code]!).toBeLessThan(0.081);
    }
    expect(before.a1! - after.a1!).toBeGreaterThan(0.019);
    expect(before.a1! - after.a1!).toBeLessThan(0.061);
  });

  it('marks its vat (status bits 6 and 7) once sealed and at pressure, keeps a written status, and clears it on a refill', () => {
    const model = new BrewTank({ seed: 2, startTimeMs: START });
    const status = () => model.readRegister(vatStatusRegister(vat(model)))!;
    const marked = () => isTankVatMarked('Vats 4.2', model.registers(), vat(model));
    expect(marked()).toBe(false);
    let hours = 0;
    while (!marked() && hours < 14 * 24) {
      model.step(HOUR);
      hours += 1;
    }
    expect(marked()).toBe(true);
    expect(status() & 0b1100_0000).toBe(0b1100_0000);
    // A person clears the mark at the controller: it stays cleared while the vat holds its pressure.
    expect(model.writeRegister(vatStatusRegister(vat(model)), 0)).toBe(0);
    model.step(HOUR);
    expect(marked()).toBe(false);
    expect(model.writeRegister(vatStatusRegister(vat(model)), 0b1100_0000)).toBe(0b1100_0000);
    model.step(HOUR);
    expect(marked()).toBe(true);
    // Refilled after 14 days: the new batch starts unmarked.
    model.step((14 * 24 - hours) * HOUR);
    expect(marked()).toBe(false);
  });
});
