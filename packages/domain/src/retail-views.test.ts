import { describe, expect, it } from 'vitest';
import type { RangeState, ShelfProductTrack } from './retail';
import {
  chartProductsAsked,
  retailRegionOverview,
  retailStoreView,
  retailViewerRights,
  storeShelf,
  type OverviewShelf,
  type StoreShelf,
} from './retail-views';

const group = { groupId: 'region', accountId: 'acct', name: 'North' };
const none = { EMPTY: 0, LOW: 0, GOOD: 0 };
const shelf = (EMPTY: number, LOW: number, GOOD: number, unitsSold: number, lostSales: number): OverviewShelf => ({
  counts: { EMPTY, LOW, GOOD },
  totals: { unitsSold, lostSales },
});
const silent: OverviewShelf = { counts: undefined, totals: undefined };

describe('the retail overview', () => {
  it.each([
    ['no stores', [], none, 0, 0, []],
    [
      'one store of two shelves',
      [{ groupId: 's1', name: 'Main St', shelves: [shelf(1, 0, 2, 30, 10), shelf(0, 1, 1, 10, 0)] }],
      { EMPTY: 1, LOW: 1, GOOD: 3 },
      40,
      10,
      [{ groupId: 's1', productCount: 5, totalLostSales: 10, storeInefficiency: 0.2 }],
    ],
    [
      'stores by name, a silent shelf counting none',
      [
        { groupId: 's2', name: 'West', shelves: [shelf(0, 0, 4, 9, 1), silent] },
        { groupId: 's1', name: 'East', shelves: [shelf(2, 0, 0, 0, 0)] },
      ],
      { EMPTY: 2, LOW: 0, GOOD: 4 },
      9,
      1,
      [
        { groupId: 's1', productCount: 2, totalLostSales: 0, storeInefficiency: null },
        { groupId: 's2', productCount: 4, totalLostSales: 1, storeInefficiency: 0.1 },
      ],
    ],
  ])('sums %s over every shelf, and each store over its own', (_name, stores, counts, sold, lost, expected) => {
    const overview = retailRegionOverview({ group, stores, days: [], showsInefficiency: true, showsStores: true });
    expect(overview.rangeStateCounts).toEqual(counts);
    expect(overview.totalLostSales).toBe(lost);
    expect(overview.storeInefficiency).toBe(sold + lost > 0 ? lost / (sold + lost) : null);
    expect(overview.stores).toMatchObject(expected);
  });

  it.each([
    [true, { unitsSold: 4, lostSales: 1, storeInefficiency: 0.2 }],
    [false, { unitsSold: 4, lostSales: null, storeInefficiency: null }],
  ])('gives each day its metric, a day without sales none (inefficiency shown: %s)', (showsInefficiency, first) => {
    const days = [
      { timestamp: 1, totals: { unitsSold: 4, lostSales: 1 } },
      { timestamp: 2, totals: undefined },
    ];
    const overview = retailRegionOverview({ group, stores: [], days, showsInefficiency, showsStores: false });
    expect(overview.dailyMetrics).toEqual([
      { timestamp: 1, ...first },
      { timestamp: 2, unitsSold: 0, lostSales: showsInefficiency ? 0 : null, storeInefficiency: null },
    ]);
    expect(overview.showsStores).toBe(false);
  });
});

const track = (count: number, rangeState: RangeState): ShelfProductTrack => ({
  t: 5,
  count,
  rangeState,
  decreasedAt: null,
  restockedAt: null,
  rangeStateChangedAt: null,
  soldWeight: 0,
  stockedHours: 0,
});
const product = (code: string, name: string, rangeState: RangeState) => ({
  channel: { code, name, sku: `SKU-${code}`, slotCount: 2, depth: 243 },
  track: track(1, rangeState),
});

describe('the store status', () => {
  it.each<[string, StoreShelf[], string[], object]>([
    ['no shelves', [], [], { productCount: 0, totalLostSales: 0 }],
    [
      'every shelf product by name, the totals of all shelves',
      [
        { id: 'd1', name: 'Shelf 1', products: [product('c2', 'Tea', 'LOW')], totals: { unitsSold: 3, lostSales: 1 } },
        {
          id: 'd2',
          name: 'Shelf 2',
          products: [product('c1', 'Coffee', 'EMPTY'), product('c3', 'Apples', 'GOOD')],
          totals: undefined,
        },
      ],
      ['Apples', 'Coffee', 'Tea'],
      { productCount: 3, rangeStateCounts: { EMPTY: 1, LOW: 1, GOOD: 1 }, totalLostSales: 1, storeInefficiency: 0.25 },
    ],
  ])('lists %s', (_name, shelves, names, figures) => {
    const status = retailStoreView(group, shelves, true);
    expect(status.products.map((entry) => entry.name)).toEqual(names);
    expect(status).toMatchObject({ ...figures, groupId: 'region', accountId: 'acct', name: 'North' });
    expect(status.products.map((entry) => entry.deviceName)).toEqual(
      names.map((name) => (name === 'Tea' ? 'Shelf 1' : 'Shelf 2')),
    );
  });
});

describe('a shelf as the store status reads it', () => {
  const channels = [product('c1', 'Coffee', 'GOOD'), product('c2', 'Tea', 'LOW'), product('c3', 'Apples', 'EMPTY')];
  const totals = { unitsSold: 4, lostSales: 2 };
  it.each<[string, Record<string, RangeState>, string[]]>([
    [
      'every channel with a followed stock, in channel order',
      { c3: 'EMPTY', c1: 'GOOD', c2: 'LOW' },
      ['c1', 'c2', 'c3'],
    ],
    ['no channel whose stock is not followed yet', { c2: 'LOW' }, ['c2']],
    ['no product when no stock is followed', {}, []],
    ['no track of a code the shelf does not count', { c9: 'GOOD', c1: 'EMPTY' }, ['c1']],
  ])('lists %s', (_name, states, codes) => {
    const shelf = storeShelf(
      { id: 'd1', name: 'Shelf 1', totals },
      channels.map(({ channel }) => channel),
      (code) => (states[code] ? track(1, states[code]) : undefined),
    );
    expect(shelf).toEqual({
      id: 'd1',
      name: 'Shelf 1',
      totals,
      products: codes.map((code) => ({
        channel: channels.find(({ channel }) => channel.code === code)!.channel,
        track: track(1, states[code]!),
      })),
    });
  });

  it('keeps a shelf that sold nothing yet without totals', () => {
    expect(storeShelf({ id: 'd2', name: 'Shelf 2', totals: undefined }, [], () => undefined)).toEqual({
      id: 'd2',
      name: 'Shelf 2',
      products: [],
      totals: undefined,
    });
  });
});

describe('the products a store chart asks for', () => {
  it.each([
    ['one product', 'SHF01:c1', [{ id: 'SHF01:c1', deviceId: 'SHF01', code: 'c1' }]],
    [
      'each once, trimmed',
      ' SHF01:c1, SHF02:c3,SHF01:c1',
      [
        { id: 'SHF01:c1', deviceId: 'SHF01', code: 'c1' },
        { id: 'SHF02:c3', deviceId: 'SHF02', code: 'c3' },
      ],
    ],
    ['at most the limit', 'SHF01:c1,SHF01:c2,SHF01:c3', 'Ask for 1 to 2 products.'],
    ['at least one', ' , ', 'Ask for 1 to 2 products.'],
    ['product ids only', 'SHF01', 'Not a product id.'],
  ])('answers %s', (_name, productIds, expected) => {
    expect(chartProductsAsked(productIds, 2)).toEqual(expected);
  });
});

describe('retailViewerRights', () => {
  it.each([
    [['VIEW_DASH'], { showsInefficiency: false, showsStores: true }],
    [['VIEW_ACCOUNTS'], { showsInefficiency: false, showsStores: true }],
    [['VIEW_DASH', 'REPORTING', 'REPORTING_PLUS'], { showsInefficiency: true, showsStores: true }],
    [['REPORTING', 'REPORTING_PLUS'], { showsInefficiency: true, showsStores: false }],
    [['ALARM'], { showsInefficiency: false, showsStores: false }],
    [['ADMIN'], { showsInefficiency: true, showsStores: true }],
  ] as const)('%j -> %j', (permissions, expected) =>
    expect(retailViewerRights({ permissions: [...permissions] })).toEqual(expected),
  );
});
