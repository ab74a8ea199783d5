import { describe, expect, it } from 'vitest';
import type { RetailProduct } from '@fieldlink/api/inventory';
import { picklistCsv, picklistFileName } from './picklist-csv';

const product = (overrides: Partial<RetailProduct>): RetailProduct => ({
  id: 'd1:c1',
  name: 'Cola 375ml',
  sku: 'BEV-COLA',
  slotCount: 2,
  depth: 60,
  count: 1,
  salesPerHour: 0.5,
  rangeState: 'LOW',
  planogramId: 'PG-1',
  stockLevel: 0.12,
  timestamps: { decrease: null, restock: null, rangeStateChange: null },
  deviceId: 'd1',
  deviceName: 'Shelf A1',
  code: 'c1',
  updatedAt: null,
  ...overrides,
});

describe('picklist CSV', () => {
  it('writes one line per product with the units to pick', () => {
    expect(
      picklistCsv([product({}), product({ name: 'Mints', count: 0, salesPerHour: null, rangeState: 'EMPTY' })]),
    ).toBe(
      'Product,SKU,Shelf,Slots,Count,Range state,Time until out of stock,Units to pick\r\n' +
        'Cola 375ml,BEV-COLA,Shelf A1,2,1,LOW,2h 0m,7\r\n' +
        'Mints,BEV-COLA,Shelf A1,2,0,EMPTY,0m,8\r\n',
    );
  });

  it.each(['=HYPERLINK("x")', '+1', '-1', '@SUM(A1)'])('neutralises a product named %s', (name) => {
    const line = picklistCsv([product({ name })]).split('\r\n')[1]!;
    // The cell starts with an apostrophe (inside quotes when it holds a quote or comma).
    expect(line).toMatch(/^"?'/);
  });
});

describe('the picklist file name', () => {
  // 00:30 in London on 2 December is still 1 December, 7:30 pm, in New York.
  const t = Date.UTC(2026, 11, 2, 0, 30);
  it.each([
    ['America/New_York', 'picklist-city-centre-2026-12-01.csv'],
    ['Europe/London', 'picklist-city-centre-2026-12-02.csv'],
  ])('carries the store and the day the page shows in %s', (zone, file) =>
    expect(picklistFileName('City Centre', t, zone)).toBe(file),
  );

  it('keeps only the characters a file name may hold', () =>
    expect(picklistFileName('Bondi / Beach #2', t, 'UTC')).toBe('picklist-bondi-beach-2-2026-12-02.csv'));
});
