import { TOKEN_STORAGE_KEY } from '@fieldlink/api/session';
import { appTypeNamed, type AppType } from '@fieldlink/domain/app-variant';
import type { SocketLike } from '../realtime/realtime-client';

/**
 * Demo mode (core §1: "Demo (simulation) data is kept locally without server calls"). A prospect
 * picks an app variant on /demo; from then on this tab runs the console over simulated `_DEMO`
 * devices: calls are answered by a backend in the browser (the `demo` feature, a chunk of its own
 * loaded only then) and the real-time socket is a Web Worker running the plant models.
 */

/** Local-storage key of the running demo: the app variant chosen on /demo. */
export const DEMO_STORAGE_KEY = 'fieldlinkDemo';
/** Local-storage key of the size asked for (`/demo?devices=50`), when one was. */
const DEMO_DEVICES_KEY = 'fieldlinkDemoDevices';

/**
 * Stored as the session token while a demo runs, so the start-up routing and the protected routes
 * treat the prospect as signed in. It never leaves the browser: no call reaches the network in a demo.
 */
export const DEMO_TOKEN = 'demo';

/** A call as the API client makes it. */
export interface LocalCall {
  method: string;
  path: string;
  query: Readonly<Record<string, string | number | boolean | undefined>>;
  /** The JSON body as sent, if any. */
  body: string | null;
}

/** What answers calls inside the browser instead of the server. */
export interface LocalBackend {
  /** The answer to the call, or null when the server must answer it. */
  answer(call: LocalCall): Promise<Response> | null;
  /** The real-time channel's stand-in: a socket to the simulation worker. */
  createSocket(): SocketLike;
  /** Stops what it runs (the simulation worker). */
  stop(): void;
}

function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

/** The app variant of the demo running in this browser, or null (a real session's token replaced it). */
export function readDemoApp(): AppType | null {
  const stored = storage();
  if (stored?.getItem(TOKEN_STORAGE_KEY) !== DEMO_TOKEN) return null;
  return appTypeNamed(stored.getItem(DEMO_STORAGE_KEY));
}

/** How many devices the running demo was asked for, if a number was given on /demo. */
export function readDemoDeviceCount(): number | undefined {
  const count = Number(storage()?.getItem(DEMO_DEVICES_KEY));
  return Number.isInteger(count) && count > 0 ? count : undefined;
}

let backend: Promise<LocalBackend> | null = null;

/**
 * Starts answering calls in the browser with the backend `load` resolves to. Calls made while it
 * loads wait for it rather than going to the network.
 */
export function installLocalBackend(load: () => Promise<LocalBackend>): void {
  backend = load();
}

/** The backend in the browser, if one is installed. */
export function localBackend(): Promise<LocalBackend> | null {
  return backend;
}

/** Begins a demo of `appType`: the prospect counts as signed in (the caller installs the backend). */
export function beginDemo(appType: AppType, deviceCount?: number): void {
  storage()?.setItem(DEMO_STORAGE_KEY, appType);
  if (deviceCount === undefined) storage()?.removeItem(DEMO_DEVICES_KEY);
  else storage()?.setItem(DEMO_DEVICES_KEY, String(deviceCount));
  storage()?.setItem(TOKEN_STORAGE_KEY, DEMO_TOKEN);
}

/** Ends the demo: its simulation stops and calls go to the server again. */
export function endDemo(): void {
  storage()?.removeItem(DEMO_STORAGE_KEY);
  storage()?.removeItem(DEMO_DEVICES_KEY);
  void backend?.then((running) => running.stop());
  backend = null;
}
