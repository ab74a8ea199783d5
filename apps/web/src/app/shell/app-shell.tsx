import { lazy, Suspense } from 'react';
import { Outlet, useLocation } from 'react-router';
import { CrashBoundary } from '../crash/crash-boundary';
import { readDemoApp } from '../../lib/demo/demo-session';
import { OtaReloadWatcher } from '../../features/ota/components/ota-reload-watcher';
import { ConnectionBar } from './connection-bar';
import { IdleBanner } from './idle-banner';
import { PageFallback } from './page-fallback';
import { SubNav } from './sub-nav';
import { TopBar } from './top-bar';
import './shell.css';

// The demo's strip is in the demo's chunk: a signed-in customer's shell does not carry it.
const DemoBar = lazy(() =>
  import('../../features/demo/components/demo-bar').then((demo) => ({ default: demo.DemoBar })),
);

/** Frame of every signed-in page. A crash or a slow chunk stays inside the content area. */
export function AppShell() {
  const location = useLocation();
  return (
    <div className="shell">
      <div className="shell-chrome">
        <TopBar />
        <SubNav />
        <ConnectionBar />
        <IdleBanner />
        {readDemoApp() && (
          <Suspense fallback={null}>
            <DemoBar />
          </Suspense>
        )}
        <OtaReloadWatcher />
      </div>
      <main className="shell-content" id="main">
        <CrashBoundary resetKey={location.key}>
          <Suspense fallback={<PageFallback />}>
            <Outlet />
          </Suspense>
        </CrashBoundary>
      </main>
    </div>
  );
}
