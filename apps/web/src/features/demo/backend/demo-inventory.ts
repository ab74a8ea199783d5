import type { OverviewAnswer, StoreStatusAnswer } from '@fieldlink/api/inventory';
import {
  addRetailTotals,
  countRangeStates,
  overviewDays,
  shelfProductChannel,
  type RetailTotals,
} from '@fieldlink/domain/retail';
import { retailRegionOverview, retailStoreView, type StoreShelf } from '@fieldlink/domain/retail-views';
import type { DeviceSnapshot } from '../worker/protocol';
import { DEMO_ACCOUNT_ID, type DemoGroupEntry } from './demo-dataset';

/** A store of the demo: a group and its smart shelves as the worker follows them. */
export interface DemoStore {
  group: Pick<DemoGroupEntry, 'id' | 'name'>;
  shelves: readonly (DeviceSnapshot & { name: string })[];
}

/** What a simulated shelf holds, as the domain's retail views read a shelf (its sales over `days`). */
function storeShelf(shelf: DemoStore['shelves'][number], days: readonly number[]): StoreShelf {
  const totals: RetailTotals = addRetailTotals(days.map((day) => shelf.shelf?.days[String(day)]));
  const products = shelf.channels.flatMap(({ code, name, product }) => {
    const track = shelf.shelf?.tracks[code];
    return product && track ? [{ channel: shelfProductChannel(code, name, product), track }] : [];
  });
  return { id: shelf.thingName, name: shelf.name, products, totals };
}

const regionOf = (group: DemoStore['group']) => ({ groupId: group.id, accountId: DEMO_ACCOUNT_ID, name: group.name });

/** `GET /inv/overview`: a region (or one store) with its stores, as the server's inventory answers it. */
export function inventoryOverview(
  region: DemoStore['group'],
  stores: readonly DemoStore[],
  rights: { showsInefficiency: boolean; showsStores: boolean },
  now: number,
): OverviewAnswer {
  const days = overviewDays(now);
  const shelves = stores.flatMap((store) => store.shelves);
  return retailRegionOverview({
    group: regionOf(region),
    stores: stores.map((store) => ({
      groupId: store.group.id,
      name: store.group.name,
      shelves: store.shelves.map((shelf) => {
        const { products, totals } = storeShelf(shelf, days);
        return { counts: countRangeStates(products.map(({ track }) => track.rangeState)), totals };
      }),
    })),
    days: days.map((timestamp) => ({
      timestamp,
      totals: addRetailTotals(shelves.map((shelf) => shelf.shelf?.days[String(timestamp)])),
    })),
    ...rights,
  });
}

/** `GET /inv/store-status`: a store's figures and every product on its shelves. */
export function storeStatus(store: DemoStore, showsInefficiency: boolean, now: number): StoreStatusAnswer {
  const days = overviewDays(now);
  return retailStoreView(
    regionOf(store.group),
    store.shelves.map((shelf) => storeShelf(shelf, days)),
    showsInefficiency,
  );
}
