import { describe, expect, it } from 'vitest';
import { EMPTY_ALARM_BIT, REFILL_ALARM_BIT, Sprayer } from './sprayer';

const START = Date.UTC(2025, 0, 6, 6);
const EMPTY = 1 << EMPTY_ALARM_BIT;
const REFILL = 1 << REFILL_ALARM_BIT;

describe('sprayer', () => {
  it('drops the tank level and counts a spray on each scheduled spray', () => {
    const model = new Sprayer({ seed: 1, startTimeMs: START });
    model.writeChannel('sp2', 10);
    const before = model.values();
    model.step(3600);
    const after = model.values();
    expect((after.t1 ?? 0) - (before.t1 ?? 0)).toBeGreaterThanOrEqual(5);
    expect((after.t1 ?? 0) - (before.t1 ?? 0)).toBeLessThanOrEqual(7);
    // Two zones of 30 s at 0.06 L/s from a 400 L tank: about 0.9 % a spray.
    const dropPerSpray = ((before.a16 ?? 0) - (after.a16 ?? 0)) / ((after.t1 ?? 0) - (before.t1 ?? 0));
    expect(dropPerSpray).toBeGreaterThan(0.7);
    expect(dropPerSpray).toBeLessThan(1.1);
  });

  it('opens zone 1 then zone 2 during a spray, with pump pressure', () => {
    const model = new Sprayer({ seed: 2, startTimeMs: START });
    expect(model.writeChannel('do1', 1)).toBe(1);
    model.step(5);
    expect(model.values()).toMatchObject({ do1: 1, do2: 0 });
    expect(model.values().c1).toBeGreaterThan(3);
    model.step(30);
    expect(model.values().do1).toBe(0);
  });

  it('raises the refill alarm, then the empty alarm, blocks sprays, and clears both once refilled', () => {
    const model = new Sprayer({ seed: 3, startTimeMs: START });
    // Raise the thresholds to just under the current level, so the alarms come within the hour.
    const level = model.values().a16 ?? 0;
    model.writeChannel('sp5', Math.floor(level - 1));
    model.writeChannel('sp4', Math.floor(level - 4));
    model.writeChannel('sp2', 5);

    const seen: number[] = [];
    for (let minute = 0; minute < 60; minute += 1) {
      model.step(60);
      const bits = model.statusBits();
      const reading = model.values().a16 ?? 0;
      if (bits & EMPTY) expect(reading).toBeLessThan((model.values().sp4 ?? 0) + 0.5);
      if (bits & REFILL) expect(reading).toBeLessThan((model.values().sp5 ?? 0) + 0.5);
      if (seen.at(-1) !== bits) seen.push(bits);
    }
    expect(seen).toEqual([0, REFILL, REFILL | EMPTY].slice(seen[0] === 0 ? 0 : 1));
    expect(model.statusBits()).toBe(REFILL | EMPTY);

    const count = model.values().t1;
    expect(model.writeChannel('do1', 1)).toBeUndefined();
    model.step(600);
    expect(model.values().t1).toBe(count);

    // The refill visit comes within eight hours.
    for (let hour = 0; hour < 8 && model.statusBits() !== 0; hour += 1) model.step(3600);
    expect(model.statusBits()).toBe(0);
    expect(model.values().a16).toBeGreaterThan(90);
  });
});
