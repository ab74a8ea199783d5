import type { RangeStateCounts } from '@fieldlink/api/inventory';
import { RANGE_STATES, customerLabel, formatInefficiency } from '@fieldlink/domain/retail';
import { RANGE_LABELS } from './range-badge';
import { StarRating } from './star-rating';

export interface StoreFiguresProps {
  starRating: number | null;
  rangeStateCounts: RangeStateCounts;
  /** Null when the caller may not see it (REPORTING_PLUS). */
  totalLostSales: number | null;
  /** Null when the caller may not see it (REPORTING_PLUS) or nobody came. */
  storeInefficiency: number | null;
  showsInefficiency: boolean;
}

/**
 * The tiles at the head of an overview or a store: range states, and for Financial Loss holders
 * (REPORTING_PLUS) the rating, lost sales and inefficiency, which the server sends only to them.
 */
export function StoreFigures({
  starRating,
  rangeStateCounts,
  totalLostSales,
  storeInefficiency,
  showsInefficiency,
}: StoreFiguresProps) {
  return (
    <div className="inv-tiles">
      {showsInefficiency && (
        <section className="fl-card inv-tile" data-testid="star-rating">
          <h2>Star rating</h2>
          <StarRating rating={starRating} size={20} />
          <p className="fl-muted">Last 14 days</p>
        </section>
      )}
      {RANGE_STATES.map((state) => (
        <section
          key={state}
          className={`fl-card inv-tile inv-tile--${state.toLowerCase()}`}
          data-testid={`range-${state}`}
        >
          <h2>{RANGE_LABELS[state]}</h2>
          <strong className="inv-tile__number">{rangeStateCounts[state]}</strong>
          <p className="fl-muted">{rangeStateCounts[state] === 1 ? 'product' : 'products'}</p>
        </section>
      ))}
      {totalLostSales !== null && (
        <section className="fl-card inv-tile" data-testid="total-lost-sales">
          <h2>Lost sales</h2>
          <strong className="inv-tile__number">{totalLostSales}</strong>
          <p className="fl-muted">{customerLabel(totalLostSales)}, last 14 days</p>
        </section>
      )}
      {showsInefficiency && (
        <section className="fl-card inv-tile" data-testid="store-inefficiency">
          <h2>Inefficiency</h2>
          <strong className="inv-tile__number">
            {storeInefficiency === null ? '–' : formatInefficiency(storeInefficiency)}
          </strong>
          <p className="fl-muted">of customers found a shelf empty</p>
        </section>
      )}
    </div>
  );
}
