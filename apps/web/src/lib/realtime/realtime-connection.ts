import type { QueryKey } from '@tanstack/react-query';
import { MAX_SUBSCRIBE_DEVICES, REALTIME_PATH, type ServerActionOf } from '@fieldlink/api/realtime';
import { realtimeUrl } from '../api-address';
import { dispatchSession, openOverlay } from '../app-store/app-store';
import { accountQuery } from '../api/get-account';
import { deviceQueryRoot } from '../api/get-device';
import { localBackend } from '../demo/demo-session';
import { LIVE_QUERY_ROOT, queryClient } from '../query-client';
import type { ClientRequest, RealtimeClient, ReplyValue } from './realtime-client';
import { ActionBatch } from './action-batch';
import { INITIAL_REALTIME_STATE, realtimeStore, type RealtimeState } from './realtime-store';
import { needsResubscribeAfterReconnect } from './resubscribe-rule';

/**
 * The app's one real-time connection: opened once the account is read, closed on sign-out. It
 * also keeps the set of devices the pages on screen watch (counted, so two widgets of one device
 * share a subscription) and re-establishes it after a reconnect.
 */

let client: RealtimeClient | null = null;
let canSubscribe = false;
let startGeneration = 0;
const watchers = new Map<string, number>();
/**
 * In a hidden tab animation frames stop: received actions are applied at least this often there
 * (Chromium runs a hidden tab's timers once a second anyway). Longer than a frame, so a visible tab whose
 * frames come late under load still applies once per frame.
 */
const HIDDEN_FLUSH_MS = 1000;

/** A page showing the device table, told of each batch of its live feed. */
export interface DeviceTableListener {
  onChanges(batch: ServerActionOf<'server/deviceTableChanges'>): void;
  /** The server accepted the watch (on this socket): batches follow. */
  onWatching(): void;
  /** The socket opened again after a break: changes may have been missed, read the table again. */
  onResync(): void;
}
const tableListeners = new Set<DeviceTableListener>();
/** Hear the table feed's batches without asking for the feed: while a page watches it (observeDeviceTable). */
const tableObservers = new Set<DeviceTableListener['onChanges']>();

export interface StartRealtimeOptions {
  token: string;
  /** Users without view-dashboard make no device subscriptions (specification §4). */
  canViewDash: boolean;
  onUnauthorized: () => void;
}

/**
 * Opens the connection. The client (with its message validation) is its own chunk: the sign-in page,
 * the first thing most visits show, does not need it.
 */
export async function startRealtime(options: StartRealtimeOptions): Promise<void> {
  // The watches of pages shown before it (a page may open before the client's chunks are in) stay:
  // the first socket subscribes them when it opens.
  closeClient();
  const generation = ++startGeneration;
  const { RealtimeClient } = await import('./realtime-client');
  // In a demo the socket is the simulation worker (with the server's, for a signed-in account's
  // `_DEMO` devices): simulated values take the same path as live ones.
  const local = await localBackend();
  // A sign-out (or a second start) while the chunks loaded wins.
  if (generation !== startGeneration) return;
  canSubscribe = options.canViewDash;
  client = new RealtimeClient({
    url: realtimeUrl(REALTIME_PATH),
    token: options.token,
    onAction: (action) => {
      if (action.type === 'server/deviceTableChanges') {
        for (const listener of tableListeners) listener.onChanges(action);
        for (const observer of tableObservers) observer(action);
      } else received.add(action);
    },
    beforeReply: () => received.flush(),
    onConnection: (snapshot) => {
      // What the socket brought before it opened or closed is applied first (`stateAtOpen` below).
      received.flush();
      realtimeStore.setState((s) => ({ ...s, ...snapshot }));
    },
    onOpen: (count) => void onSocketOpen(count),
    onUnauthorized: options.onUnauthorized,
    ...(local ? { createSocket: (url: string, protocols: string[]) => local.createSocket(url, protocols) } : {}),
  });
  client.start();
  window.addEventListener('online', retryNow);
  document.addEventListener('visibilitychange', retryNow);
}

/**
 * The actions received and not yet applied: they are applied together at the next animation frame
 * (or within {@link HIDDEN_FLUSH_MS} in a hidden tab, where frames stop), as one store change.
 */
const received = new ActionBatch({
  store: realtimeStore,
  isWatched: (thingName) => watchers.has(thingName),
  schedule: (flush) => {
    requestAnimationFrame(flush);
    setTimeout(flush, HIDDEN_FLUSH_MS);
  },
  now: Date.now,
});

/** Closes the connection (a start in progress loses), keeping what the pages on screen watch. */
function closeClient(): void {
  startGeneration += 1;
  received.clear();
  window.removeEventListener('online', retryNow);
  document.removeEventListener('visibilitychange', retryNow);
  client?.stop();
  client = null;
  canSubscribe = false;
}

/** Closes the connection and forgets every watch and live value (sign-out). */
export function stopRealtime(): void {
  closeClient();
  watchers.clear();
  tableListeners.clear();
  realtimeStore.setState(() => INITIAL_REALTIME_STATE);
}

function retryNow(): void {
  if (document.visibilityState === 'visible') client?.retryNow();
}

/** Sends a request over the real-time channel; rejects with the specification's messages. */
export function realtimeRequest(action: ClientRequest): Promise<ReplyValue> {
  if (!client) return Promise.reject(new Error('Not connected.'));
  return client.request(action);
}

/**
 * Starts watching devices. Returns a function that stops watching them. Subscription failures are
 * reported to `onError` (a device the user may not see, a timeout) and do not throw. A watch made
 * before the connection is up is kept and subscribed when its socket opens; users without
 * view-dashboard subscribe to nothing (§4).
 */
export function watchDevices(thingNames: readonly string[], onError?: (error: Error) => void): () => void {
  if (thingNames.length === 0) return () => {};
  const added: string[] = [];
  for (const thingName of thingNames) {
    const count = watchers.get(thingName) ?? 0;
    watchers.set(thingName, count + 1);
    if (count === 0) added.push(thingName);
  }
  if (added.length > 0 && canSubscribe && client?.connection.status === 'CONNECTED') {
    for (const request of watchRequests(client, 'server/subscribeDevices', added))
      request.catch((error: Error) => onError?.(error));
  }
  return () => {
    const removed: string[] = [];
    for (const thingName of thingNames) {
      const count = (watchers.get(thingName) ?? 0) - 1;
      if (count > 0) watchers.set(thingName, count);
      else if (watchers.delete(thingName)) removed.push(thingName);
    }
    // Nothing keeps their state current any more: it leaves the store (and the banner's count).
    if (removed.length > 0) received.forget(removed);
    if (removed.length > 0 && canSubscribe && client?.connection.status === 'CONNECTED') {
      // Nothing to tell the user if this fails: the socket is closing or the device is gone anyway.
      for (const request of watchRequests(client, 'server/unsubscribeDevices', removed)) request.catch(() => {});
    }
  };
}

/**
 * The requests that (un)subscribe these devices, at most `MAX_SUBSCRIBE_DEVICES` each (more in one
 * is refused). A subscription's reply comes after the current state of its devices.
 */
function watchRequests(
  to: RealtimeClient,
  type: 'server/subscribeDevices' | 'server/unsubscribeDevices',
  thingNames: readonly string[],
): Promise<ReplyValue>[] {
  const requests: Promise<ReplyValue>[] = [];
  for (let start = 0; start < thingNames.length; start += MAX_SUBSCRIBE_DEVICES)
    requests.push(to.request({ type, thingNames: thingNames.slice(start, start + MAX_SUBSCRIBE_DEVICES) }));
  return requests;
}

/** Subscribes every watched device on a new socket; resolves once every request is answered. */
async function subscribeAll(to: RealtimeClient, thingNames: readonly string[]): Promise<void> {
  await Promise.all(watchRequests(to, 'server/subscribeDevices', thingNames).map((request) => request.catch(() => {})));
}

/**
 * Watches the device table's live feed (connection state, firmware, OTA progress of every device in
 * the user's scope) while the listener is registered, from every socket the connection opens. Returns
 * a function that stops watching. Users without view-dashboard make no subscriptions (§4): their
 * table is never told it is watched, and refreshes on its timer instead.
 */
export function watchDeviceTable(listener: DeviceTableListener): () => void {
  tableListeners.add(listener);
  if (client?.connection.status === 'CONNECTED') void requestTableFeed([listener]);
  return () => {
    if (!tableListeners.delete(listener) || tableListeners.size > 0) return;
    if (canSubscribe && client?.connection.status === 'CONNECTED') {
      client.request({ type: 'server/unwatchDeviceTable' }).catch(() => {});
    }
  };
}

/**
 * Hears the device table feed's batches while a page watches the feed, without asking for it (the
 * shell's OTA news: the table page hears of updates through the feed, not through device watches).
 */
export function observeDeviceTable(onChanges: DeviceTableListener['onChanges']): () => void {
  tableObservers.add(onChanges);
  return () => void tableObservers.delete(onChanges);
}

async function requestTableFeed(listeners: readonly DeviceTableListener[]): Promise<void> {
  if (!client || !canSubscribe) return;
  const watching = await client.request({ type: 'server/watchDeviceTable' }).then(
    () => true,
    () => false,
  );
  if (watching) for (const listener of listeners) if (tableListeners.has(listener)) listener.onWatching();
}

async function onSocketOpen(connectionCount: number): Promise<void> {
  if (!client) return;
  // Taken before anything of the new socket is applied: an entry still the same object later is pre-break.
  const stateAtOpen = realtimeStore.getState();
  if (tableListeners.size > 0) {
    // A new socket watches nothing yet: the table's feed is asked for again, and after a break the
    // table is read again for what changed meanwhile.
    await requestTableFeed([...tableListeners]);
    if (connectionCount > 1) for (const listener of tableListeners) listener.onResync();
  }
  const thingNames = [...watchers.keys()];
  const subscribes = canSubscribe && thingNames.length > 0;
  if (connectionCount === 1) {
    // Pages mounted before the first socket opened: subscribe now, no loading screen needed.
    if (subscribes) await subscribeAll(client, thingNames);
    return;
  }
  // On every page (a stale live state would override the reads of a page opened later); after the
  // subscription where there is one, so no push falls between the record read and the watch.
  const rereadState = (also: readonly QueryKey[] = []) => rereadDeviceState(stateAtOpen, also);
  if (!needsResubscribeAfterReconnect(location.pathname)) return rereadState();
  // Inventory pages watch no device: their data is read again instead (specification §4).
  const reloadsInventory = location.pathname.includes('inv/');
  if (!subscribes && !reloadsInventory) return rereadState();
  dispatchSession({ type: 'BEGIN', activity: 'UPDATING_DEVICE_SUBSCRIPTIONS' });
  const closeOverlay = openOverlay(subscribes ? 'Updating device subscriptions…' : 'Reloading inventory…');
  try {
    if (subscribes) await subscribeAll(client, thingNames);
    // Values sent while the socket was down are read back over REST (a brew tank's connection among them).
    await rereadState([[LIVE_QUERY_ROOT]]);
  } finally {
    closeOverlay();
    dispatchSession({ type: 'END', activity: 'UPDATING_DEVICE_SUBSCRIPTIONS' });
  }
}

/**
 * After a break, pushes sent while the socket was down are lost. The server sends a device's config,
 * OTA progress, alarm bits, health and connection state when they change and, before a subscription's
 * reply, for the devices it subscribes: a device the page subscribes again is current once its reply
 * is in. The others (all of them on a page that does not subscribe again) keep pre-break entries
 * that override what the screens read over REST, and a record carries more than the live state
 * (the settings still queued for the device, which no push carries). So what carries that state is
 * read again (the device records, the account tree with every device's connection, and `also`),
 * then every live entry no push has renewed since the socket opened is dropped, so the screens fall
 * back to the fresh reads. Dropped only once the reads are in, so no screen shows an older read meanwhile; an
 * entry pushed on the new socket (a subscription's state among them) is kept (the store copies what
 * a push touches, so its object is a new one). Resolves once the records and `also` are in (the
 * reconnect overlay waits for them); the configs, OTA progress, alarm bits and health go then, the
 * connection states once the tree is in too.
 */
function rereadDeviceState(atOpen: RealtimeState, also: readonly QueryKey[]): Promise<void> {
  // The tree (4 MB at 100,000 devices) is not waited for behind the overlay.
  const tree = queryClient.invalidateQueries({ queryKey: accountQuery().queryKey });
  const records = Promise.all(
    [deviceQueryRoot, ...also].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
  ).then(() => dropUnrenewed(['config', 'ota', 'alarms', 'health'], atOpen));
  void Promise.all([records, tree]).then(() => dropUnrenewed(['connection'], atOpen));
  return records;
}

/** Drops, in one store change, the slices' entries no push has renewed since `atOpen` was taken. */
function dropUnrenewed(
  slices: readonly ('config' | 'ota' | 'alarms' | 'health' | 'connection')[],
  atOpen: RealtimeState,
): void {
  realtimeStore.setState((s) => {
    let next = s;
    for (const slice of slices) {
      const renewed = renewedSince<unknown>(s[slice], atOpen[slice]);
      if (renewed !== s[slice]) next = { ...next, [slice]: renewed };
    }
    return next;
  });
}

/** The entries pushed since `atOpen` was taken (the same object when all of them were). */
function renewedSince<T>(entries: Readonly<Record<string, T>>, atOpen: Readonly<Record<string, T>>) {
  const renewed = Object.entries(entries).filter(([thingName, entry]) => entry !== atOpen[thingName]);
  return renewed.length === Object.keys(entries).length ? entries : Object.fromEntries(renewed);
}
