/**
 * Retail stock rules (application spec §3 Retail store, §5 shortage and picklist, §9 Retail): range
 * states, shortage, picklist, time until out of stock, the rounding of ratings, sales and lost sales,
 * store inefficiency, star rating, the store chart's selections, and how a shelf's counts become
 * sales, restocks and lost sales.
 *
 * A product sits on a smart shelf: `slotCount` facings side by side, each as deep as the shelf
 * (243 mm), holding units `depth` mm deep. So `243 x slotCount / depth` units fill its space, and the
 * specification's shortage `243 x slotCount / depth - count` is what a full restock puts back.
 */

/** Depth of a shelf, in the unit of a product's `depth` (mm): the specification's 243. */
export const SHELF_DEPTH = 243;
/** Products running out sooner than this go on the picklist (§5). */
export const PICKLIST_RUN_OUT_MINUTES = 2160;
/** Beyond 29 days the time until out of stock reads '>1 Month' (§9). */
export const OUT_OF_STOCK_DISPLAY_LIMIT_MINUTES = 29 * 24 * 60;
/** What an unknown or distant time until out of stock reads. */
export const MORE_THAN_A_MONTH = '>1 Month';
/** Chart maximum per product: 11 units per slot (§9). */
export const CHART_MAXIMUM_PER_SLOT = 11;
/** Days of daily metrics on the overview (§9: retail overview charts cover the last 14 days). */
export const RETAIL_OVERVIEW_DAYS = 14;
/** The store chart's log window (§9: 90 days). */
export const RETAIL_STORE_LOG_WINDOW_MS = 90 * 86_400_000;
/** A product at or below this share of its space is LOW (our decision: a quarter of a full facing). */
export const LOW_STOCK_SHARE = 0.25;
/**
 * Sales rates weigh the past with this time constant (hours): a week, so a weekly pattern is
 * averaged and a product whose demand changed is followed within days.
 */
export const SALES_RATE_TIME_CONSTANT_HOURS = 7 * 24;
/** A sales rate needs this many hours in stock before it is known. */
export const MIN_RATE_EXPOSURE_HOURS = 1;
/**
 * A gap between two readings longer than this (hours) is not counted: the shelf was not reporting,
 * so neither its time in stock nor its time empty is known.
 */
export const MAX_READING_GAP_HOURS = 1;

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

export const RANGE_STATES = ['EMPTY', 'LOW', 'GOOD'] as const;
export type RangeState = (typeof RANGE_STATES)[number];
export type RangeStateCounts = Record<RangeState, number>;

export const CHART_SELECTION_OPTIONS = [
  'EMPTY',
  'LOW',
  'CUSTOM',
  'LOWEST_10_STOCK',
  'HIGHEST_5_SALE_PER_HOUR',
] as const;
export type ChartSelectionOption = (typeof CHART_SELECTION_OPTIONS)[number];
/** Products the LOWEST_10_STOCK selection shows. */
export const LOWEST_STOCK_SELECTION_SIZE = 10;
/** Products the HIGHEST_5_SALE_PER_HOUR selection shows. */
export const HIGHEST_SALES_SELECTION_SIZE = 5;

/** The shelf space of a product. */
export interface ShelfSpace {
  readonly slotCount: number;
  readonly depth: number;
}

/** A product as the rules need it. */
export interface StockedProduct extends ShelfSpace {
  readonly id: string;
  readonly name: string;
  readonly count: number;
  /** Units sold per hour; null while unknown. */
  readonly salesPerHour: number | null;
}

/** Units that fill the product's space: 243 x slotCount / depth. */
export function shelfCapacity({ slotCount, depth }: ShelfSpace): number {
  return depth > 0 ? (SHELF_DEPTH * slotCount) / depth : 0;
}

/** Stock shortage (§5): 243 x slotCount / depth - count. */
export function stockShortage(product: ShelfSpace & { readonly count: number }): number {
  return shelfCapacity(product) - product.count;
}

/** Whole units to bring to the shelf: the shortage rounded down (a part unit does not fit), never negative. */
export function picklistQuantity(product: ShelfSpace & { readonly count: number }): number {
  return Math.max(0, Math.floor(stockShortage(product) + 1e-9));
}

/** EMPTY at no units, LOW at a quarter of its space or less, GOOD above. */
export function rangeState(count: number, space: ShelfSpace): RangeState {
  if (count <= 0) return 'EMPTY';
  return count <= LOW_STOCK_SHARE * shelfCapacity(space) ? 'LOW' : 'GOOD';
}

/** How many products are in each range state. */
export function countRangeStates(states: Iterable<RangeState>): RangeStateCounts {
  const counts: RangeStateCounts = { EMPTY: 0, LOW: 0, GOOD: 0 };
  for (const state of states) counts[state] += 1;
  return counts;
}

/** Minutes until the product runs out (§9: floor(count / salesPerHour x 60)); null when unknown. */
export function minutesUntilOutOfStock(count: number, salesPerHour: number | null): number | null {
  if (count <= 0) return 0;
  if (salesPerHour === null || !Number.isFinite(salesPerHour) || salesPerHour <= 0) return null;
  return Math.floor((count / salesPerHour) * 60);
}

/** Days, hours and minutes (`2d 3h 15m`, `4h 0m`, `12m`); '>1 Month' beyond 29 days or when unknown. */
export function formatTimeUntilOutOfStock(minutes: number | null): string {
  if (minutes === null || minutes > OUT_OF_STOCK_DISPLAY_LIMIT_MINUTES) return MORE_THAN_A_MONTH;
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const rest = minutes % 60;
  if (days > 0) return `${days}d ${hours}h ${rest}m`;
  if (hours > 0) return `${hours}h ${rest}m`;
  return `${rest}m`;
}

/** On the picklist (§5): LOW or EMPTY, or running out in under 2160 minutes. */
export function isOnPicklist(product: StockedProduct): boolean {
  const state = rangeState(product.count, product);
  if (state !== 'GOOD') return true;
  const minutes = minutesUntilOutOfStock(product.count, product.salesPerHour);
  return minutes !== null && minutes < PICKLIST_RUN_OUT_MINUTES;
}

/** The picklist: its products, the soonest to run out first (empty ones first of all), then by name. */
export function picklist<T extends StockedProduct>(products: readonly T[]): T[] {
  const soonest = (product: T) => minutesUntilOutOfStock(product.count, product.salesPerHour) ?? Infinity;
  return products
    .filter(isOnPicklist)
    .sort((a, b) => soonest(a) - soonest(b) || a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
}

const roundTo = (value: number, decimals: number) => {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
};

/** Ratings round to 1 decimal (§9). */
export function roundRating(rating: number): number {
  return roundTo(rating, 1);
}

/** Sales per hour round to 3 decimals (§9). */
export function roundSalesPerHour(salesPerHour: number): number {
  return roundTo(salesPerHour, 3);
}

/** Lost sales are whole customers (§9). */
export function roundLostSales(lostSales: number): number {
  return Math.round(lostSales);
}

/** Inefficiency (a share, 0 to 1) as a percentage with 1 decimal: `7.3%` (§9). */
export function formatInefficiency(inefficiency: number): string {
  return `${(inefficiency * 100).toFixed(1)}%`;
}

/**
 * Store inefficiency: the share of customers who found the shelf empty, lost / (sold + lost); null
 * when nobody came. Our decision: the specification names it without a formula.
 */
export function storeInefficiency(unitsSold: number, lostSales: number): number | null {
  const demand = unitsSold + lostSales;
  return demand > 0 ? lostSales / demand : null;
}

/**
 * Star rating, 1 to 5 to 1 decimal: 5 stars with no lost sales, one star less per 5 points of
 * inefficiency, at least 1; null when the inefficiency is unknown. Our decision.
 */
export function starRating(inefficiency: number | null): number | null {
  if (inefficiency === null) return null;
  return roundRating(Math.min(5, Math.max(1, 5 - (inefficiency * 100) / 5)));
}

/** What a product's track says on the store page: count, sales rate, range state, stock level, times. */
export function trackedProductFigures(track: ShelfProductTrack, space: ShelfSpace) {
  const rate = trackedSalesPerHour(track);
  return {
    count: track.count,
    salesPerHour: rate === null ? null : roundSalesPerHour(rate),
    rangeState: track.rangeState,
    stockLevel: track.count / shelfCapacity(space),
    timestamps: {
      decrease: track.decreasedAt,
      restock: track.restockedAt,
      rangeStateChange: track.rangeStateChangedAt,
    },
    updatedAt: track.t,
  };
}

/** Units sold and customers lost, summed over some shelves and days. */
export interface RetailTotals {
  readonly unitsSold: number;
  readonly lostSales: number;
}

/** Totals added up (missing parts count as none). */
export function addRetailTotals(parts: readonly (RetailTotals | undefined)[]): RetailTotals {
  let unitsSold = 0;
  let lostSales = 0;
  for (const part of parts) {
    unitsSold += part?.unitsSold ?? 0;
    lostSales += part?.lostSales ?? 0;
  }
  return { unitsSold, lostSales };
}

/** Range state counts of several shelves added up. */
export function addRangeStateCounts(parts: readonly (RangeStateCounts | undefined)[]): RangeStateCounts {
  const total: RangeStateCounts = { EMPTY: 0, LOW: 0, GOOD: 0 };
  for (const part of parts) for (const state of RANGE_STATES) total[state] += part?.[state] ?? 0;
  return total;
}

/**
 * The figures of a store or region (§3 Retail store). Every figure made from lost sales (the lost
 * sales themselves, the inefficiency, and the star rating, which is the inefficiency on another
 * scale) is for Financial Loss (REPORTING_PLUS) holders only: null for everyone else, so no answer
 * lets the inefficiency be worked out (issue 34 item 10).
 */
export interface RetailFigures {
  starRating: number | null;
  rangeStateCounts: RangeStateCounts;
  storeInefficiency: number | null;
  totalLostSales: number | null;
  productCount: number;
}

export function retailFigures(
  counts: RangeStateCounts,
  totals: RetailTotals,
  showsInefficiency: boolean,
): RetailFigures {
  const inefficiency = storeInefficiency(totals.unitsSold, totals.lostSales);
  return {
    starRating: showsInefficiency ? starRating(inefficiency) : null,
    rangeStateCounts: counts,
    storeInefficiency: showsInefficiency ? inefficiency : null,
    totalLostSales: showsInefficiency ? roundLostSales(totals.lostSales) : null,
    productCount: counts.EMPTY + counts.LOW + counts.GOOD,
  };
}

/** A store's (or region's) figures under its group, as the overview lists it and its status heads it. */
export function retailSummary(
  group: { readonly groupId: string; readonly name: string },
  counts: RangeStateCounts,
  totals: RetailTotals,
  showsInefficiency: boolean,
): RetailFigures & { groupId: string; name: string } {
  return { groupId: group.groupId, name: group.name, ...retailFigures(counts, totals, showsInefficiency) };
}

/** One day of the overview's metrics: units sold and (Financial Loss only) whole customers lost and the inefficiency. */
export function retailDailyMetric(timestamp: number, totals: RetailTotals, showsInefficiency: boolean) {
  return {
    timestamp,
    storeInefficiency: showsInefficiency ? storeInefficiency(totals.unitsSold, totals.lostSales) : null,
    lostSales: showsInefficiency ? roundLostSales(totals.lostSales) : null,
    unitsSold: totals.unitsSold,
  };
}

/** Orders by name, then by id, so equal names keep one order from call to call. */
function byNameThenId<T>(idOf: (item: T) => string) {
  return (a: T & { readonly name: string }, b: T & { readonly name: string }) =>
    a.name.localeCompare(b.name) || idOf(a).localeCompare(idOf(b));
}

/**
 * A region's (or a store's) overview (§3 Overview per group): its figures over the counts and
 * totals of all its shelves, one metric per overview day, and its stores by name.
 */
export function retailOverview<Store extends { readonly groupId: string; readonly name: string }>(overview: {
  group: { readonly groupId: string; readonly accountId: string; readonly name: string };
  counts: RangeStateCounts;
  totals: RetailTotals;
  days: readonly { readonly timestamp: number; readonly totals: RetailTotals }[];
  showsInefficiency: boolean;
  showsStores: boolean;
  stores: readonly Store[];
}) {
  const { group, showsInefficiency } = overview;
  const whole = retailFigures(overview.counts, overview.totals, showsInefficiency);
  return {
    groupId: group.groupId,
    accountId: group.accountId,
    name: group.name,
    rangeStateCounts: whole.rangeStateCounts,
    dailyMetrics: overview.days.map((day) => retailDailyMetric(day.timestamp, day.totals, showsInefficiency)),
    starRating: whole.starRating,
    totalLostSales: whole.totalLostSales,
    storeInefficiency: whole.storeInefficiency,
    showsInefficiency,
    showsStores: overview.showsStores,
    stores: [...overview.stores].sort(byNameThenId((store: Store) => store.groupId)),
  };
}

/** A product's planogram entry on a shelf's counting channel. */
export interface ShelfProductChannel extends ShelfSpace {
  readonly code: string;
  readonly name: string;
  readonly sku: string;
  readonly planogramId?: string | null;
}

/** A shelf's counting channel as the store lists it: its product, named by the channel, else by its SKU. */
export function shelfProductChannel(
  code: string,
  name: string | null | undefined,
  { sku, slotCount, depth, planogramId }: ShelfSpace & { readonly sku: string; readonly planogramId?: string | null },
): ShelfProductChannel {
  return {
    code,
    name: name || sku,
    sku,
    slotCount,
    depth,
    ...(typeof planogramId === 'string' ? { planogramId } : {}),
  };
}

/** A product as the store's status lists it: its planogram, what its track says, and its shelf. */
export function retailProduct(
  shelf: { readonly id: string; readonly name: string },
  channel: ShelfProductChannel,
  track: ShelfProductTrack,
) {
  return {
    id: retailProductId(shelf.id, channel.code),
    name: channel.name,
    sku: channel.sku,
    slotCount: channel.slotCount,
    depth: channel.depth,
    planogramId: channel.planogramId ?? null,
    ...trackedProductFigures(track, channel),
    deviceId: shelf.id,
    deviceName: shelf.name,
    code: channel.code,
  };
}

/** A store's status (§3 Retail store): its figures over its products' range states, and its products by name. */
export function retailStoreStatus<
  Product extends { readonly id: string; readonly name: string; rangeState: RangeState },
>(
  group: { readonly groupId: string; readonly accountId: string; readonly name: string },
  products: readonly Product[],
  totals: RetailTotals,
  showsInefficiency: boolean,
) {
  const ordered = [...products].sort(byNameThenId((product: Product) => product.id));
  return {
    ...retailSummary(group, countRangeStates(ordered.map((product) => product.rangeState)), totals, showsInefficiency),
    accountId: group.accountId,
    products: ordered,
  };
}

/** The unit label of lost sales: 1 Customer, 2 Customers (§9). */
export function customerLabel(count: number): 'Customer' | 'Customers' {
  return count === 1 ? 'Customer' : 'Customers';
}

/** The start (UTC midnight, unix ms) of the day holding `t`. */
export function dayStart(t: number): number {
  return Math.floor(t / DAY_MS) * DAY_MS;
}

/** The starts of the overview's 14 days, oldest first, today last. */
export function overviewDays(now: number): number[] {
  const today = dayStart(now);
  return Array.from(
    { length: RETAIL_OVERVIEW_DAYS },
    (_, index) => today - (RETAIL_OVERVIEW_DAYS - 1 - index) * DAY_MS,
  );
}

/**
 * The products the store chart shows (§3 chart selection): EMPTY or LOW ones, the user's CUSTOM
 * choice, the 10 with the least stock, or the 5 selling fastest.
 */
export function selectChartProducts<T extends StockedProduct>(
  products: readonly T[],
  option: ChartSelectionOption,
  customIds: readonly string[] = [],
): T[] {
  const byName = (a: T, b: T) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id);
  switch (option) {
    case 'EMPTY':
    case 'LOW':
      return products.filter((product) => rangeState(product.count, product) === option).sort(byName);
    case 'CUSTOM': {
      const chosen = new Set(customIds);
      return products.filter((product) => chosen.has(product.id)).sort(byName);
    }
    case 'LOWEST_10_STOCK':
      return [...products].sort((a, b) => a.count - b.count || byName(a, b)).slice(0, LOWEST_STOCK_SELECTION_SIZE);
    case 'HIGHEST_5_SALE_PER_HOUR':
      return [...products]
        .filter((product) => product.salesPerHour !== null)
        .sort((a, b) => (b.salesPerHour ?? 0) - (a.salesPerHour ?? 0) || byName(a, b))
        .slice(0, HIGHEST_SALES_SELECTION_SIZE);
  }
}

/** The chart's y maximum: 11 x slotCount of the largest product shown (§9); 0 with none. */
export function chartMaximum(products: readonly ShelfSpace[]): number {
  return products.reduce((max, product) => Math.max(max, CHART_MAXIMUM_PER_SLOT * product.slotCount), 0);
}

/** A product's id: its shelf device and the channel that counts it. */
export function retailProductId(deviceId: string, code: string): string {
  return `${deviceId}:${code}`;
}

/** The device and channel of a product id, or null when it is not one. */
export function parseRetailProductId(productId: string): { deviceId: string; code: string } | null {
  const at = productId.lastIndexOf(':');
  if (at <= 0 || at === productId.length - 1) return null;
  return { deviceId: productId.slice(0, at), code: productId.slice(at + 1) };
}

/** What is kept of a product between two readings of its shelf. */
export interface ShelfProductTrack {
  /** Time of the last reading, unix ms. */
  readonly t: number;
  readonly count: number;
  readonly rangeState: RangeState;
  readonly decreasedAt: number | null;
  readonly restockedAt: number | null;
  readonly rangeStateChangedAt: number | null;
  /** Units sold, each weighed down by its age (time constant {@link SALES_RATE_TIME_CONSTANT_HOURS}). */
  readonly soldWeight: number;
  /** Hours in stock, weighed the same way. */
  readonly stockedHours: number;
}

/** What one reading adds to the product's day. */
export interface ShelfReadingResult {
  readonly track: ShelfProductTrack;
  readonly unitsSold: number;
  /** Customers estimated to have found the shelf empty since the last reading. */
  readonly lostSales: number;
}

/** Units sold per hour in stock, recent hours weighing most; null until an hour in stock is seen. */
export function trackedSalesPerHour(track: Pick<ShelfProductTrack, 'soldWeight' | 'stockedHours'>): number | null {
  return track.stockedHours >= MIN_RATE_EXPOSURE_HOURS ? track.soldWeight / track.stockedHours : null;
}

/**
 * Folds one reading of a product's count into its track. A fall is a sale (the decrease time), a
 * rise is a restock; a change of range state is stamped. While the product was empty, customers who
 * would have bought it at its sales rate are lost sales. Readings not newer than the last are ignored.
 */
export function advanceShelfProduct(
  previous: ShelfProductTrack | null,
  reading: { readonly t: number; readonly count: number },
  space: ShelfSpace,
): ShelfReadingResult {
  const count = Math.max(0, Math.round(reading.count));
  const state = rangeState(count, space);
  if (!previous) {
    return {
      track: {
        t: reading.t,
        count,
        rangeState: state,
        decreasedAt: null,
        restockedAt: null,
        rangeStateChangedAt: null,
        soldWeight: 0,
        stockedHours: 0,
      },
      unitsSold: 0,
      lostSales: 0,
    };
  }
  if (reading.t <= previous.t) return { track: previous, unitsSold: 0, lostSales: 0 };
  const gapHours = (reading.t - previous.t) / HOUR_MS;
  const countedHours = gapHours > MAX_READING_GAP_HOURS ? 0 : gapHours;
  const rate = trackedSalesPerHour(previous);
  const lostSales = previous.count === 0 && rate !== null ? rate * countedHours : 0;
  const unitsSold = Math.max(0, previous.count - count);
  const decay = Math.exp(-gapHours / SALES_RATE_TIME_CONSTANT_HOURS);
  return {
    track: {
      t: reading.t,
      count,
      rangeState: state,
      decreasedAt: count < previous.count ? reading.t : previous.decreasedAt,
      restockedAt: count > previous.count ? reading.t : previous.restockedAt,
      rangeStateChangedAt: state !== previous.rangeState ? reading.t : previous.rangeStateChangedAt,
      soldWeight: previous.soldWeight * decay + unitsSold,
      stockedHours: previous.stockedHours * decay + (previous.count > 0 ? countedHours : 0),
    },
    unitsSold,
    lostSales,
  };
}
