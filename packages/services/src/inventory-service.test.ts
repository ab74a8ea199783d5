import { describe, expect, it } from 'vitest';
import { YEARLY_OVERVIEW_BIN_COUNT } from '@fieldlink/domain/chart';
import { RETAIL_STORE_LOG_WINDOW_MS } from '@fieldlink/domain/retail';
import { storeDeviceLogs, type ChartProduct, type StoreChartStore } from './inventory-service';

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
