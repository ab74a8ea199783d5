import { Navigate, Route, Routes } from 'react-router';
import { useAccount } from '../../../lib/api/get-account';
import { inventoryHome } from '../model/inventory-routes';
import { InventoryLoading } from './inventory-loading';
import { OverviewPage } from './overview-page';
import { StorePage } from './store-page';
import './inventory.css';

/** /inv/cig/*: the retail stock screens (application §2). */
export function InventoryPage() {
  return (
    <Routes>
      <Route index element={<InventoryHome />} />
      <Route path="overview/:accountId/:groupId" element={<OverviewPage />} />
      <Route path="store/:accountId/:groupId/*" element={<StorePage />} />
      <Route path="*" element={<InventoryHome />} />
    </Routes>
  );
}

/** Opens the overview of the user's first stock account. */
function InventoryHome() {
  const account = useAccount();
  if (account.isError) return <Navigate to="/bp-no-data" replace />;
  const home = account.data ? inventoryHome(account.data.accounts) : null;
  if (account.data && !home) return <Navigate to="/bp-no-data" replace />;
  return home ? <Navigate to={home} replace /> : <InventoryLoading />;
}
