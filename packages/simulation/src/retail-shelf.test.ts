import { describe, expect, it } from 'vitest';
import { RetailShelf } from './retail-shelf';

const MIDNIGHT = Date.UTC(2025, 0, 6);
const CODES = ['c1', 'c2', 'c3', 'c4'] as const;

describe('retail shelf', () => {
  it.each([1, 2, 3])('keeps whole stock counts within shelf space (seed %i)', (seed) => {
    const model = new RetailShelf({ seed, startTimeMs: MIDNIGHT });
    const capacities = model.capacities();
    for (let minute = 0; minute < 3 * 24 * 60; minute += 10) {
      model.step(600);
      const values = model.values();
      CODES.forEach((code, index) => {
        expect(Number.isInteger(values[code])).toBe(true);
        expect(values[code]).toBeGreaterThanOrEqual(0);
        expect(values[code]).toBeLessThanOrEqual(capacities[index] ?? 0);
      });
    }
  });

  it('sells nothing while the store is closed, sells through the day, and is restocked to full', () => {
    const model = new RetailShelf({ seed: 4, startTimeMs: MIDNIGHT });
    const atMidnight = model.values();
    model.step(6 * 3600);
    // Closed until 07:00.
    expect(model.values()).toEqual(atMidnight);

    // The first restock round comes between 08:00 and 09:00 and fills every product.
    model.step(2 * 3600);
    let restocked = model.values();
    const full = (values: Record<string, number>): boolean =>
      CODES.every((code, index) => values[code] === model.capacities()[index]);
    for (let seconds = 0; seconds < 3600 && !full(restocked); seconds += 10) {
      model.step(10);
      restocked = model.values();
    }
    expect(full(restocked)).toBe(true);

    // Afternoon, before the second round at 15:00.
    model.step(4 * 3600);
    const afternoon = model.values();
    const sold = (afternoon.t1 ?? 0) - (restocked.t1 ?? 0);
    const dropped = CODES.reduce((sum, code) => sum + (restocked[code] ?? 0) - (afternoon[code] ?? 0), 0);
    expect(sold).toBeGreaterThan(5);
    expect(dropped).toBe(sold);
  });

  it('refuses writes: stock is counted, not set', () => {
    const model = new RetailShelf({ seed: 5, startTimeMs: MIDNIGHT });
    expect(model.writeChannel('c1', 3)).toBeUndefined();
  });
});
