import { Suspense, useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { LoadingOverlay } from '../components/ui/loading-overlay';
import { ToastViewport } from '../components/ui/toast-viewport';
import { isTokenRemoval } from '../lib/session-token';
import { useAppliedTheme } from '../lib/themes/use-theme';
import { CrashBoundary } from './crash/crash-boundary';
import { PageFallback } from './shell/page-fallback';

/** Wraps every page: theme, toasts, overlay, crash screen, and the other-tab sign-out watch. */
export function RootLayout() {
  const location = useLocation();
  useAppliedTheme(location.pathname);

  useEffect(() => {
    // Signing out in another tab removes the token there; this tab must not keep acting on it.
    const onStorage = (event: StorageEvent) => {
      if (isTokenRemoval(event)) window.location.reload();
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []);

  return (
    <>
      <CrashBoundary resetKey={location.key}>
        <Suspense fallback={<PageFallback />}>
          <Outlet />
        </Suspense>
      </CrashBoundary>
      <ToastViewport />
      <LoadingOverlay />
    </>
  );
}
