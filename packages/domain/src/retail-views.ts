import {
  addRangeStateCounts,
  addRetailTotals,
  parseRetailProductId,
  retailOverview,
  retailProduct,
  retailStoreStatus,
  retailSummary,
  type RangeStateCounts,
  type RetailTotals,
  type ShelfProductChannel,
  type ShelfProductTrack,
} from './retail';
import { can, type PermissionSubject } from './permissions';

/**
 * The retail screens' read models (application §3: Overview per group, Retail store), assembled once
 * for the server (from its aggregate rows) and the browser demo (from its simulated shelves): each
 * caller only says what each shelf holds; the sums, the stores' figures and their order are made here.
 */

/**
 * What the retail answers show the user asking: what empty shelves cost (Financial Loss) with
 * REPORTING_PLUS, and the overview's stores to whoever may load a store's stock.
 */
export function retailViewerRights(viewer: PermissionSubject): { showsInefficiency: boolean; showsStores: boolean } {
  return { showsInefficiency: can(viewer, 'reportingPlus'), showsStores: can(viewer, 'loadStoreStock') };
}

/** A region or store group as the answers name it. */
export interface RetailGroup {
  readonly groupId: string;
  readonly accountId: string;
  readonly name: string;
}

/** A shelf device as the overview counts it: its products' range states and its sales over the overview's days. */
export interface OverviewShelf {
  readonly counts: RangeStateCounts | undefined;
  readonly totals: RetailTotals | undefined;
}

/**
 * `GET /inv/overview`: a region (or one store) over all its stores' shelves, one metric per overview
 * day (a day nobody sold on counts as none), and each store with the figures of its own shelves.
 */
export function retailRegionOverview(region: {
  group: RetailGroup;
  stores: readonly { readonly groupId: string; readonly name: string; readonly shelves: readonly OverviewShelf[] }[];
  days: readonly { readonly timestamp: number; readonly totals: RetailTotals | undefined }[];
  showsInefficiency: boolean;
  showsStores: boolean;
}) {
  const { showsInefficiency } = region;
  const shelves = region.stores.flatMap((store) => store.shelves);
  return retailOverview({
    group: region.group,
    counts: addRangeStateCounts(shelves.map((shelf) => shelf.counts)),
    totals: addRetailTotals(shelves.map((shelf) => shelf.totals)),
    days: region.days.map(({ timestamp, totals }) => ({ timestamp, totals: addRetailTotals([totals]) })),
    showsInefficiency,
    showsStores: region.showsStores,
    stores: region.stores.map((store) =>
      retailSummary(
        store,
        addRangeStateCounts(store.shelves.map((shelf) => shelf.counts)),
        addRetailTotals(store.shelves.map((shelf) => shelf.totals)),
        showsInefficiency,
      ),
    ),
  });
}

/** A shelf device of a store: its products (a counting channel's planogram and its track) and its sales. */
export interface StoreShelf {
  readonly id: string;
  readonly name: string;
  readonly products: readonly { readonly channel: ShelfProductChannel; readonly track: ShelfProductTrack }[];
  readonly totals: RetailTotals | undefined;
}

/**
 * A shelf device as a store's status reads it: each of its counting channels whose stock is followed
 * (`trackOf` gives the channel's track, or undefined while none is kept), in channel order, and its
 * sales. The server reads the tracks from its rows, the browser demo from its simulated shelves.
 */
export function storeShelf(
  shelf: { id: string; name: string; totals: RetailTotals | undefined },
  channels: Iterable<ShelfProductChannel>,
  trackOf: (code: string) => ShelfProductTrack | undefined,
): StoreShelf {
  const products = [...channels].flatMap((channel) => {
    const track = trackOf(channel.code);
    return track ? [{ channel, track }] : [];
  });
  return { id: shelf.id, name: shelf.name, products, totals: shelf.totals };
}

/** `GET /inv/store-status`: a store's figures over its shelves and every product on them. */
export function retailStoreView(group: RetailGroup, shelves: readonly StoreShelf[], showsInefficiency: boolean) {
  return retailStoreStatus(
    group,
    shelves.flatMap((shelf) => shelf.products.map(({ channel, track }) => retailProduct(shelf, channel, track))),
    addRetailTotals(shelves.map((shelf) => shelf.totals)),
    showsInefficiency,
  );
}

/**
 * The products a store's chart asks for (`productIds` of `GET /inv/store-device-logs`, comma-separated):
 * each once, 1 to `max` of them, each a product id (`deviceId:code`); else why not, answered with 400.
 */
export function chartProductsAsked(
  productIds: string,
  max: number,
): { id: string; deviceId: string; code: string }[] | string {
  const ids = [...new Set(productIds.split(',').map((id) => id.trim()))].filter(Boolean);
  if (ids.length === 0 || ids.length > max) return `Ask for 1 to ${max} products.`;
  const products = ids.map((id) => ({ id, parsed: parseRetailProductId(id) }));
  if (products.some(({ parsed }) => parsed === null)) return 'Not a product id.';
  return products.map(({ id, parsed }) => ({ id, ...parsed! }));
}
