import type { QueryClient } from '@tanstack/react-query';
import { whenIdle } from '../lib/idle';

/** What {@link afterFirstCalls} waits on; the browser's own in the app, stand-ins in tests. */
interface PageQuiet {
  /** Resolves once the page's `load` event has fired. */
  loaded: () => Promise<void>;
  /** Resolves when the main thread is next idle. */
  idle: () => Promise<void>;
  /** Resolves when the worker is to be registered even if calls are still in flight. */
  latest: () => Promise<void>;
}

/** A page whose calls never stop (one polling faster than it answers) still gets its worker. */
const LATEST_REGISTRATION_MS = 30_000;

/** The browser's `load` event and idle callbacks. */
const BROWSER_PAGE_QUIET: PageQuiet = {
  loaded: () =>
    document.readyState === 'complete'
      ? Promise.resolve()
      : new Promise((resolve) => window.addEventListener('load', () => resolve(), { once: true })),
  // The timeout bounds the wait on a page that is never idle; the worker then installs anyway.
  idle: () => new Promise((resolve) => whenIdle(() => resolve(), { timeout: 5_000 })),
  latest: () => new Promise((resolve) => setTimeout(resolve, LATEST_REGISTRATION_MS)),
};

/** Resolves when no query of `queryClient` is fetching. */
function noCallInFlight(queryClient: QueryClient): Promise<void> {
  if (queryClient.isFetching() === 0) return Promise.resolve();
  return new Promise((resolve) => {
    const unsubscribe = queryClient.getQueryCache().subscribe(() => {
      if (queryClient.isFetching() > 0) return;
      unsubscribe();
      resolve();
    });
  });
}

/**
 * Resolves once the page has loaded, its first calls have their answers and the main thread has
 * been idle with no call in flight: the first page is on screen with its data.
 */
async function afterFirstCalls(queryClient: QueryClient, quiet: PageQuiet): Promise<void> {
  await quiet.loaded();
  // A page starts its calls when it renders, which can be after `load`: idle first, then no call.
  for (;;) {
    await quiet.idle();
    if (queryClient.isFetching() === 0) return;
    await noCallInFlight(queryClient);
  }
}

/**
 * Registers the app-shell service worker (production builds only) once the first page has its data:
 * its install downloads and stores every file of the console (135 of them), which on a first visit
 * took the network and the cores from the page's own calls (issue 41 item 5: the device table's
 * 8.5 MB arrived about 400 ms later). Failures are only logged (§8).
 */
export function registerServiceWorker(queryClient: QueryClient, quiet: PageQuiet = BROWSER_PAGE_QUIET): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  void Promise.race([afterFirstCalls(queryClient, quiet), quiet.latest()])
    .then(() => navigator.serviceWorker.register('/sw.js'))
    .catch((error: unknown) => {
      console.error('Service worker registration failed', error);
    });
}
