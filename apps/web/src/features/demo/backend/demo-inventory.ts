import type { OverviewAnswer, RetailProduct, StoreStatusAnswer } from '@fieldlink/api/inventory';
import {
  addRangeStateCounts,
  addRetailTotals,
  countRangeStates,
  overviewDays,
  retailOverview,
  retailProduct,
  retailStoreStatus,
  retailSummary,
  type RetailTotals,
} from '@fieldlink/domain/retail';
import type { DeviceSnapshot } from '../worker/protocol';
import { DEMO_ACCOUNT_ID, type DemoGroupEntry } from './demo-dataset';

/** A store of the demo: a group and its smart shelves as the worker follows them. */
export interface DemoStore {
  group: Pick<DemoGroupEntry, 'id' | 'name'>;
  shelves: readonly (DeviceSnapshot & { name: string })[];
}

/** A shelf's sales and lost sales over the overview's days. */
function shelfTotals(shelf: DeviceSnapshot, days: readonly number[]): RetailTotals {
  return addRetailTotals(days.map((day) => shelf.shelf?.days[String(day)]));
}

function products(store: DemoStore): RetailProduct[] {
  return store.shelves.flatMap((shelf) =>
    shelf.channels.flatMap(({ code, name, product }) => {
      const track = shelf.shelf?.tracks[code];
      if (!product || !track) return [];
      return [
        retailProduct(
          { id: shelf.thingName, name: shelf.name },
          { code, name: name || product.sku, ...product },
          track,
        ),
      ];
    }),
  );
}

function storeSummary(store: DemoStore, days: readonly number[], showsInefficiency: boolean) {
  const counts = countRangeStates(products(store).map((product) => product.rangeState));
  const totals = addRetailTotals(store.shelves.map((shelf) => shelfTotals(shelf, days)));
  return retailSummary({ groupId: store.group.id, name: store.group.name }, counts, totals, showsInefficiency);
}

/** `GET /inv/overview`: a region (or one store) with its stores, as the server's inventory answers it. */
export function inventoryOverview(
  region: Pick<DemoGroupEntry, 'id' | 'name'>,
  stores: readonly DemoStore[],
  showsInefficiency: boolean,
  now: number,
): OverviewAnswer {
  const days = overviewDays(now);
  const summaries = stores.map((store) => storeSummary(store, days, showsInefficiency));
  const shelves = stores.flatMap((store) => store.shelves);
  return retailOverview({
    group: { groupId: region.id, accountId: DEMO_ACCOUNT_ID, name: region.name },
    counts: addRangeStateCounts(summaries.map((store) => store.rangeStateCounts)),
    totals: addRetailTotals(shelves.map((shelf) => shelfTotals(shelf, days))),
    days: days.map((timestamp) => ({
      timestamp,
      totals: addRetailTotals(shelves.map((shelf) => shelf.shelf?.days[String(timestamp)])),
    })),
    showsInefficiency,
    showsStores: true,
    stores: summaries,
  });
}

/** `GET /inv/store-status`: a store's figures and every product on its shelves. */
export function storeStatus(store: DemoStore, showsInefficiency: boolean, now: number): StoreStatusAnswer {
  const days = overviewDays(now);
  return retailStoreStatus(
    { groupId: store.group.id, accountId: DEMO_ACCOUNT_ID, name: store.group.name },
    products(store),
    addRetailTotals(store.shelves.map((shelf) => shelfTotals(shelf, days))),
    showsInefficiency,
  );
}
