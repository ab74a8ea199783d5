/// <reference lib="webworker" />
/**
 * App-shell service worker. Shell assets (hashed, immutable) are precached and served cache-first;
 * page navigations go to the network first so a deploy shows at once, falling back to the cached shell
 * when offline. Nothing under /api/ is ever cached or intercepted: live data must never be stale.
 */
import type { PushNotice } from '@fieldlink/api/push';

// A module (see the empty export below) so this `self` shadows the page's Window typing.
declare const self: ServiceWorkerGlobalScope;
export {};

interface PrecacheManifest {
  version: string;
  urls: string[];
}

// Replaced at build time by vite-plugins/service-worker.ts with the list of built shell assets.
const MANIFEST = JSON.parse('__FIELDLINK_PRECACHE_MANIFEST__') as PrecacheManifest;
const CACHE_PREFIX = 'fieldlink-shell-';
const CACHE_NAME = `${CACHE_PREFIX}${MANIFEST.version}`;
const SHELL_URL = '/';

/** The install event's static routing (Chromium 123 on; not yet in TypeScript's worker library). */
interface RoutingInstallEvent extends ExtendableEvent {
  addRoutes?: (rules: { condition: { urlPattern: string }; source: 'network' }[]) => Promise<void>;
}

self.addEventListener('install', (event: RoutingInstallEvent) => {
  // API calls go straight to the network: this worker never answers them, but without a route each
  // one still waited for the worker to start and run its fetch handler (issue 36 item 8).
  if (event.addRoutes) {
    event.waitUntil(
      event.addRoutes([{ condition: { urlPattern: '/api/*' }, source: 'network' }]).catch(() => undefined),
    );
  }
  event.waitUntil(
    caches
      .open(CACHE_NAME)
      .then((cache) => cache.addAll(MANIFEST.urls))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(
          names
            .filter((name) => name.startsWith(CACHE_PREFIX) && name !== CACHE_NAME)
            .map((name) => caches.delete(name)),
        ),
      )
      // The page's address is asked for while the worker starts, not after (navigation preload).
      .then(() => self.registration.navigationPreload?.enable())
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || url.pathname.startsWith('/api/')) return;

  if (request.mode === 'navigate') {
    // Promise.resolve: a browser without navigation preload has no `preloadResponse`.
    const response = networkFirstShell(request, Promise.resolve(event.preloadResponse));
    event.respondWith(response.then(({ page }) => page));
    // The shell is kept for offline starts after the page has its answer, not before.
    event.waitUntil(response.then(({ kept }) => kept));
    return;
  }
  event.respondWith(cacheFirst(request));
});

/** The page's answer, and the promise of keeping it as the offline shell. */
interface ShellAnswer {
  page: Response;
  kept: Promise<void>;
}

async function networkFirstShell(request: Request, preloaded: Promise<unknown>): Promise<ShellAnswer> {
  try {
    const response = ((await preloaded.catch(() => undefined)) as Response | undefined) ?? (await fetch(request));
    // Every route answers with the same index.html, so one cached copy serves all of them offline.
    // Copied before the page reads the body; stored while the page already renders.
    const copy = response.ok ? response.clone() : null;
    const kept = copy ? caches.open(CACHE_NAME).then((cache) => cache.put(SHELL_URL, copy)) : Promise.resolve();
    return { page: response, kept: kept.catch(() => undefined) };
  } catch (error) {
    const cached = await caches.match(SHELL_URL);
    if (cached) return { page: cached, kept: Promise.resolve() };
    throw error;
  }
}

async function cacheFirst(request: Request): Promise<Response> {
  const cached = await caches.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok && new URL(request.url).pathname.startsWith('/assets/')) {
    const cache = await caches.open(CACHE_NAME);
    await cache.put(request, response.clone());
  }
  return response;
}

// Web Push (issue 39 item 2): the server's message, decrypted by the browser, shown as a notification;
// a click opens (or focuses) the page it names, the device's page for an alarm. An alarm's notice
// carries the person's one-time acknowledge link (issue 39 item 5): its "Acknowledge" action posts it
// without opening the console, and the notification then says what became of it.
self.addEventListener('push', (event) => {
  const notice = readNotice(event.data);
  const acknowledge = acknowledgeAddress(notice.acknowledgeUrl);
  const options = {
    body: notice.body,
    tag: notice.tag,
    icon: '/icons/icon-192.png',
    badge: '/icons/icon-192.png',
    data: { url: notice.url, acknowledge },
    // Notification actions are in the service worker's API but not in every TypeScript DOM library.
    ...(acknowledge && { actions: [{ action: 'acknowledge', title: 'Acknowledge' }] }),
  } as NotificationOptions;
  event.waitUntil(self.registration.showNotification(notice.title, options));
});

/**
 * The acknowledge link as an address of this console: only its path and query are kept, so a
 * message cannot make the browser post anywhere else.
 */
function acknowledgeAddress(link: string | undefined): string | null {
  if (!link) return null;
  try {
    const url = new URL(link);
    return url.pathname === '/api/v1/alarm-link'
      ? new URL(`${url.pathname}${url.search}`, self.location.origin).href
      : null;
  } catch {
    return null;
  }
}

async function acknowledgeFromNotification(notification: Notification, address: string): Promise<void> {
  let message = 'Could not reach the server. Open the console to acknowledge the alarm.';
  try {
    const response = await fetch(address, { method: 'POST', headers: { accept: 'application/json' } });
    message = ((await response.json()) as { message?: string }).message ?? message;
  } catch {
    // offline: the message above
  }
  await self.registration.showNotification(notification.title, {
    body: message,
    tag: notification.tag,
    icon: '/icons/icon-192.png',
    data: { url: (notification.data as { url?: unknown } | null)?.url },
  });
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const acknowledge = (event.notification.data as { acknowledge?: unknown } | null)?.acknowledge;
  if (event.action === 'acknowledge' && typeof acknowledge === 'string') {
    event.waitUntil(acknowledgeFromNotification(event.notification, acknowledge));
    return;
  }
  const path = (event.notification.data as { url?: unknown } | null)?.url;
  // Only a page of this console: a message cannot send the person elsewhere.
  const target = new URL(typeof path === 'string' && path.startsWith('/') ? path : '/alarms', self.location.origin);
  event.waitUntil(openPage(target.href));
});

async function openPage(href: string): Promise<void> {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const open = windows.find((client) => client.url === href) ?? windows[0];
  if (open) {
    const focused = await open.focus();
    if (focused.url !== href) await focused.navigate(href);
    return;
  }
  await self.clients.openWindow(href);
}

/** The notice in a push message; a message that is not one still shows, generically (a push must show something). */
function readNotice(data: PushMessageData | null): PushNotice {
  try {
    const notice = data?.json() as Partial<PushNotice> | undefined;
    if (notice && typeof notice.title === 'string' && typeof notice.body === 'string') {
      return {
        title: notice.title,
        body: notice.body,
        url: typeof notice.url === 'string' ? notice.url : '/alarms',
        tag: typeof notice.tag === 'string' ? notice.tag : 'fieldlink',
        ...(typeof notice.acknowledgeUrl === 'string' && { acknowledgeUrl: notice.acknowledgeUrl }),
      };
    }
  } catch {
    // not JSON: the generic notice below
  }
  return { title: 'Fieldlink', body: 'Something needs your attention.', url: '/alarms', tag: 'fieldlink' };
}
