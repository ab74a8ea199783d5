import { Navigate, Outlet, useLocation } from 'react-router';
import { isSignedIn } from '@fieldlink/domain/session-state';
import { appStore } from '../lib/app-store/app-store';
import { readToken } from '../lib/session-token';
import { useStore } from '../lib/use-store';

/**
 * Gate of the protected routes: without a stored token, to /signin (specification §2); with a token
 * but the account not yet read in this page (a link followed after start-up), through /loading and
 * back here.
 */
export function RequireSession() {
  const signedIn = useStore(appStore, (s) => isSignedIn(s.machine));
  const location = useLocation();
  if (!readToken()) return <Navigate to="/signin" replace />;
  if (!signedIn) {
    const from = `${location.pathname}${location.search}${location.hash}`;
    return <Navigate to="/loading" replace state={{ from }} />;
  }
  return <Outlet />;
}
