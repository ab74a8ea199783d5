import { isValidElement } from 'react';
import { createBrowserRouter, matchRoutes, type RouteObject } from 'react-router';
import { RouteError } from './crash/route-error';
import { lazyPage, type LazyPage } from './lazy-page';
import { RequireSession } from './require-session';
import { RootLayout } from './root-layout';

// Every page is its own chunk, and so is the signed-in shell: the first load (usually the sign-in
// page) carries only React, the router, the query client and the kit.
const AppShell = lazyPage(() => import('./shell/app-shell'), 'AppShell');
const session = () => import('../features/session/components/session-pages');
const LandingPage = lazyPage(session, 'LandingPage');
const LoadingPage = lazyPage(session, 'LoadingPage');
const SignoutPage = lazyPage(session, 'SignoutPage');
const DashAccessDenyPage = lazyPage(session, 'DashAccessDenyPage');
const PasswordChangedPage = lazyPage(session, 'PasswordChangedPage');
const SignedUpPage = lazyPage(session, 'SignedUpPage');
const SigninPage = lazyPage(() => import('../features/session/components/signin-page'), 'SigninPage');
const ForgotPasswordPage = lazyPage(
  () => import('../features/session/components/forgot-password-page'),
  'ForgotPasswordPage',
);
const ResetPasswordPage = lazyPage(
  () => import('../features/session/components/reset-password-page'),
  'ResetPasswordPage',
);
const SecondFactorSetupPage = lazyPage(() => import('./second-factor-setup-route'), 'SecondFactorSetupRoute');
const SignupPage = lazyPage(() => import('../features/session/components/signup-page'), 'SignupPage');

const AccountsTreePage = lazyPage(() => import('./accounts-tree-route'), 'AccountsTreeRoute');

const DeviceDashPage = lazyPage(() => import('./device-dash-route'), 'DeviceDashRoute');
const DevicePickerPage = lazyPage(() => import('../features/dash/components/device-picker-page'), 'DevicePickerPage');
const SceneDashPage = lazyPage(() => import('../features/scenes/components/scene-dash-page'), 'SceneDashPage');

const HomeRedirect = lazyPage(() => import('./shell/home-redirect'), 'HomeRedirect');
const BrewSummaryPage = lazyPage(() => import('../features/brew/components/brew-summary-page'), 'BrewSummaryPage');
const InventoryPage = lazyPage(() => import('../features/inventory/components/inventory-page'), 'InventoryPage');
const BpNoDataPage = lazyPage(() => import('../features/inventory/components/bp-no-data-page'), 'BpNoDataPage');
const AlertsPage = lazyPage(() => import('../features/alarms/components/alerts-page'), 'AlertsPage');
const AlarmsPage = lazyPage(() => import('../features/alarms/components/alarms-page'), 'AlarmsPage');
const DeviceTablePage = lazyPage(() => import('./device-table-route'), 'DeviceTableRoute');
const SecurityPage = lazyPage(() => import('../features/security/components/security-page'), 'SecurityPage');
const NotificationsPage = lazyPage(
  () => import('../features/notifications/components/notifications-page'),
  'NotificationsPage',
);
const AuditLogPage = lazyPage(() => import('../features/audit/components/audit-log-page'), 'AuditLogPage');
const WebhooksPage = lazyPage(() => import('../features/webhooks/components/webhooks-page'), 'WebhooksPage');
const SprayOverviewPage = lazyPage(
  () => import('../features/spray/components/spray-overview-page'),
  'SprayOverviewPage',
);
const reports = () => import('../features/reports/components/reports-page');
const ReportsPage = lazyPage(reports, 'ReportsPage');
const SchedulesPage = lazyPage(() => import('../features/reports/components/schedules-page'), 'SchedulesPage');

const publicPages = () => import('../features/public-pages/components/public-pages');
const EmptyPage = lazyPage(publicPages, 'EmptyPage');
const DemoPage = lazyPage(() => import('../features/demo/components/demo-page'), 'DemoPage');
const PrivacyPage = lazyPage(publicPages, 'PrivacyPage');
const VideosPage = lazyPage(publicPages, 'VideosPage');
const IconPreviewPage = lazyPage(publicPages, 'IconPreviewPage');
const NotFoundPage = lazyPage(publicPages, 'NotFoundPage');

const ROUTES: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    children: [
      { path: '/', element: <LandingPage /> },
      { path: '/empty', element: <EmptyPage /> },
      { path: '/signin', element: <SigninPage /> },
      { path: '/second-factor-setup', element: <SecondFactorSetupPage /> },
      { path: '/signout', element: <SignoutPage /> },
      { path: '/forgot-password', element: <ForgotPasswordPage /> },
      { path: '/reset-password', element: <ResetPasswordPage /> },
      { path: '/signup', element: <SignupPage /> },
      { path: '/passwordChangedSuccessfully', element: <PasswordChangedPage /> },
      { path: '/dashAccessDeny', element: <DashAccessDenyPage /> },
      { path: '/signedUpSuccessfully', element: <SignedUpPage /> },
      { path: '/demo', element: <DemoPage /> },
      { path: '/privacy', element: <PrivacyPage /> },
      { path: '/loading', element: <LoadingPage loadPageCode={preloadPage} /> },
      { path: '/videos/*', element: <VideosPage /> },
      { path: '/iconpreview', element: <IconPreviewPage /> },
      {
        element: <RequireSession />,
        children: [
          {
            element: <AppShell />,
            children: [
              { path: '/coming-soon', element: <HomeRedirect /> },
              { path: '/inv/cig/*', element: <InventoryPage /> },
              { path: '/brew/summary/:groupId', element: <BrewSummaryPage /> },
              { path: '/spray/:groupId', element: <SprayOverviewPage /> },
              { path: '/bp-no-data', element: <BpNoDataPage /> },
              { path: '/alerts', element: <AlertsPage /> },
              { path: '/accounts/treeview', element: <AccountsTreePage /> },
              { path: '/accounts/list', element: <DeviceTablePage /> },
              { path: '/accounts/audit-log', element: <AuditLogPage /> },
              { path: '/accounts/webhooks', element: <WebhooksPage /> },
              { path: '/account/security', element: <SecurityPage /> },
              { path: '/account/notifications', element: <NotificationsPage /> },
              { path: '/reports', element: <ReportsPage /> },
              { path: '/reports/schedules', element: <SchedulesPage /> },
              { path: '/alarms', element: <AlarmsPage /> },
              { path: '/dash', element: <DevicePickerPage /> },
              { path: '/dash/:thingName', element: <DeviceDashPage /> },
              { path: '/dash/:accountId/:groupId', element: <SceneDashPage /> },
              { path: '/dash/:accountId/:groupId/:sceneId', element: <SceneDashPage /> },
              { path: '*', element: <NotFoundPage /> },
            ],
          },
        ],
      },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(ROUTES);
}

const isLazyPage = (type: unknown): type is LazyPage =>
  typeof type === 'function' && typeof (type as Partial<LazyPage>).preload === 'function';

/**
 * Starts loading the code of every page a path shows (the signed-in shell and the page in it), so
 * that it renders at once when the router gets there. Resolves when all of it has loaded; a failed
 * load is reported by the page when it renders (ChunkLoadError), not here.
 */
export function preloadPage(path: string): Promise<void> {
  const pages = (matchRoutes(ROUTES, path) ?? [])
    .map((match) => (isValidElement(match.route.element) ? match.route.element.type : null))
    .filter(isLazyPage);
  return Promise.all(pages.map((page) => page.preload().catch(() => undefined))).then(() => undefined);
}
