import { describe, expect, it } from 'vitest';
import {
  MORE_THAN_A_MONTH,
  addRangeStateCounts,
  addRetailTotals,
  advanceShelfProduct,
  chartMaximum,
  countRangeStates,
  customerLabel,
  dayStart,
  shelfProductChannel,
  formatInefficiency,
  formatTimeUntilOutOfStock,
  isOnPicklist,
  minutesUntilOutOfStock,
  overviewDays,
  parseRetailProductId,
  picklist,
  picklistQuantity,
  rangeState,
  retailDailyMetric,
  retailFigures,
  retailOverview,
  retailProduct,
  retailProductId,
  retailStoreStatus,
  retailSummary,
  roundLostSales,
  roundRating,
  roundSalesPerHour,
  selectChartProducts,
  shelfCapacity,
  starRating,
  stockShortage,
  storeInefficiency,
  trackedProductFigures,
  trackedSalesPerHour,
  type ChartSelectionOption,
  type ShelfProductTrack,
  type StockedProduct,
} from './retail';

const product = (
  id: string,
  count: number,
  salesPerHour: number | null,
  slotCount = 3,
  depth = 81,
): StockedProduct => ({ id, name: `Product ${id}`, count, salesPerHour, slotCount, depth });

describe('shelf space, shortage and range state', () => {
  it.each([
    // slotCount, depth, count, capacity, shortage, whole units to pick
    [3, 81, 0, 9, 9, 9],
    [3, 81, 4, 9, 5, 5],
    [1, 24.3, 7, 10, 3, 3],
    [2, 60, 3, 8.1, 5.1, 5],
    [2, 60, 9, 8.1, -0.9, 0],
    [4, 243, 4, 4, 0, 0],
  ])(
    'slots %d, depth %d, count %d: capacity %d, shortage %d, pick %d',
    (slotCount, depth, count, capacity, shortage, pick) => {
      expect(shelfCapacity({ slotCount, depth })).toBeCloseTo(capacity, 9);
      expect(stockShortage({ slotCount, depth, count })).toBeCloseTo(shortage, 9);
      expect(picklistQuantity({ slotCount, depth, count })).toBe(pick);
    },
  );

  it.each([
    [0, 'EMPTY'],
    [-1, 'EMPTY'],
    [1, 'LOW'],
    [2, 'LOW'],
    [3, 'GOOD'],
    [12, 'GOOD'],
  ] as const)('count %d of 9 (a quarter is 2.25) is %s', (count, state) => {
    expect(rangeState(count, { slotCount: 3, depth: 81 })).toBe(state);
  });

  // Boundaries: exactly a quarter of the space is still LOW; a space of no depth holds nothing, so any
  // stock is GOOD and none is EMPTY.
  it.each([
    [2, { slotCount: 8, depth: 243 }, 'LOW'],
    [3, { slotCount: 8, depth: 243 }, 'GOOD'],
    [1, { slotCount: 8, depth: 243 }, 'LOW'],
    [1, { slotCount: 3, depth: 0 }, 'GOOD'],
    [0, { slotCount: 3, depth: 0 }, 'EMPTY'],
  ] as const)('count %d in %o (capacity 8: a quarter is exactly 2) is %s', (count, space, state) => {
    expect(rangeState(count, space)).toBe(state);
  });

  it('counts range states, zero for those absent', () => {
    expect(countRangeStates(['EMPTY', 'GOOD', 'GOOD', 'LOW', 'GOOD'])).toEqual({ EMPTY: 1, LOW: 1, GOOD: 3 });
    expect(countRangeStates([])).toEqual({ EMPTY: 0, LOW: 0, GOOD: 0 });
  });
});

describe('time until out of stock', () => {
  it.each([
    [10, 2, 300],
    [7, 3, 140],
    [1, 0.001, 60_000],
    [5, 0, null],
    [5, null, null],
    [5, Number.NaN, null],
    [0, null, 0],
  ])('count %d at %s an hour: %s minutes', (count, rate, minutes) => {
    expect(minutesUntilOutOfStock(count, rate)).toBe(minutes);
  });

  it.each([
    [0, '0m'],
    [59, '59m'],
    [60, '1h 0m'],
    [135, '2h 15m'],
    [1440, '1d 0h 0m'],
    [2 * 1440 + 3 * 60 + 15, '2d 3h 15m'],
    [29 * 1440, '29d 0h 0m'],
    [29 * 1440 + 1, MORE_THAN_A_MONTH],
    [null, MORE_THAN_A_MONTH],
  ])('%s minutes read %s', (minutes, text) => {
    expect(formatTimeUntilOutOfStock(minutes)).toBe(text);
  });
});

describe('picklist', () => {
  it.each([
    ['empty', product('a', 0, 1), true],
    ['low', product('a', 2, null), true],
    ['good, runs out in 2159 minutes', product('a', 5, 5 / (2159.5 / 60)), true],
    ['good, runs out in exactly 2160 minutes', product('a', 6, 6 / 36), false],
    ['good, rate unknown', product('a', 6, null), false],
  ])('%s: %s', (_name, item, listed) => expect(isOnPicklist(item)).toBe(listed));

  it('lists the soonest to run out first, empty ones first of all, then by name', () => {
    const items = [
      product('good', 9, 0.1),
      product('b-soon', 5, 1),
      product('empty', 0, null),
      product('a-soon', 5, 1),
      product('low', 2, 0.01),
    ];
    expect(picklist(items).map((item) => item.id)).toEqual(['empty', 'a-soon', 'b-soon', 'low']);
  });
});

describe('rounding and store figures', () => {
  it.each([
    [4.25, 4.3],
    [4.249, 4.2],
    [3, 3],
  ])('rating %d rounds to %d', (rating, rounded) => expect(roundRating(rating)).toBe(rounded));

  it.each([
    [1.23456, 1.235],
    [0.0004, 0],
    [2, 2],
  ])('sales per hour %d round to %d', (rate, rounded) => expect(roundSalesPerHour(rate)).toBe(rounded));

  it.each([
    [2.5, 3],
    [2.49, 2],
    [0.2, 0],
  ])('lost sales %d round to %d', (lost, rounded) => expect(roundLostSales(lost)).toBe(rounded));

  it.each([
    [0.0734, '7.3%'],
    [0, '0.0%'],
    [1, '100.0%'],
    [0.12345, '12.3%'],
  ])('inefficiency %d reads %s', (share, text) => expect(formatInefficiency(share)).toBe(text));

  it.each([
    [90, 10, 0.1],
    [100, 0, 0],
    [0, 5, 1],
    [0, 0, null],
  ])('%d sold and %d lost: inefficiency %s', (sold, lost, share) => {
    expect(storeInefficiency(sold, lost)).toBe(share);
  });

  it.each([
    [0, 5],
    [0.05, 4],
    [0.073, 3.5],
    [0.2, 1],
    [0.9, 1],
    [null, null],
  ])('inefficiency %s gives %s stars', (share, stars) => expect(starRating(share)).toBe(stars));

  it.each([
    [0, 'Customers'],
    [1, 'Customer'],
    [2, 'Customers'],
  ])('%d %s', (count, label) => expect(customerLabel(count)).toBe(label));

  it('has 14 overview days ending today, at UTC midnights', () => {
    const now = Date.UTC(2026, 10, 25, 15, 30);
    const days = overviewDays(now);
    expect(days).toHaveLength(14);
    expect(days[13]).toBe(Date.UTC(2026, 10, 25));
    expect(days[0]).toBe(Date.UTC(2026, 10, 12));
    expect(dayStart(now)).toBe(Date.UTC(2026, 10, 25));
  });
});

describe('chart selections', () => {
  const products = Array.from({ length: 14 }, (_, index) =>
    product(
      `p${String(index).padStart(2, '0')}`,
      index === 0 ? 0 : index,
      index === 13 ? null : index % 7,
      (index % 3) + 1,
    ),
  );

  it.each([
    ['EMPTY', ['p00']],
    ['LOW', ['p01', 'p02']],
    ['LOWEST_10_STOCK', ['p00', 'p01', 'p02', 'p03', 'p04', 'p05', 'p06', 'p07', 'p08', 'p09']],
    ['HIGHEST_5_SALE_PER_HOUR', ['p06', 'p05', 'p12', 'p04', 'p11']],
    ['CUSTOM', ['p03', 'p07']],
  ] as const)('%s shows %j', (option: ChartSelectionOption, ids) => {
    const chosen = selectChartProducts(products, option, ['p07', 'p03', 'unknown']);
    expect(chosen.map((item) => item.id)).toEqual(ids);
  });

  it.each([
    [[1], 11],
    [[1, 3, 2], 33],
    [[], 0],
  ])('slot counts %j: maximum %d', (slots, max) => {
    expect(chartMaximum(slots.map((slotCount) => ({ slotCount, depth: 50 })))).toBe(max);
  });
});

describe('product ids', () => {
  it.each([
    ['dev-1', 'c3'],
    ['a:b', 'c12'],
  ])('round-trips %s %s', (deviceId, code) => {
    expect(parseRetailProductId(retailProductId(deviceId, code))).toEqual({ deviceId, code });
  });

  it.each(['', 'nocolon', ':c1', 'dev:'])('refuses %j', (text) => expect(parseRetailProductId(text)).toBeNull());
});

describe('following a shelf', () => {
  const space = { slotCount: 3, depth: 81 };
  const start = Date.UTC(2026, 0, 5, 8);

  function follow(readings: readonly [number, number][]) {
    let track: ShelfProductTrack | null = null;
    let sold = 0;
    let lost = 0;
    for (const [minutes, count] of readings) {
      const result = advanceShelfProduct(track, { t: start + minutes * 60_000, count }, space);
      track = result.track;
      sold += result.unitsSold;
      lost += result.lostSales;
    }
    return { track: track!, sold, lost };
  }

  it('counts falls as sales, stamps decreases, restocks and range changes', () => {
    const { track, sold } = follow([
      [0, 9],
      [10, 8],
      [20, 5],
      [30, 2],
      [40, 9],
      [50, 9],
    ]);
    expect(sold).toBe(7);
    expect(track).toMatchObject({
      count: 9,
      rangeState: 'GOOD',
      decreasedAt: start + 30 * 60_000,
      restockedAt: start + 40 * 60_000,
      rangeStateChangedAt: start + 40 * 60_000,
    });
  });

  it('knows no rate before an hour in stock, then sales per hour in stock', () => {
    const early = follow([
      [0, 9],
      [30, 6],
    ]);
    expect(trackedSalesPerHour(early.track)).toBeNull();
    const later = follow([
      [0, 9],
      [60, 7],
      [120, 5],
    ]);
    expect(trackedSalesPerHour(later.track)).toBeCloseTo(2, 1);
  });

  it('accrues lost sales at the sales rate while empty, and not across a reporting gap', () => {
    const { lost, track } = follow([
      [0, 9],
      [60, 7],
      [120, 5],
      [180, 3],
      [240, 0],
      [270, 0],
      [300, 0],
      [400, 0],
    ]);
    // About 2.25 an hour for the hour the shelf was seen empty; the 100-minute gap is not counted.
    expect(lost).toBeGreaterThan(2);
    expect(lost).toBeLessThan(2.5);
    expect(track.rangeState).toBe('EMPTY');
  });

  it('ignores readings not newer than the last', () => {
    const first = advanceShelfProduct(null, { t: start, count: 5 }, space);
    const again = advanceShelfProduct(first.track, { t: start, count: 1 }, space);
    expect(again).toEqual({ track: first.track, unitsSold: 0, lostSales: 0 });
  });
});

describe('store and region figures', () => {
  it('adds totals and range state counts, missing parts counting as none', () => {
    expect(addRetailTotals([{ unitsSold: 3, lostSales: 1.5 }, undefined, { unitsSold: 2, lostSales: 0 }])).toEqual({
      unitsSold: 5,
      lostSales: 1.5,
    });
    expect(addRangeStateCounts([{ EMPTY: 1, LOW: 2, GOOD: 3 }, undefined, { EMPTY: 0, LOW: 1, GOOD: 4 }])).toEqual({
      EMPTY: 1,
      LOW: 3,
      GOOD: 7,
    });
  });

  it.each([
    ['no lost sales: five stars', { unitsSold: 90, lostSales: 0 }, true, 5, 0, 0],
    ['a tenth lost: three stars', { unitsSold: 90, lostSales: 10 }, true, 3, 0.1, 10],
    // The rating and the lost sales give the inefficiency away: all three only with Financial Loss.
    [
      'every loss figure kept from callers without Financial Loss',
      { unitsSold: 90, lostSales: 10 },
      false,
      null,
      null,
      null,
    ],
    ['nobody came: no rating', { unitsSold: 0, lostSales: 0 }, true, null, null, 0],
  ])('%s', (_name, totals, showsInefficiency, stars, inefficiency, lost) => {
    const counts = { EMPTY: 1, LOW: 1, GOOD: 2 };
    expect(retailFigures(counts, totals, showsInefficiency)).toEqual({
      starRating: stars,
      rangeStateCounts: counts,
      storeInefficiency: inefficiency,
      totalLostSales: lost,
      productCount: 4,
    });
  });
});

describe('a product on the store page', () => {
  it('reads count, sales rate, range state, stock level and times from its track', () => {
    const track = {
      t: 5000,
      count: 3,
      rangeState: 'LOW' as const,
      decreasedAt: 4000,
      restockedAt: 1000,
      rangeStateChangedAt: 4000,
      soldWeight: 2.5,
      stockedHours: 2,
    };
    expect(trackedProductFigures(track, { slotCount: 2, depth: 81 })).toEqual({
      count: 3,
      salesPerHour: 1.25,
      rangeState: 'LOW',
      stockLevel: 0.5,
      timestamps: { decrease: 4000, restock: 1000, rangeStateChange: 4000 },
      updatedAt: 5000,
    });
  });
});

describe('overview and store status assembly (server and browser demo alike)', () => {
  const track: ShelfProductTrack = {
    t: 5000,
    count: 0,
    rangeState: 'EMPTY',
    decreasedAt: 4000,
    restockedAt: null,
    rangeStateChangedAt: 4000,
    soldWeight: 0,
    stockedHours: 0,
  };

  it.each([
    ['a day with sales and lost customers', { unitsSold: 18, lostSales: 2.4 }, true, 0.11764705882352941, 2],
    ['its loss figures kept from callers without Financial Loss', { unitsSold: 18, lostSales: 2.4 }, false, null, null],
    ['a day nobody came', { unitsSold: 0, lostSales: 0 }, true, null, 0],
    ['lost sales rounded to whole customers', { unitsSold: 1, lostSales: 0.5 }, true, 1 / 3, 1],
  ])('daily metric: %s', (_name, totals, showsInefficiency, inefficiency, lost) => {
    expect(retailDailyMetric(86_400_000, totals, showsInefficiency)).toEqual({
      timestamp: 86_400_000,
      storeInefficiency: inefficiency,
      lostSales: lost,
      unitsSold: totals.unitsSold,
    });
  });

  it.each([
    ['with Financial Loss', true, 0.1, 3, 10],
    ['without', false, null, null, null],
  ])('summarises a store under its group, %s', (_name, showsInefficiency, inefficiency, stars, lost) => {
    expect(
      retailSummary(
        { groupId: 'g1', name: 'Main Street' },
        { EMPTY: 1, LOW: 0, GOOD: 3 },
        { unitsSold: 90, lostSales: 10 },
        showsInefficiency,
      ),
    ).toEqual({
      groupId: 'g1',
      name: 'Main Street',
      starRating: stars,
      rangeStateCounts: { EMPTY: 1, LOW: 0, GOOD: 3 },
      storeInefficiency: inefficiency,
      totalLostSales: lost,
      productCount: 4,
    });
  });

  it('assembles a region: its figures over all shelves, a metric a day, its stores by name then id', () => {
    const store = (groupId: string, name: string) =>
      retailSummary({ groupId, name }, { EMPTY: 0, LOW: 0, GOOD: 1 }, { unitsSold: 1, lostSales: 0 }, false);
    const overview = retailOverview({
      group: { groupId: 'r1', accountId: 'a1', name: 'North Texas' },
      counts: { EMPTY: 1, LOW: 2, GOOD: 3 },
      totals: { unitsSold: 45, lostSales: 5 },
      days: [
        { timestamp: 0, totals: { unitsSold: 40, lostSales: 0 } },
        { timestamp: 86_400_000, totals: { unitsSold: 5, lostSales: 5 } },
      ],
      showsInefficiency: false,
      showsStores: true,
      stores: [store('g2', 'Riverside'), store('g3', 'Airport'), store('g1', 'Airport')],
    });
    expect(overview).toMatchObject({
      groupId: 'r1',
      accountId: 'a1',
      name: 'North Texas',
      rangeStateCounts: { EMPTY: 1, LOW: 2, GOOD: 3 },
      starRating: null,
      totalLostSales: null,
      storeInefficiency: null,
      showsInefficiency: false,
      showsStores: true,
    });
    expect(
      overview.dailyMetrics.map((day) => [day.timestamp, day.unitsSold, day.lostSales, day.storeInefficiency]),
    ).toEqual([
      [0, 40, null, null],
      [86_400_000, 5, null, null],
    ]);
    expect(overview.stores.map((s) => s.groupId)).toEqual(['g1', 'g3', 'g2']);
  });

  it('lists a product with its planogram, its track and its shelf; a missing planogram id is null', () => {
    expect(
      retailProduct(
        { id: 'dev1', name: 'Shelf A1' },
        { code: 'c2', name: 'Cola 330 ml', sku: 'COLA-330', slotCount: 2, depth: 81 },
        track,
      ),
    ).toEqual({
      id: retailProductId('dev1', 'c2'),
      name: 'Cola 330 ml',
      sku: 'COLA-330',
      slotCount: 2,
      depth: 81,
      planogramId: null,
      ...trackedProductFigures(track, { slotCount: 2, depth: 81 }),
      deviceId: 'dev1',
      deviceName: 'Shelf A1',
      code: 'c2',
    });
  });

  it('heads a store status with the counts of its products’ range states, products by name then id', () => {
    const product = (id: string, name: string, state: 'EMPTY' | 'LOW' | 'GOOD') => ({ id, name, rangeState: state });
    const status = retailStoreStatus(
      { groupId: 'g1', accountId: 'a1', name: 'Main Street' },
      [product('p3', 'Water', 'GOOD'), product('p2', 'Cola', 'EMPTY'), product('p1', 'Cola', 'LOW')],
      { unitsSold: 10, lostSales: 0 },
      true,
    );
    expect(status).toMatchObject({
      groupId: 'g1',
      accountId: 'a1',
      name: 'Main Street',
      rangeStateCounts: { EMPTY: 1, LOW: 1, GOOD: 1 },
      productCount: 3,
      storeInefficiency: 0,
      starRating: 5,
    });
    expect(status.products.map((p) => p.id)).toEqual(['p1', 'p2', 'p3']);
  });
});

describe('shelfProductChannel', () => {
  const product = { sku: 'BEV-COLA', slotCount: 2, depth: 48.6 };
  const channel = { code: 'c1', sku: 'BEV-COLA', slotCount: 2, depth: 48.6 };
  it.each([
    ['its own name', 'Cola 375ml', product, { ...channel, name: 'Cola 375ml' }],
    ['its SKU when it has no name', '', product, { ...channel, name: 'BEV-COLA' }],
    ['its SKU when the name is missing', null, product, { ...channel, name: 'BEV-COLA' }],
    ['its planogram', 'Cola', { ...product, planogramId: 'PG-1' }, { ...channel, name: 'Cola', planogramId: 'PG-1' }],
    ['no planogram when it has none', 'Cola', { ...product, planogramId: null }, { ...channel, name: 'Cola' }],
  ] as const)('names a product by %s', (_case, name, given, expected) =>
    expect(shelfProductChannel('c1', name, given)).toStrictEqual(expected),
  );
});
