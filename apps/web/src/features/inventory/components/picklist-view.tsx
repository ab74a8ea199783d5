import type { StoreStatusAnswer } from '@fieldlink/api/inventory';
import {
  formatTimeUntilOutOfStock,
  minutesUntilOutOfStock,
  picklist,
  picklistQuantity,
} from '@fieldlink/domain/retail';
import { Button } from '../../../components/ui/button';
import { downloadCsv } from '../../../lib/download-csv';
import { formatDateTime } from '@fieldlink/domain/date-format';
import { usePageClock } from '../../../lib/page-time-zone';
import { picklistCsv, picklistFileName } from '../model/picklist-csv';
import { RangeBadge } from './range-badge';

/** The products to bring to the shelves (§5), printable and exportable as CSV. */
export function PicklistView({ store }: { store: StoreStatusAnswer }) {
  const clock = usePageClock();
  const items = picklist(store.products);
  const units = items.reduce((sum, product) => sum + picklistQuantity(product), 0);
  return (
    <section className="fl-card inv-table-card inv-picklist" data-testid="picklist">
      <header className="inv-card-head">
        <div>
          <h2>Picklist · {store.name}</h2>
          <p className="fl-muted">
            {items.length} {items.length === 1 ? 'product' : 'products'}, {units} {units === 1 ? 'unit' : 'units'} to
            pick: low or empty, or running out within 36 hours · {formatDateTime(Date.now(), clock)}
          </p>
        </div>
        <div className="inv-actions inv-no-print">
          <Button size="sm" variant="secondary" onClick={() => window.print()} disabled={items.length === 0}>
            Print
          </Button>
          <Button
            size="sm"
            variant="primary"
            onClick={() => downloadCsv(picklistCsv(items), picklistFileName(store.name, Date.now(), clock.timeZone))}
            disabled={items.length === 0}
          >
            Export CSV
          </Button>
        </div>
      </header>
      {items.length === 0 ? (
        <p className="inv-empty fl-muted">Nothing to pick: every product is well stocked.</p>
      ) : (
        <div className="fl-table-frame">
          <table className="fl-table fl-table--figures inv-table">
            <thead>
              <tr>
                <th scope="col">Product</th>
                <th scope="col">SKU</th>
                <th scope="col">Shelf</th>
                <th scope="col" className="fl-table__num">
                  Count
                </th>
                <th scope="col">Range</th>
                <th scope="col">Out of stock in</th>
                <th scope="col" className="fl-table__num">
                  Pick
                </th>
                <th scope="col" className="inv-check-col" aria-label="Picked" />
              </tr>
            </thead>
            <tbody>
              {items.map((product) => (
                <tr key={product.id}>
                  <td className="inv-product">{product.name}</td>
                  <td>{product.sku}</td>
                  <td>{product.deviceName}</td>
                  <td className="fl-table__num">{product.count}</td>
                  <td>
                    <RangeBadge state={product.rangeState} />
                  </td>
                  <td className="inv-time">
                    {formatTimeUntilOutOfStock(minutesUntilOutOfStock(product.count, product.salesPerHour))}
                  </td>
                  <td className="fl-table__num inv-pick">{picklistQuantity(product)}</td>
                  <td className="inv-check-col">
                    <span className="inv-checkbox" aria-hidden="true" />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
