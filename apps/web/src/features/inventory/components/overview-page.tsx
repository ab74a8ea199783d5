import { useMemo } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import type { RetailStoreSummary } from '@fieldlink/api/inventory';
import { customerLabel, formatInefficiency } from '@fieldlink/domain/retail';
import { PageHeader } from '../../../components/ui/page-header';
import { RefreshButton } from '../../../components/ui/refresh-button';
import { useAccount } from '../../../lib/api/get-account';
import { useOverview } from '../api/get-overview';
import { useLoadFailure } from '../hooks/use-load-failure';
import { accountGroups, inventoryPaths } from '../model/inventory-routes';
import { DailyChart } from './daily-chart';
import { InventoryLoading } from './inventory-loading';
import { StarRating } from './star-rating';
import { StoreFigures } from './store-figures';

/** The overview of a region (any group above stores): its figures, 14 days of metrics, its stores. */
export function OverviewPage() {
  const { accountId = '', groupId = '' } = useParams();
  const overview = useOverview(groupId, accountId);
  const account = useAccount();
  const navigate = useNavigate();
  useLoadFailure(overview.isError);

  const tree = account.data?.accounts.find((candidate) => candidate.id === accountId);
  const groups = useMemo(() => (tree ? accountGroups(tree) : []), [tree]);
  const storeIds = new Set(overview.data?.stores.map((store) => store.groupId));
  // Regions: the groups above stores, offered in the picker; the stores' region is their parent's name.
  const regionOf = new Map(groups.map(({ group, parents }) => [group.id, parents.at(-1) ?? '']));
  const regions = groups.filter(({ group }) => !storeIds.has(group.id) && group.groups.length > 0);

  if (!overview.data) return <InventoryLoading />;
  const data = overview.data;
  const byRegion = new Map<string, RetailStoreSummary[]>();
  for (const store of data.stores) {
    const region = regionOf.get(store.groupId) ?? '';
    byRegion.set(region, [...(byRegion.get(region) ?? []), store]);
  }
  return (
    <div className="fl-page inv-page">
      <PageHeader
        title={data.name}
        summary={
          <>
            Retail overview · {data.stores.length} {data.stores.length === 1 ? 'store' : 'stores'} · last 14 days
            <RefreshButton query={overview} />
          </>
        }
      >
        {regions.length > 0 && (
          <label className="inv-picker">
            <span className="fl-muted">Region</span>
            <select
              className="fl-select"
              aria-label="Region"
              value={groupId}
              onChange={(event) => void navigate(inventoryPaths.overview(accountId, event.target.value))}
            >
              {!regions.some(({ group }) => group.id === groupId) && <option value={groupId}>{data.name}</option>}
              {regions.map(({ group, parents }) => (
                <option key={group.id} value={group.id}>
                  {[...parents.slice(1), group.name].join(' / ')}
                </option>
              ))}
            </select>
          </label>
        )}
      </PageHeader>

      <StoreFigures
        starRating={data.starRating}
        rangeStateCounts={data.rangeStateCounts}
        totalLostSales={data.totalLostSales}
        storeInefficiency={data.storeInefficiency}
        showsInefficiency={data.showsInefficiency}
      />

      {/* Lost sales, rating and inefficiency are Financial Loss figures: the server sends them only then. */}
      <div className="inv-charts">
        {data.showsInefficiency && (
          <DailyChart
            title="Lost sales per day"
            testId="lost-sales-chart"
            tone="danger"
            days={data.dailyMetrics.map((day) => ({ timestamp: day.timestamp, value: day.lostSales }))}
            format={(value) => `${value}`}
          />
        )}
        {data.showsInefficiency && (
          <DailyChart
            title="Store inefficiency per day"
            testId="inefficiency-chart"
            tone="warning"
            days={data.dailyMetrics.map((day) => ({ timestamp: day.timestamp, value: day.storeInefficiency }))}
            format={formatInefficiency}
          />
        )}
      </div>

      <section className="fl-card inv-table-card">
        <header className="inv-card-head">
          <h2>Stores</h2>
          {!data.showsStores && (
            <p className="fl-muted">Store status and picklists need a permission to view devices.</p>
          )}
        </header>
        {data.stores.length === 0 ? (
          <p className="inv-empty fl-muted">No store with smart shelves in this group yet.</p>
        ) : (
          <div className="fl-table-frame">
            <table className="fl-table inv-table" data-testid="store-list">
              <thead>
                <tr>
                  <th scope="col">Store</th>
                  {data.showsInefficiency && <th scope="col">Rating</th>}
                  <th scope="col" className="fl-table__num">
                    Empty
                  </th>
                  <th scope="col" className="fl-table__num">
                    Low
                  </th>
                  <th scope="col" className="fl-table__num">
                    Good
                  </th>
                  {data.showsInefficiency && (
                    <th scope="col" className="fl-table__num">
                      Inefficiency
                    </th>
                  )}
                  {data.showsInefficiency && (
                    <th scope="col" className="fl-table__num">
                      Lost sales
                    </th>
                  )}
                </tr>
              </thead>
              {[...byRegion].map(([region, stores]) => (
                <tbody key={region}>
                  {byRegion.size > 1 && (
                    <tr className="inv-region-row">
                      <th scope="rowgroup" colSpan={data.showsInefficiency ? 7 : 4}>
                        {region}
                      </th>
                    </tr>
                  )}
                  {stores.map((store) => (
                    <tr key={store.groupId}>
                      <td>
                        {data.showsStores ? (
                          <Link className="inv-store-link" to={inventoryPaths.store(accountId, store.groupId)}>
                            {store.name}
                          </Link>
                        ) : (
                          store.name
                        )}
                        <span className="fl-sub">
                          {store.productCount} {store.productCount === 1 ? 'product' : 'products'}
                        </span>
                      </td>
                      {data.showsInefficiency && (
                        <td data-label="Rating">
                          <StarRating rating={store.starRating} size={13} />
                        </td>
                      )}
                      <td data-label="Empty" className="fl-table__num inv-num--empty">
                        <span>{store.rangeStateCounts.EMPTY}</span>
                      </td>
                      <td data-label="Low" className="fl-table__num inv-num--low">
                        <span>{store.rangeStateCounts.LOW}</span>
                      </td>
                      <td data-label="Good" className="fl-table__num">
                        <span>{store.rangeStateCounts.GOOD}</span>
                      </td>
                      {data.showsInefficiency && (
                        <td data-label="Inefficiency" className="fl-table__num">
                          <span>
                            {store.storeInefficiency === null ? '–' : formatInefficiency(store.storeInefficiency)}
                          </span>
                        </td>
                      )}
                      {store.totalLostSales !== null && (
                        <td data-label="Lost sales" className="fl-table__num">
                          <span>
                            {store.totalLostSales} {customerLabel(store.totalLostSales)}
                          </span>
                        </td>
                      )}
                    </tr>
                  ))}
                </tbody>
              ))}
            </table>
          </div>
        )}
      </section>
    </div>
  );
}
