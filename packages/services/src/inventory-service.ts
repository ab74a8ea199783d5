import { MAX_CHART_PRODUCTS, type StoreDeviceLogsAnswer, type StoreDeviceLogsQuery } from '@fieldlink/api/inventory';
import { YEARLY_OVERVIEW_BIN_COUNT } from '@fieldlink/domain/chart';
import { RETAIL_STORE_LOG_WINDOW_MS } from '@fieldlink/domain/retail';
import { chartProductsAsked } from '@fieldlink/domain/retail-views';
import { GROUP_NOT_FOUND } from '@fieldlink/api/errors';

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
