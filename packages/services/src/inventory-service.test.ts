import { describe, expect, it } from 'vitest';
import { YEARLY_OVERVIEW_BIN_COUNT } from '@fieldlink/domain/chart';
import { overviewDays, RETAIL_STORE_LOG_WINDOW_MS, type ShelfProductTrack } from '@fieldlink/domain/retail';
import {
  InventoryCalls,
  storeDeviceLogs,
  type ChartProduct,
  type InventoryGroup,
  type InventoryStore,
  type StoreChartStore,
} from './inventory-service';

const NOW = Date.UTC(2026, 10, 25, 9);

class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** A store "s1" whose shelf "shelf-1" holds products on c1 and c2; records what it was asked. */
function memoryStore() {
  const asked: string[] = [];
  const store: StoreChartStore<{ id: string }> = {
    refusal: (status, message) => new Refusal(status, message),
    group: async (groupId) => (asked.push(`group ${groupId}`), groupId === 's1' ? { id: 's1' } : undefined),
    shelfProducts: async () => (deviceId, code) => deviceId === 'shelf-1' && ['c1', 'c2'].includes(code),
    productLogs: async (products: readonly ChartProduct[], window) => {
      asked.push(
        `logs ${products.map((product) => product.id).join(',')} ${window.end - window.start} ${window.binCount}`,
      );
      const log = { t: [], min: [], max: [], avg: [] } as never;
      return { binWidth: 7, products: Object.fromEntries(products.map((product) => [product.id, log])) };
    },
  };
  return { store, asked };
}

describe('the store chart call', () => {
  it('reads each product asked once over the retail window up to now, binned as the backend bins', async () => {
    const { store, asked } = memoryStore();
    const answer = await storeDeviceLogs(
      store,
      { groupId: 's1', productIds: 'shelf-1:c1, shelf-1:c2,shelf-1:c1' },
      NOW,
    );
    expect(answer).toMatchObject({ groupId: 's1', start: NOW - RETAIL_STORE_LOG_WINDOW_MS, end: NOW, binWidth: 7 });
    expect(Object.keys(answer.products)).toEqual(['shelf-1:c1', 'shelf-1:c2']);
    expect(asked).toEqual([
      'group s1',
      `logs shelf-1:c1,shelf-1:c2 ${RETAIL_STORE_LOG_WINDOW_MS} ${YEARLY_OVERVIEW_BIN_COUNT}`,
    ]);
  });

  // In this order (issue 37 item 1, round 4): the products asked, the group, each product on its shelves.
  it.each([
    ['no product', { groupId: 'nope', productIds: ' , ' }, [400, 'Ask for 1 to 100 products.'], []],
    ['a malformed product, before the group', { groupId: 'nope', productIds: 'nonsense' }, 400, []],
    [
      'a group that does not exist',
      { groupId: 'nope', productIds: 'shelf-1:c1' },
      [404, 'Group not found.'],
      ['group nope'],
    ],
    [
      'a channel without a product',
      { groupId: 's1', productIds: 'shelf-1:c1,shelf-1:c9' },
      [404, 'Product not found.'],
      ['group s1'],
    ],
    [
      'a shelf of another store',
      { groupId: 's1', productIds: 'shelf-2:c1' },
      [404, 'Product not found.'],
      ['group s1'],
    ],
  ] as const)('refuses %s, reading no log', async (_name, query, expected, asks) => {
    const { store, asked } = memoryStore();
    const error = await storeDeviceLogs(store, query, NOW).then(
      () => null,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(Refusal);
    const { status, message } = error as Refusal;
    expect(typeof expected === 'number' ? status : [status, message]).toEqual(expected);
    expect(asked).toEqual(asks);
  });
});

const REGION: InventoryGroup = { id: 'r1', accountId: 'a1', name: 'Texas' };
const STORE: InventoryGroup = { id: 's1', accountId: 'a1', name: 'Dallas' };
const TRACK: ShelfProductTrack = {
  t: NOW,
  count: 0,
  rangeState: 'EMPTY',
  decreasedAt: null,
  restockedAt: null,
  rangeStateChangedAt: NOW,
  soldWeight: 0,
  stockedHours: 0,
};

/** Region r1 of account a1 with store s1 (one shelf, one empty product); records what it was asked. */
function regionStore(rights = { showsInefficiency: true, showsStores: true }) {
  const asked: string[] = [];
  const store: InventoryStore<InventoryGroup> = {
    ...memoryStore().store,
    rights: () => rights,
    group: async (groupId) => (asked.push(`group ${groupId}`), [REGION, STORE].find((group) => group.id === groupId)),
    regionFigures: async (region, days) => {
      asked.push(`figures ${region.id} from ${days[0]}`);
      const totals = { unitsSold: 3, lostSales: 2 };
      return {
        stores: [{ groupId: 's1', name: 'Dallas', shelves: [{ counts: { EMPTY: 1, LOW: 0, GOOD: 2 }, totals }] }],
        dayTotals: new Map([[days.at(-1)!, totals]]),
      };
    },
    storeShelves: async (group, days) => {
      asked.push(`shelves ${group.id} from ${days[0]}`);
      const channel = { code: 'c1', name: 'Cola', sku: 'SKU-1', slotCount: 4, depth: 5, planogramId: null };
      return [{ id: 'shelf-1', name: 'Shelf 1', products: [{ channel, track: TRACK }], totals: undefined }];
    },
  };
  return { calls: new InventoryCalls(store, () => NOW), asked };
}

describe('the inventory overview and store status calls', () => {
  const firstDay = overviewDays(NOW)[0];

  it("answers a region's overview over the store's figures of the overview days", async () => {
    const { calls, asked } = regionStore();
    const answer = await calls.overview({ groupId: 'r1', accountId: 'a1' });
    expect(answer).toMatchObject({ groupId: 'r1', accountId: 'a1', name: 'Texas', showsStores: true });
    expect(answer.rangeStateCounts).toEqual({ EMPTY: 1, LOW: 0, GOOD: 2 });
    expect(answer.dailyMetrics).toHaveLength(overviewDays(NOW).length);
    expect(answer.dailyMetrics.at(-1)).toMatchObject({ timestamp: overviewDays(NOW).at(-1), unitsSold: 3 });
    expect(answer.dailyMetrics[0]).toMatchObject({ timestamp: firstDay, unitsSold: 0 });
    expect(answer.stores.map((store) => store.groupId)).toEqual(['s1']);
    expect(asked).toEqual(['group r1', `figures r1 from ${firstDay}`]);
  });

  it('hides what the rights hide', async () => {
    const { calls } = regionStore({ showsInefficiency: false, showsStores: false });
    const answer = await calls.overview({ groupId: 'r1', accountId: 'a1' });
    expect(answer).toMatchObject({ showsInefficiency: false, showsStores: false, totalLostSales: null });
    const status = await calls.storeStatus({ groupId: 's1', accountId: 'a1' });
    expect(status.totalLostSales).toBeNull();
  });

  it("answers a store's status with every product on its shelves", async () => {
    const { calls, asked } = regionStore();
    const status = await calls.storeStatus({ groupId: 's1', accountId: 'a1' });
    expect(status).toMatchObject({ groupId: 's1', accountId: 'a1', name: 'Dallas' });
    expect(status.products.map((product) => product.rangeState)).toEqual(['EMPTY']);
    expect(asked).toEqual(['group s1', `shelves s1 from ${firstDay}`]);
  });

  it.each([
    ['a group that does not exist', { groupId: 'nope', accountId: 'a1' }],
    ['a group of another account', { groupId: 's1', accountId: 'a2' }],
  ])('refuses %s with 404, reading nothing more', async (_name, query) => {
    for (const call of ['overview', 'storeStatus'] as const) {
      const { calls, asked } = regionStore();
      const error = await calls[call](query).then(
        () => null,
        (reason: unknown) => reason,
      );
      expect(error).toMatchObject({ status: 404, message: 'Group not found.' });
      expect(asked).toEqual([`group ${query.groupId}`]);
    }
  });
});
