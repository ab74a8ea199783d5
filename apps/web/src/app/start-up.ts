import { resolveTheme } from '@fieldlink/domain/app-variant';
import { serverErrorMessage, serverMessageOr } from '../lib/api-client';
import { clientConfigQuery, FALLBACK_CLIENT_CONFIG } from '../lib/api/get-client-config';
import { isSignedIn } from '@fieldlink/domain/session-state';
import {
  appStore,
  dispatchSession,
  reportChangeFailure,
  setRememberedPath,
  showToast,
} from '../lib/app-store/app-store';
import { queryClient, setChangeFailureHandler, setUnauthorizedHandler } from '../lib/query-client';
import { readToken } from '../lib/session-token';
import { endSession } from '../lib/session/end-session';
import { applyTheme } from '../lib/themes/apply-theme';
import { readStoredTheme } from '../lib/themes/theme-storage';
import { currentSubdomain } from '../lib/subdomain';
import { decideStartup } from './start-up-routing';
import { preloadForLoading } from './loading-preload';
import { preloadPage } from './router';
import {
  installLocalBackend,
  readDemoApp,
  readDemoDeviceCount,
  registerDemoDevicesLoader,
} from '../lib/demo/demo-session';

/** How long the first render waits for the first page's code before it shows the page fallback. */
const FIRST_PAGE_WAIT_MS = 500;

/**
 * Everything that runs once before the first render: the start-up routing decision (so no page
 * flashes before a redirect), the theme (so the first paint has the right colours), the public
 * configuration request, and the handler for a token the server no longer accepts. Resolves when the
 * first render may begin: once the first page's code is in, or after {@link FIRST_PAGE_WAIT_MS}.
 */
export function startUp(): Promise<void> {
  // A demo running in this tab goes on after a reload: its backend (a chunk of its own) answers.
  const demoApp = readDemoApp();
  if (demoApp) {
    installLocalBackend(() =>
      import('../features/demo/backend/demo-backend').then((demo) =>
        demo.createDemoBackend(demoApp, readDemoDeviceCount()),
      ),
    );
  }
  // A signed-in account's `_DEMO` devices run in this browser too (the same chunk, loaded only for them).
  registerDemoDevicesLoader((devices) =>
    import('../features/demo/backend/simulated-devices').then((demo) => demo.createSimulatedDevicesBackend(devices)),
  );
  const hasToken = readToken() !== null;
  const decision = decideStartup(window.location, hasToken);
  dispatchSession({ type: 'START', hasToken });
  if (decision.signedOut) endSession();
  if (decision.rememberedPath) setRememberedPath(decision.rememberedPath);
  if (decision.redirectTo) window.history.replaceState(null, '', decision.redirectTo);
  // The first page's code before any other code: the first render waits for it, and on a cold start it
  // would otherwise queue behind the remembered page's forty scripts. Going to /loading, the calls it
  // waits for go first (`preloadForLoading`).
  const preloadFirstPage = () => preloadPage(window.location.pathname);
  const firstPage =
    hasToken && window.location.pathname === '/loading'
      ? preloadForLoading(decision.rememberedPath, preloadFirstPage)
      : preloadFirstPage();

  applyTheme(
    resolveTheme({
      pathname: window.location.pathname,
      subdomain: currentSubdomain(),
      userTheme: readStoredTheme(),
      account: null,
    }),
  );

  // The demo chooser makes no call (a prospect's demo never reaches the server): it names the
  // product as the console does before its configuration arrives.
  if (window.location.pathname === '/demo')
    queryClient.setQueryData(clientConfigQuery().queryKey, FALLBACK_CLIENT_CONFIG);
  else void queryClient.prefetchQuery(clientConfigQuery());

  // §3 "in background" and "refocused".
  document.addEventListener('visibilitychange', () =>
    dispatchSession({ type: document.visibilityState === 'hidden' ? 'HIDDEN' : 'SHOWN' }),
  );

  // AUTH_ERROR: a call refused for the session signs out with the server's message.
  setUnauthorizedHandler((error) => {
    // While /loading reads the account it reports the failure itself ("Error during connection.").
    if (readToken() === null || !isSignedIn(appStore.getState().machine)) return;
    endSession();
    showToast('warning', serverMessageOr(error, 'Your session has ended. Please sign in again.'));
  });
  // FETCH_POST_FAILURE: a failed change that does not report it itself is recorded by the session
  // machine under that event and gets the generic server toast.
  setChangeFailureHandler((error) => reportChangeFailure(serverErrorMessage(error)));

  // Rendered before its code is in, the first page would suspend, and React shows the content that
  // replaces a fallback no sooner than 300 ms after the fallback appeared, even when the code is in
  // the cache a few milliseconds later (issue 36 item 8).
  return Promise.race([firstPage, new Promise<void>((resolve) => setTimeout(resolve, FIRST_PAGE_WAIT_MS))]);
}
