import type { OverviewAnswer, RetailProduct, StoreStatusAnswer } from '@fieldlink/api/inventory';
import {
  addRangeStateCounts,
  addRetailTotals,
  countRangeStates,
  overviewDays,
  retailFigures,
  retailProductId,
  roundLostSales,
  storeInefficiency,
  trackedProductFigures,
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
  return store.shelves
    .flatMap((shelf) =>
      shelf.channels.flatMap(({ code, name, product }) => {
        const track = shelf.shelf?.tracks[code];
        if (!product || !track) return [];
        return [
          {
            id: retailProductId(shelf.thingName, code),
            name: name || product.sku,
            sku: product.sku,
            slotCount: product.slotCount,
            depth: product.depth,
            planogramId: product.planogramId ?? null,
            ...trackedProductFigures(track, product),
            deviceId: shelf.thingName,
            deviceName: shelf.name,
            code,
          },
        ];
      }),
    )
    .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
}

function storeFigures(store: DemoStore, days: readonly number[], showsInefficiency: boolean) {
  const counts = countRangeStates(products(store).map((product) => product.rangeState));
  const totals = addRetailTotals(store.shelves.map((shelf) => shelfTotals(shelf, days)));
  return { groupId: store.group.id, name: store.group.name, ...retailFigures(counts, totals, showsInefficiency) };
}

/** `GET /inv/overview`: a region (or one store) with its stores, as the server's inventory answers it. */
export function inventoryOverview(
  region: Pick<DemoGroupEntry, 'id' | 'name'>,
  stores: readonly DemoStore[],
  showsInefficiency: boolean,
  now: number,
): OverviewAnswer {
  const days = overviewDays(now);
  const summaries = stores
    .map((store) => storeFigures(store, days, showsInefficiency))
    .sort((a, b) => a.name.localeCompare(b.name) || a.groupId.localeCompare(b.groupId));
  const shelves = stores.flatMap((store) => store.shelves);
  const whole = retailFigures(
    addRangeStateCounts(summaries.map((store) => store.rangeStateCounts)),
    addRetailTotals(shelves.map((shelf) => shelfTotals(shelf, days))),
    showsInefficiency,
  );
  return {
    groupId: region.id,
    accountId: DEMO_ACCOUNT_ID,
    name: region.name,
    rangeStateCounts: whole.rangeStateCounts,
    dailyMetrics: days.map((timestamp) => {
      const totals = addRetailTotals(shelves.map((shelf) => shelf.shelf?.days[String(timestamp)]));
      return {
        timestamp,
        storeInefficiency: showsInefficiency ? storeInefficiency(totals.unitsSold, totals.lostSales) : null,
        lostSales: roundLostSales(totals.lostSales),
        unitsSold: totals.unitsSold,
      };
    }),
    starRating: whole.starRating,
    totalLostSales: whole.totalLostSales,
    storeInefficiency: whole.storeInefficiency,
    showsInefficiency,
    showsStores: true,
    stores: summaries,
  };
}

/** `GET /inv/store-status`: a store's figures and every product on its shelves. */
export function storeStatus(store: DemoStore, showsInefficiency: boolean, now: number): StoreStatusAnswer {
  const days = overviewDays(now);
  return {
    ...storeFigures(store, days, showsInefficiency),
    accountId: DEMO_ACCOUNT_ID,
    products: products(store),
  };
}
