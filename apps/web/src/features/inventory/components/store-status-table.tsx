import type { RetailProduct } from '@fieldlink/api/inventory';
import { formatTimeUntilOutOfStock, minutesUntilOutOfStock } from '@fieldlink/domain/retail';
import { formatDateTime, type Clock } from '@fieldlink/domain/date-format';
import { usePageClock } from '../../../lib/page-time-zone';
import { RangeBadge } from './range-badge';

const time = (t: number | null, clock: Clock) => (t === null ? '–' : formatDateTime(t, clock));

/** Every product of the store's shelves with its stock, sales and the times it last changed. */
export function StoreStatusTable({ products }: { products: readonly RetailProduct[] }) {
  const clock = usePageClock();
  if (products.length === 0) {
    return (
      <section className="fl-card inv-empty fl-muted">
        No product has reported a count yet. Products appear once their shelf reports.
      </section>
    );
  }
  return (
    <section className="fl-card inv-table-card">
      <div className="fl-table-frame">
        <table className="fl-table fl-table--figures inv-table" data-testid="product-table">
          <thead>
            <tr>
              <th scope="col">Product</th>
              <th scope="col" className="fl-table__num">
                Slots
              </th>
              <th scope="col" className="fl-table__num">
                Depth
              </th>
              <th scope="col">Count</th>
              <th scope="col" className="fl-table__num">
                Sales / h
              </th>
              <th scope="col">Range</th>
              <th scope="col">Out of stock in</th>
              <th scope="col">Last decrease</th>
              <th scope="col">Last restock</th>
              <th scope="col">Range changed</th>
            </tr>
          </thead>
          <tbody>
            {products.map((product) => (
              <tr key={product.id}>
                <td>
                  <span className="inv-product">{product.name}</span>
                  <span className="fl-sub">
                    {product.sku} · {product.deviceName}
                  </span>
                </td>
                <td className="fl-table__num">{product.slotCount}</td>
                <td className="fl-table__num">{product.depth} mm</td>
                <td>
                  <span className="inv-count">
                    <span className="fl-table__num">{product.count}</span>
                    <span className={`inv-level inv-level--${product.rangeState.toLowerCase()}`} aria-hidden="true">
                      <span style={{ width: `${Math.min(100, product.stockLevel * 100)}%` }} />
                    </span>
                  </span>
                </td>
                <td className="fl-table__num">
                  {product.salesPerHour === null ? '–' : product.salesPerHour.toFixed(3)}
                </td>
                <td>
                  <RangeBadge state={product.rangeState} />
                </td>
                <td className="inv-time">
                  {formatTimeUntilOutOfStock(minutesUntilOutOfStock(product.count, product.salesPerHour))}
                </td>
                <td className="inv-time">{time(product.timestamps.decrease, clock)}</td>
                <td className="inv-time">{time(product.timestamps.restock, clock)}</td>
                <td className="inv-time">{time(product.timestamps.rangeStateChange, clock)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
