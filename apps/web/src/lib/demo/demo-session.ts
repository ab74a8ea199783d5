import type { Account } from '@fieldlink/api/account';
import { TOKEN_STORAGE_KEY } from '@fieldlink/api/session';
import { appTypeNamed, type AppType } from '@fieldlink/domain/app-variant';
import { isDemoDeviceId } from '@fieldlink/domain/demo';
import { forEachDevice, type PlacedDevice } from '../account-tree';
import { DEMO_TOKEN } from '../stored-token';
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

/** A call as the API client makes it. */
export interface LocalCall {
  method: string;
  path: string;
  query: Readonly<Record<string, string | number | boolean | undefined>>;
  /** The JSON body as sent, if any. */
  body: string | null;
  /** Sends the call to the server with another query: a backend answering part of a call asks it for the rest. */
  network(query: LocalCall['query']): Promise<Response>;
}

/** What answers calls inside the browser instead of the server. */
export interface LocalBackend {
  /** The answer to the call, or null when the server must answer it. */
  answer(call: LocalCall): Promise<Response> | null;
  /**
   * The real-time channel's socket: to the simulation worker in a demo; to the server and the worker
   * when a signed-in account has `_DEMO` devices.
   */
  createSocket(url: string, protocols: string[]): SocketLike;
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

function stopLocalBackend(): void {
  void backend?.then((running) => running.stop());
  backend = null;
}

/** Ends the demo: its simulation stops and calls go to the server again. */
export function endDemo(): void {
  storage()?.removeItem(DEMO_STORAGE_KEY);
  storage()?.removeItem(DEMO_DEVICES_KEY);
  stopLocalBackend();
}

type DemoDevicesLoader = (devices: PlacedDevice[]) => Promise<LocalBackend>;
let demoDevicesLoader: DemoDevicesLoader | null = null;

/** How a signed-in session simulates its `_DEMO` devices (the demo feature's chunk, loaded when needed). */
export function registerDemoDevicesLoader(loader: DemoDevicesLoader): void {
  demoDevicesLoader = loader;
}

/**
 * A signed-in user whose accounts hold `_DEMO` devices (a demo account's, core §1 and §3) runs them in
 * this browser: their calls and real-time values are answered by the simulation, every other call and
 * value comes from the server. Called each time the account is read; without `_DEMO` devices nothing
 * is loaded.
 */
export function simulateDemoDevices(accounts: readonly Account[]): void {
  // A demo without an account already simulates every device it shows.
  if (readDemoApp()) return;
  stopLocalBackend();
  const devices: PlacedDevice[] = [];
  forEachDevice(
    accounts,
    (device, account, group) => {
      if (isDemoDeviceId(device.id)) devices.push({ device, account, group });
    },
    true,
  );
  const loader = demoDevicesLoader;
  if (devices.length > 0 && loader) installLocalBackend(() => loader(devices));
}
