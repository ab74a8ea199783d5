import { Link, NavLink, Route, Routes, useParams } from 'react-router';
import { ArrowLeftIcon } from '../../../components/ui/icons';
import { PageHeader } from '../../../components/ui/page-header';
import { RefreshButton } from '../../../components/ui/refresh-button';
import { useAccount } from '../../../lib/api/get-account';
import { groupTrail } from '../../../lib/account-tree';
import { useStoreStatus } from '../api/get-store-status';
import { useLoadFailure } from '../hooks/use-load-failure';
import { accountGroups, inventoryPaths } from '../model/inventory-routes';
import { InventoryLoading } from './inventory-loading';
import { PicklistView } from './picklist-view';
import { StoreChart } from './store-chart';
import { StoreFigures } from './store-figures';
import { StoreStatusTable } from './store-status-table';

/** A store: its figures, then its status, its chart over 90 days, or its picklist. */
export function StorePage() {
  const { accountId = '', groupId = '' } = useParams();
  const status = useStoreStatus(groupId, accountId);
  const account = useAccount();
  useLoadFailure(status.isError);
  if (!status.data) return <InventoryLoading />;
  const store = status.data;
  const tree = account.data?.accounts.find((candidate) => candidate.id === accountId);
  // Back to the store's region: the group above it.
  const parent = tree
    ? accountGroups(tree).find(({ group }) => group.groups.some((child) => child.id === groupId))
    : null;
  const trail = tree ? groupTrail(tree, groupId).slice(1, -1) : [];
  const tabs = [
    { to: inventoryPaths.store(accountId, groupId), label: 'Status', end: true },
    { to: inventoryPaths.chart(accountId, groupId), label: 'Chart', end: false },
    { to: inventoryPaths.picklist(accountId, groupId), label: 'Picklist', end: false },
  ];
  return (
    <div className="fl-page inv-page">
      {parent && (
        <Link className="inv-back fl-muted" to={inventoryPaths.overview(accountId, parent.group.id)}>
          <ArrowLeftIcon size={14} /> {parent.group.name}
        </Link>
      )}
      <PageHeader
        title={store.name}
        summary={
          <>
            {[...trail, `${store.productCount} ${store.productCount === 1 ? 'product' : 'products'}`].join(' · ')}
            <RefreshButton query={status} />
          </>
        }
      >
        <nav className="fl-segments" aria-label="Store views">
          {tabs.map((tab) => (
            <NavLink key={tab.label} to={tab.to} end={tab.end} className="fl-segment">
              {tab.label}
            </NavLink>
          ))}
        </nav>
      </PageHeader>
      <div className="inv-no-print">
        <StoreFigures
          starRating={store.starRating}
          rangeStateCounts={store.rangeStateCounts}
          totalLostSales={store.totalLostSales}
          storeInefficiency={store.storeInefficiency}
          showsInefficiency={store.storeInefficiency !== null}
        />
      </div>
      <Routes>
        <Route index element={<StoreStatusTable products={store.products} />} />
        <Route path="chart" element={<StoreChart groupId={groupId} products={store.products} />} />
        <Route path="picklist" element={<PicklistView store={store} />} />
      </Routes>
    </div>
  );
}
