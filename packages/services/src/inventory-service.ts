import {
  INVENTORY_ROUTES as ROUTES,
  MAX_CHART_PRODUCTS,
  type OverviewAnswer,
  type OverviewQuery,
  type StoreDeviceLogsAnswer,
  type StoreDeviceLogsQuery,
  type StoreStatusAnswer,
  type StoreStatusQuery,
} from '@fieldlink/api/inventory';
import { YEARLY_OVERVIEW_BIN_COUNT } from '@fieldlink/domain/chart';
import { overviewDays, RETAIL_STORE_LOG_WINDOW_MS, type RetailTotals } from '@fieldlink/domain/retail';
import {
  chartProductsAsked,
  retailRegionOverview,
  retailStoreView,
  type OverviewShelf,
  type StoreShelf,
} from '@fieldlink/domain/retail-views';
import { GROUP_NOT_FOUND } from '@fieldlink/api/errors';
import { routeCallsOver, type RouteCall } from './route-calls';

export const PRODUCT_NOT_FOUND = 'Product not found.';

/** A product of a store's chart: its id and where it is read (a shelf's channel). */
export interface ChartProduct {
  id: string;
  deviceId: string;
  code: string;
}

/**
 * What the store chart's call needs from a backend's storage: the server's rows within the caller's
 * scope, or the demo's dataset and simulated shelves.
 */
export interface StoreChartStore<G extends { id: string }> {
  /** The error a refused call throws: its answer's status and message. */
  refusal(status: number, message: string): Error;
  /** The group the caller may see, or undefined (answered as a group that does not exist). */
  group(groupId: string): Promise<G | undefined>;
  /** Whether a shelf of the group's stores holds a product on channel `code` of device `deviceId`. */
  shelfProducts(group: G): Promise<(deviceId: string, code: string) => boolean>;
  /** The products' stock counts over the window, binned as the backend bins its logs, and the bins' width. */
  productLogs(
    products: readonly ChartProduct[],
    window: { start: number; end: number; binCount: number },
  ): Promise<Pick<StoreDeviceLogsAnswer, 'binWidth' | 'products'>>;
}

/**
 * `GET /inv/store-device-logs ?groupId, productIds`: the chosen products' stock over the retail log
 * window (§9) up to `now`, checked in this order: the products asked (400), the group (404), each
 * product on the store's shelves (404). Who may call is the backend's to check before.
 */
export async function storeDeviceLogs<G extends { id: string }>(
  store: StoreChartStore<G>,
  query: StoreDeviceLogsQuery,
  now: number,
): Promise<StoreDeviceLogsAnswer> {
  const wanted = chartProductsAsked(query.productIds, MAX_CHART_PRODUCTS);
  if (typeof wanted === 'string') throw store.refusal(400, wanted);
  const group = await store.group(query.groupId);
  if (!group) throw store.refusal(404, GROUP_NOT_FOUND);
  const onShelf = await store.shelfProducts(group);
  if (!wanted.every(({ deviceId, code }) => onShelf(deviceId, code))) throw store.refusal(404, PRODUCT_NOT_FOUND);
  const end = now;
  const start = end - RETAIL_STORE_LOG_WINDOW_MS;
  const logs = await store.productLogs(wanted, { start, end, binCount: YEARLY_OVERVIEW_BIN_COUNT });
  return { groupId: group.id, start, end, ...logs };
}

/** A region or store group as the inventory calls read it. */
export interface InventoryGroup {
  id: string;
  accountId: string;
  name: string;
}

/** A store under a region, as the overview counts it: each shelf's range states and sales. */
export interface OverviewStore {
  groupId: string;
  name: string;
  shelves: readonly OverviewShelf[];
}

/**
 * What the overview and store status calls need from a backend's storage: the server's rows within
 * the caller's scope, or the demo's dataset and simulated shelves. `days` are the overview's days
 * (domain `overviewDays`), oldest first: sales are counted from the first.
 */
export interface InventoryStore<G extends InventoryGroup> extends StoreChartStore<G> {
  /** What the caller is shown (domain `retailViewerRights`). */
  rights(): { showsInefficiency: boolean; showsStores: boolean };
  /** The stores (groups with shelves) under the region, and the region's sales per day. */
  regionFigures(
    region: G,
    days: readonly number[],
  ): Promise<{ stores: OverviewStore[]; dayTotals: ReadonlyMap<number, RetailTotals> }>;
  /** The shelves under a store, each with its products and its sales. */
  storeShelves(store: G, days: readonly number[]): Promise<StoreShelf[]>;
}

/**
 * The inventory calls (application §7) over a backend's store: the group must be one the caller may
 * see and of the account named, else 404 as for a group that does not exist. Who may call (the
 * store-level capability of the status and the chart) is the backend's to check before.
 */
export class InventoryCalls<G extends InventoryGroup> {
  constructor(
    private readonly store: InventoryStore<G>,
    private readonly clock: () => number,
  ) {}

  /** `GET /inv/overview`: a region (or one store) with its stores, per overview day. */
  async overview(query: OverviewQuery): Promise<OverviewAnswer> {
    const region = await this.visibleGroup(query.groupId, query.accountId);
    const days = overviewDays(this.clock());
    const { stores, dayTotals } = await this.store.regionFigures(region, days);
    return retailRegionOverview({
      group: retailGroup(region),
      stores,
      days: days.map((timestamp) => ({ timestamp, totals: dayTotals.get(timestamp) })),
      ...this.store.rights(),
    });
  }

  /** `GET /inv/store-status`: a store's figures and every product on its shelves. */
  async storeStatus(query: StoreStatusQuery): Promise<StoreStatusAnswer> {
    const group = await this.visibleGroup(query.groupId, query.accountId);
    const shelves = await this.store.storeShelves(group, overviewDays(this.clock()));
    return retailStoreView(retailGroup(group), shelves, this.store.rights().showsInefficiency);
  }

  /** `GET /inv/store-device-logs`: {@link storeDeviceLogs} at the store's clock. */
  storeDeviceLogs(query: StoreDeviceLogsQuery): Promise<StoreDeviceLogsAnswer> {
    return storeDeviceLogs(this.store, query, this.clock());
  }

  private async visibleGroup(groupId: string, accountId: string): Promise<G> {
    const group = await this.store.group(groupId);
    if (!group || group.accountId !== accountId) throw this.store.refusal(404, GROUP_NOT_FOUND);
    return group;
  }
}

const retailGroup = (group: InventoryGroup) => ({ groupId: group.id, accountId: group.accountId, name: group.name });

/** The inventory calls as a table reads them, whichever store they run over. */
export type AnyInventoryCalls = Pick<InventoryCalls<InventoryGroup>, 'overview' | 'storeStatus' | 'storeDeviceLogs'>;
const inventoryCall = routeCallsOver<AnyInventoryCalls>();

/**
 * The inventory calls {@link InventoryCalls} answers, each at its route: the overview for anyone in
 * scope, a store's status and chart logs with the store-level capability (`loadStoreStock`, §6).
 */
export const INVENTORY_CALLS: readonly RouteCall<AnyInventoryCalls>[] = [
  inventoryCall(ROUTES.overview, [], (calls, { query }) => calls.overview(query)),
  inventoryCall(ROUTES.storeStatus, ['loadStoreStock'], (calls, { query }) => calls.storeStatus(query)),
  inventoryCall(ROUTES.storeDeviceLogs, ['loadStoreStock'], (calls, { query }) => calls.storeDeviceLogs(query)),
];
