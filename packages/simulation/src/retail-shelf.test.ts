import { describe, expect, it } from 'vitest';
import { shelfCapacity } from '@fieldlink/domain/retail';
import { RetailShelf } from './retail-shelf';

const MIDNIGHT = Date.UTC(2025, 0, 6);
const CODES = ['c1', 'c2', 'c3', 'c4', 'c5', 'c6'] as const;

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

  it.each([1, 2, 3])('reports its planogram: the space of each product fills 243 mm deep facings (seed %i)', (seed) => {
    const model = new RetailShelf({ seed, startTimeMs: MIDNIGHT });
    const products = model.channels.filter((channel) => channel.product);
    expect(products.map((channel) => channel.code)).toEqual([...CODES]);
    products.forEach((channel, index) => {
      const product = channel.product!;
      expect(product.sku).toMatch(/^[A-Z]{3}-\d{4}-[A-Z]{3}$/);
      expect(product.slotCount).toBeGreaterThanOrEqual(1);
      expect(model.capacities()[index]).toBe(Math.floor(shelfCapacity(product)));
    });
    expect(new Set(products.map((channel) => channel.product!.planogramId)).size).toBe(1);
  });

  it('sells nothing while the store is closed, sells through the day, and is restocked', () => {
    const model = new RetailShelf({ seed: 4, startTimeMs: MIDNIGHT });
    const atMidnight = model.values();
    model.step(6 * 3600);
    // Closed until 07:00.
    expect(model.values()).toEqual(atMidnight);

    // The first restock round comes between 07:00 and 07:45 and fills what it does not miss.
    let before = model.values();
    let after = before;
    const rose = () => CODES.some((code) => (after[code] ?? 0) > (before[code] ?? 0));
    for (let seconds = 0; seconds < 2 * 3600 && !rose(); seconds += 10) {
      before = after;
      model.step(10);
      after = model.values();
    }
    const full = CODES.filter((code, index) => after[code] === model.capacities()[index]);
    expect(full.length).toBeGreaterThanOrEqual(4);
    CODES.forEach((code, index) => {
      if (after[code] !== model.capacities()[index]) expect(after[code]).toBeLessThanOrEqual(before[code] ?? 0);
    });

    // Before the second round at 11:00.
    model.step(3 * 3600);
    const afternoon = model.values();
    const sold = (afternoon.t1 ?? 0) - (after.t1 ?? 0);
    const dropped = CODES.reduce((sum, code) => sum + (after[code] ?? 0) - (afternoon[code] ?? 0), 0);
    expect(sold).toBeGreaterThan(5);
    expect(dropped).toBe(sold);
  });

  it('runs some shelves empty over two weeks, yet keeps most products in stock most of the time', () => {
    const model = new RetailShelf({ seed: 7, startTimeMs: MIDNIGHT });
    let readings = 0;
    let empty = 0;
    const emptied = new Set<string>();
    for (let minute = 0; minute < 14 * 24 * 60; minute += 5) {
      model.step(300);
      const values = model.values();
      for (const code of CODES) {
        readings += 1;
        if (values[code] === 0) {
          empty += 1;
          emptied.add(code);
        }
      }
    }
    expect(emptied.size).toBeGreaterThan(0);
    expect(empty / readings).toBeGreaterThan(0.001);
    expect(empty / readings).toBeLessThan(0.15);
  });

  it('refuses writes: stock is counted, not set', () => {
    const model = new RetailShelf({ seed: 5, startTimeMs: MIDNIGHT });
    expect(model.writeChannel('c1', 3)).toBeUndefined();
  });
});

// Issue 35 item 11: the demo's stores run low and empty, so the stock screens have something to show.
describe('the back room’s shortages', () => {
  it.each([3, 6, 9])('every third shelf runs its second product empty, and keeps it so (seed %i)', (seed) => {
    const model = new RetailShelf({ seed, startTimeMs: MIDNIGHT });
    model.step(5 * 86_400);
    for (let hour = 0; hour < 48; hour += 1) {
      model.step(3600);
      expect(model.values().c2).toBe(0);
    }
  });

  it.each([1, 2, 3, 4])('refills the first product only to a quarter of its space: LOW (seed %i)', (seed) => {
    const model = new RetailShelf({ seed, startTimeMs: MIDNIGHT });
    const low = Math.floor(model.capacities()[0]! * 0.25);
    model.step(86_400);
    for (let hour = 0; hour < 48; hour += 1) {
      model.step(3600);
      expect(model.values().c1).toBeLessThanOrEqual(low);
    }
  });

  it.each([1, 2, 4, 5])('refills the other products to full on a shelf without an outage (seed %i)', (seed) => {
    const model = new RetailShelf({ seed, startTimeMs: MIDNIGHT });
    const capacities = model.capacities();
    const full = new Set<string>();
    for (let hour = 0; hour < 72; hour += 1) {
      model.step(3600);
      const values = model.values();
      CODES.slice(1).forEach((code, index) => values[code] === capacities[index + 1] && full.add(code));
    }
    expect([...full].sort()).toEqual(['c2', 'c3', 'c4', 'c5', 'c6']);
  });
});
