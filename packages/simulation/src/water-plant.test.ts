import { describe, expect, it } from 'vitest';
import {
  PLANT_FEATURE_KEYS,
  PLANT_RESETS,
  plantDashboard,
  plantFeaturesTag,
  PLANT_CONFIG_TAG_KEYS,
  type PlantAppType,
} from '@fieldlink/domain/plant-dashboard';
import { STANDSTILL_FLOW } from '@fieldlink/domain/plant-status';
import { REGISTER_START_LEVEL, REGISTER_STOP_LEVEL, WaterPlant } from './water-plant';

const MIDNIGHT = Date.UTC(2025, 0, 6);

function sample(model: WaterPlant, hours: number, everySeconds = 60): Record<string, number>[] {
  const readings: Record<string, number>[] = [];
  for (let elapsed = 0; elapsed < hours * 3600; elapsed += everySeconds) {
    model.step(everySeconds);
    readings.push(model.values());
  }
  return readings;
}

describe('water plant', () => {
  it.each([1, 2, 3])('only ever adds to its supply total (seed %i)', (seed) => {
    const model = new WaterPlant({ seed, startTimeMs: MIDNIGHT });
    const first = model.values().d1 ?? Number.NaN;
    const totals = sample(model, 72).map((reading) => reading.d1 ?? Number.NaN);
    totals.forEach((total, index) => expect(total).toBeGreaterThanOrEqual(totals[index - 1] ?? first));
    // A small town: some tens of cubic metres a day.
    const perDay = ((totals.at(-1) ?? 0) - first) / 3;
    expect(perDay).toBeGreaterThan(30);
    expect(perDay).toBeLessThan(200);
  });

  it('draws more in the morning peak than at night', () => {
    const model = new WaterPlant({ seed: 4, startTimeMs: MIDNIGHT });
    const day = sample(model, 24);
    const at = (hour: number): number => day[hour * 60]?.a1 ?? Number.NaN;
    expect(at(7)).toBeGreaterThan(at(3) * 3);
  });

  it('starts and stops the plant between its tank levels and keeps pressures and UV dose in their bands', () => {
    const model = new WaterPlant({ seed: 5, startTimeMs: MIDNIGHT });
    const start = model.readRegister(REGISTER_START_LEVEL) ?? 0;
    const stop = model.readRegister(REGISTER_STOP_LEVEL) ?? 0;
    let previous = model.values();
    let starts = 0;
    // Sampled at the controller's own 10 s scan, so every switch is seen with the level that caused it.
    for (const reading of sample(model, 72, 10)) {
      if (previous.do1 === 0 && reading.do1 === 1) {
        expect(reading.a16).toBeLessThan(start);
        starts += 1;
      }
      if (previous.do1 === 1 && reading.do1 === 0) expect(reading.a16).toBeGreaterThan(stop);
      expect(reading.c2).toBeGreaterThan(4.2);
      expect(reading.c2).toBeLessThan(4.8);
      expect(reading.c3).toBeGreaterThan(1.2);
      expect(reading.c3).toBeLessThan(1.9);
      expect(reading.t5).toBeGreaterThanOrEqual(50);
      expect(reading.t5).toBeLessThanOrEqual(60);
      previous = reading;
    }
    expect(starts).toBeGreaterThanOrEqual(2);
  });

  it.each([
    ['filtec', 'Filtec 2.1'],
    ['filtec', 'Filtec 3.10'],
    ['filtec moe', 'Filtec 2.1'],
  ] as [PlantAppType, string][])(
    'reports every channel the %s dashboard reads with every feature on (macro %s)',
    (appType, custom) => {
      const tags = [{ key: PLANT_CONFIG_TAG_KEYS[appType], value: plantFeaturesTag(PLANT_FEATURE_KEYS) }];
      const read = plantDashboard(appType, { tags, custom }).flatMap((section) =>
        section.widgets.flatMap((widget) => widget.channels.map(([code]) => code)),
      );
      const reported = new WaterPlant({ seed: 6, startTimeMs: MIDNIGHT }).values();
      expect(read.filter((code) => !(code in reported))).toEqual([]);
    },
  );

  it.each(PLANT_RESETS.filter((reset) => reset.clears !== 'alarms').map((reset) => [reset.code, reset.clears]))(
    'the reset button %s sets the total %s back to zero, once per press, and it counts on from there',
    (button, total) => {
      const model = new WaterPlant({ seed: 7, startTimeMs: MIDNIGHT + 6 * 3_600_000 });
      sample(model, 30);
      expect(model.values()[total]).toBeGreaterThan(0);
      expect(model.writeChannel(button, 1)).toBe(1);
      expect(model.values()[total]).toBe(0);
      expect(model.values()[button]).toBe(1);
      // Held down, the button does not reset again; released and pressed, it does.
      const after = sample(model, 30).map((reading) => reading[total] ?? Number.NaN);
      after.forEach((value, index) => expect(value).toBeGreaterThanOrEqual(after[index - 1] ?? 0));
      model.writeChannel(button, 0);
      model.writeChannel(button, 1);
      expect(model.values()[total]).toBe(0);
    },
  );

  it('latches an alarm flag until the alarm reset (gpf12) clears it', () => {
    const model = new WaterPlant({ seed: 8, startTimeMs: MIDNIGHT });
    // A plant held stopped with its tank drained by the town's demand raises the low-tank flag.
    model.writeRegister(REGISTER_START_LEVEL, 0);
    let reading = model.values();
    for (let hour = 0; hour < 72 && reading.s5 !== 1; hour += 1) {
      model.writeChannel('do1', 0);
      reading = sample(model, 1).at(-1)!;
    }
    expect(reading.s5).toBe(1);
    model.writeRegister(REGISTER_START_LEVEL, 55);
    sample(model, 6);
    expect(model.values().s5).toBe(1);
    model.writeChannel('gpf12', 1);
    expect(model.values().s5).toBe(0);
  });

  it('supplies water while stopped only from its storage tank, and none once the tank is empty (issue 36 item 3)', () => {
    const model = new WaterPlant({ seed: 9, startTimeMs: MIDNIGHT });
    let stoppedFlowing = 0;
    for (const reading of sample(model, 72, 10)) {
      if (reading.do1 !== 0 || (reading.a1 ?? 0) <= STANDSTILL_FLOW) continue;
      stoppedFlowing += 1;
      expect(reading.a16).toBeGreaterThan(0);
    }
    // The dashboard's explanation is needed: the town draws from the tank while the plant rests.
    expect(stoppedFlowing).toBeGreaterThan(0);
    // Held stopped until the tank runs dry, the plant supplies nothing.
    model.writeRegister(REGISTER_START_LEVEL, 0);
    let reading = model.values();
    for (let hour = 0; hour < 96 && (reading.a16 ?? 100) > 0; hour += 1) {
      model.writeChannel('do1', 0);
      reading = sample(model, 1).at(-1)!;
    }
    expect(reading.a16).toBe(0);
    for (const after of sample(model, 2, 10)) {
      model.writeChannel('do1', 0);
      expect(after.a1).toBe(0);
    }
  }, 60_000);
});
