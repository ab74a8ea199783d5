import type { RetailProduct } from '@fieldlink/api/inventory';
import { toCsv } from '@fieldlink/domain/csv';
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
