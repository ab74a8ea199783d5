import type { RetailProduct } from '@fieldlink/api/inventory';
import { toCsv } from '@fieldlink/domain/csv';
import { fileDay } from '@fieldlink/domain/date-format';
import { formatTimeUntilOutOfStock, minutesUntilOutOfStock, picklistQuantity } from '@fieldlink/domain/retail';

export const PICKLIST_CSV_HEADER = [
  'Product',
  'SKU',
  'Shelf',
  'Slots',
  'Count',
  'Range state',
  'Time until out of stock',
  'Units to pick',
] as const;

/** The picklist as CSV (formula injection neutralised by the domain's writer). */
export function picklistCsv(products: readonly RetailProduct[]): string {
  return toCsv(
    PICKLIST_CSV_HEADER,
    products.map((product) => [
      product.name,
      product.sku,
      product.deviceName,
      product.slotCount,
      product.count,
      product.rangeState,
      formatTimeUntilOutOfStock(minutesUntilOutOfStock(product.count, product.salesPerHour)),
      picklistQuantity(product),
    ]),
  );
}

/**
 * `picklist-city-centre-2026-11-21.csv`: the store and the day the page's clock shows when the list
 * is exported (a list drawn before midnight and exported after it carries the new day).
 */
export function picklistFileName(storeName: string, now: number, timeZone: string): string {
  return `picklist-${storeName.replace(/[^\w-]+/g, '-').toLowerCase()}-${fileDay(now, timeZone)}.csv`;
}
