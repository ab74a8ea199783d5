import { Type, type Static } from '@sinclair/typebox';
import { RANGE_STATES } from '@fieldlink/domain/retail';
import { ChannelLog } from './device-logs';
import { EntityId, Nullable } from './fields';
import { errorAnswers } from './errors';
import { apiRoute } from './routes';

/**
 * Inventory calls of application §7: `GET /inv/store-status ?groupId, accountId`,
 * `GET /inv/store-device-logs ?groupId, productIds`, `GET /inv/overview ?groupId, accountId`.
 * The specification does not show their answers; these are ours (§3 Retail store). Times are unix
 * milliseconds; inefficiency is a share from 0 to 1 (shown as a percentage).
 */

export const RangeState = Type.Union(RANGE_STATES.map((state) => Type.Literal(state)));

export const RangeStateCounts = Type.Object({
  EMPTY: Type.Integer({ minimum: 0 }),
  LOW: Type.Integer({ minimum: 0 }),
  GOOD: Type.Integer({ minimum: 0 }),
});
export type RangeStateCounts = Static<typeof RangeStateCounts>;

/** One product on a shelf device of the store. */
export const RetailProduct = Type.Object({
  /** `{deviceId}:{channel code}`. */
  id: Type.String(),
  name: Type.String(),
  sku: Type.String(),
  slotCount: Type.Integer({ minimum: 1 }),
  /** Depth of one unit, mm: 243 x slotCount / depth units fill the product's space. */
  depth: Type.Number({ exclusiveMinimum: 0 }),
  count: Type.Integer({ minimum: 0 }),
  /** Units sold per hour in stock, 3 decimals; null until known. */
  salesPerHour: Nullable(Type.Number({ minimum: 0 })),
  rangeState: RangeState,
  planogramId: Nullable(Type.String()),
  /** Stock level: count as a share of the product's space (0 to 1 and above when overfilled). */
  stockLevel: Type.Number({ minimum: 0 }),
  /** Last fall of the count (a sale), last rise (a restock), last change of range state. */
  timestamps: Type.Object({
    decrease: Nullable(Type.Number()),
    restock: Nullable(Type.Number()),
    rangeStateChange: Nullable(Type.Number()),
  }),
  /** The shelf device and the channel that counts the product. */
  deviceId: Type.String(),
  deviceName: Type.String(),
  code: Type.String(),
  /** Time of the last reading. */
  updatedAt: Nullable(Type.Number()),
});
export type RetailProduct = Static<typeof RetailProduct>;

/** A store's figures over the overview's 14 days. */
export const RetailStoreSummary = Type.Object({
  groupId: Type.String(),
  name: Type.String(),
  /**
   * 1 to 5 stars, 1 decimal; null when nobody came to the shelves. Made from the inefficiency, so only
   * with REPORTING_PLUS (Financial Loss); otherwise null.
   */
  starRating: Nullable(Type.Number()),
  rangeStateCounts: RangeStateCounts,
  /** Only with REPORTING_PLUS (Financial Loss); otherwise null. */
  storeInefficiency: Nullable(Type.Number()),
  /** Only with REPORTING_PLUS (Financial Loss); otherwise null. */
  totalLostSales: Nullable(Type.Integer({ minimum: 0 })),
  productCount: Type.Integer({ minimum: 0 }),
});
export type RetailStoreSummary = Static<typeof RetailStoreSummary>;

export const StoreStatusQuery = Type.Object(
  { groupId: EntityId, accountId: EntityId },
  { additionalProperties: false },
);
export type StoreStatusQuery = Static<typeof StoreStatusQuery>;

/** §3 Retail store: the group's figures and every product of its shelf devices. */
export const StoreStatusAnswer = Type.Composite([
  RetailStoreSummary,
  Type.Object({ accountId: Type.String(), products: Type.Array(RetailProduct) }),
]);
export type StoreStatusAnswer = Static<typeof StoreStatusAnswer>;

/** Most products one store chart asks for. */
export const MAX_CHART_PRODUCTS = 100;

export const StoreDeviceLogsQuery = Type.Object(
  {
    groupId: EntityId,
    /** Comma-separated product ids (`{deviceId}:{code}`). */
    productIds: Type.String({ minLength: 1, maxLength: MAX_CHART_PRODUCTS * 140 }),
  },
  { additionalProperties: false },
);
export type StoreDeviceLogsQuery = Static<typeof StoreDeviceLogsQuery>;

/** Stock counts of the chosen products over the last 90 days (§9 retail store log window). */
export const StoreDeviceLogsAnswer = Type.Object({
  groupId: Type.String(),
  start: Type.Number(),
  end: Type.Number(),
  binWidth: Type.Number({ description: 'width of a bin, ms' }),
  /** Per product id. */
  products: Type.Record(Type.String(), ChannelLog),
});
export type StoreDeviceLogsAnswer = Static<typeof StoreDeviceLogsAnswer>;

export const OverviewQuery = Type.Object({ groupId: EntityId, accountId: EntityId }, { additionalProperties: false });
export type OverviewQuery = Static<typeof OverviewQuery>;

export const DailyMetric = Type.Object({
  /** Start of the day, UTC. */
  timestamp: Type.Number(),
  /** Only with REPORTING_PLUS; otherwise null. Null too on a day nobody came. */
  storeInefficiency: Nullable(Type.Number()),
  /** Only with REPORTING_PLUS; otherwise null. */
  lostSales: Nullable(Type.Integer({ minimum: 0 })),
  unitsSold: Type.Integer({ minimum: 0 }),
});
export type DailyMetric = Static<typeof DailyMetric>;

/** §3 Overview per group, with the stores beneath it (the store list by region). */
export const OverviewAnswer = Type.Object({
  groupId: Type.String(),
  accountId: Type.String(),
  name: Type.String(),
  rangeStateCounts: RangeStateCounts,
  /** The last 14 days, oldest first. */
  dailyMetrics: Type.Array(DailyMetric),
  /** Only with REPORTING_PLUS; otherwise null (see {@link RetailStoreSummary}). */
  starRating: Nullable(Type.Number()),
  /** Only with REPORTING_PLUS; otherwise null. */
  totalLostSales: Nullable(Type.Integer({ minimum: 0 })),
  /** Only with REPORTING_PLUS; otherwise null. */
  storeInefficiency: Nullable(Type.Number()),
  /** Whether the answer carries the Financial Loss figures: lost sales, star rating, inefficiency (REPORTING_PLUS). */
  showsInefficiency: Type.Boolean(),
  /** Whether the caller may open a store's status, chart and picklist (store-level users). */
  showsStores: Type.Boolean(),
  /** Every store (a group with shelf devices) at or beneath the group, by name. */
  stores: Type.Array(RetailStoreSummary),
});
export type OverviewAnswer = Static<typeof OverviewAnswer>;

const INVENTORY_ERRORS = errorAnswers(400, 401, 403, 404);

/** The inventory calls (application §7), as the server registers them and the browser demo answers them. */
export const INVENTORY_ROUTES = {
  storeStatus: apiRoute('GET', '/inv/store-status', {
    tags: ['inventory'],
    summary: 'A store’s figures and every product of its shelves (needs VIEW_DASH or VIEW_ACCOUNTS)',
    querystring: StoreStatusQuery,
    response: { 200: StoreStatusAnswer, ...INVENTORY_ERRORS },
  }),
  storeDeviceLogs: apiRoute('GET', '/inv/store-device-logs', {
    tags: ['inventory'],
    summary: 'Stock counts of a store’s products over the last 90 days (needs VIEW_DASH or VIEW_ACCOUNTS)',
    querystring: StoreDeviceLogsQuery,
    response: { 200: StoreDeviceLogsAnswer, ...INVENTORY_ERRORS },
  }),
  overview: apiRoute('GET', '/inv/overview', {
    tags: ['inventory'],
    summary:
      'Range states, the last 14 days’ lost sales (and inefficiency with REPORTING_PLUS), star rating and the stores of a group',
    querystring: OverviewQuery,
    response: { 200: OverviewAnswer, ...INVENTORY_ERRORS },
  }),
};
