import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, expect, inject } from 'vitest';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Page,
  type Request,
} from 'playwright-core';
import { TOKEN_STORAGE_KEY } from '@fieldlink/api/session';
import { serverStartTimeoutMs, type DeviceClockAnswer, type DeviceClockRequest } from '@fieldlink/server/testing';
import { freePort } from '@fieldlink/server/testing/ports';
import { SERVER_NODE_OPTIONS } from '@fieldlink/server/testing/node-options';
import { CHROMIUM_PATH } from './chromium';

const ROOT = path.resolve(import.meta.dirname, '../..');
export const DEMO_PASSWORD = 'fieldlink-demo';

export interface RunningServer {
  baseUrl: string;
  mqttPort: number;
  output: () => string;
  /**
   * The time of a simulated device's clock (its plant's time), moved forward to `advanceToMs` first
   * when given: a scheduled minute reached at once instead of waited for (apps/server/src/simulator-clock.ts).
   */
  deviceClock(thingName: string, advanceToMs?: number): Promise<number>;
  /**
   * A register of a simulated device as it holds it, after its clock moved forward to `advanceToMs`
   * when given (null when it has no such register): what the device's own clock did to it, seen at once.
   */
  deviceRegister(
    thingName: string,
    register: number,
    advanceToMs?: number,
  ): Promise<{ timeMs: number; value: number | null }>;
  /** Stops the server as Ctrl-C does; answers its exit code. */
  stop(): Promise<number | null>;
}

/**
 * Days of demo history an e2e server seeds unless a file asks for more: one day of 5-minute samples
 * fills every chart of a day, and the retail shelves seed their 14 days regardless. Seeding the 30
 * days of `npm start` was half of each server's start (about 8 s of 16 on a quiet machine, 18 servers
 * a run). The files that test what the history leaves (brew: the batches of the plant the fleet
 * carries on from) ask for 30, and so does making the docs' screenshots (UPDATE_SCREENSHOTS).
 */
export const E2E_HISTORY_DAYS = process.env.UPDATE_SCREENSHOTS ? '30' : '1';

/**
 * Starts the product as `npm start` runs it (built SPA, embedded broker, demo data and fleet; its
 * sources bundled into one module by the project's global set-up, `apps/server/testing/server-bundle.ts`)
 * on free ports and a fresh SQLite file, and waits until it answers. The demo history is
 * {@link E2E_HISTORY_DAYS} long unless `env` says otherwise.
 */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const [port, mqttPort] = [await freePort(), await freePort()];
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'fieldlink-e2e-'));
  let output = '';
  // The server's sources, bundled once by the project's global set-up (server-bundle.ts).
  const child: ChildProcess = spawn(
    process.execPath,
    [...SERVER_NODE_OPTIONS, '--enable-source-maps', inject('serverBundle')],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: String(port),
        MQTT_PORT: String(mqttPort),
        HOST: '127.0.0.1',
        DATABASE_URL: path.join(dataDir, 'fieldlink.db'),
        FIELDLINK_SIMULATOR_INTERVAL: '1',
        FIELDLINK_DEMO_HISTORY_DAYS: E2E_HISTORY_DAYS,
        LOG_LEVEL: 'warn',
        ...env,
      },
      // The IPC channel carries the device-clock requests (`deviceClock`).
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    },
  );
  const clockAnswers = new Map<number, (answer: DeviceClockAnswer) => void>();
  child.on('message', (message: DeviceClockAnswer) => {
    if (message.type === 'fieldlink/device-clock') clockAnswers.get(message.id)?.(message);
  });
  let clockRequests = 0;
  const askDevice = async (request: Omit<DeviceClockRequest, 'type' | 'id'>) => {
    const id = (clockRequests += 1);
    const answered = new Promise<DeviceClockAnswer>((resolve) => clockAnswers.set(id, resolve));
    child.send({ type: 'fieldlink/device-clock', id, ...request } satisfies DeviceClockRequest);
    const answer = await answered;
    clockAnswers.delete(id);
    if ('error' in answer) throw new Error(answer.error);
    return answer;
  };
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + serverStartTimeoutMs();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Server exited with ${child.exitCode}:\n${output}`);
    try {
      if ((await fetch(`${baseUrl}/api/v1/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      // Stopped, not left running: a server that missed its start ran on beside the later files (one
      // was found 31 minutes on, after a start at load 32).
      child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
      throw new Error(`Server did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    baseUrl,
    mqttPort,
    output: () => output,
    deviceClock: async (thingName, advanceToMs) => (await askDevice({ thingName, advanceToMs })).timeMs,
    deviceRegister: async (thingName, register, advanceToMs) => {
      const answer = await askDevice({ thingName, register, advanceToMs });
      return { timeMs: answer.timeMs, value: answer.registerValue ?? null };
    },
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGINT');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
      return child.exitCode;
    },
  };
}

/**
 * Debian's Chromium, headless, with the flags this machine needs; never a downloaded browser. Its
 * contexts block service workers unless the test asks for them (`serviceWorkers: 'allow'`, as
 * web-push.test.ts does, which tests the worker: its push, its notifications and its offline shell).
 * Elsewhere the worker's install downloaded and stored the whole console (135 files) in each new
 * context, beside the page the test was about (docs/decisions.md, "Issue 37 item 7 (round 17)").
 */
export async function launchBrowser(): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
  // `browser.newPage()` opens its context through `newContext` too.
  const newContext = browser.newContext.bind(browser);
  browser.newContext = (options) => newContext({ serviceWorkers: 'block', ...options });
  return browser;
}

/**
 * Closes, after each test of the enclosing `describe`, the browser contexts that test opened (its
 * `beforeEach` hooks included); those opened before it (in a `beforeAll`, a session some files keep
 * across tests on purpose) stay open. A page left open keeps its socket, its polling and its drawing
 * running through the tests after it, on the cores they share: closing them cut devices.test.ts from
 * 231 to 147 CPU seconds at load 20-24 (docs/decisions.md, "Issue 37 item 7 (round 13)").
 */
export function closeTestContexts(browser: () => Browser | undefined): void {
  let before = new Set<BrowserContext>();
  beforeEach(() => {
    before = new Set(browser()?.contexts());
  });
  // Registered before the file's own `afterEach` hooks, so it runs after them (vitest runs them last first).
  afterEach(async () => {
    const opened = (browser()?.contexts() ?? []).filter((context) => !before.has(context));
    await Promise.all(opened.map((context) => context.close()));
  });
}

/**
 * The product and a browser for the tests of one `describe`: started before them (the product with
 * `env`), stopped after them. Read `server` and `browser` inside the tests and hooks. The contexts a
 * test opens are closed after it ({@link closeTestContexts}).
 */
export function useProduct(env: Record<string, string> = {}): {
  readonly server: RunningServer;
  readonly browser: Browser;
} {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    server = await startServer(env);
    browser = await launchBrowser();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  closeTestContexts(() => browser);
  return {
    get server() {
      if (!server) throw new Error('The product is not started yet: read it inside a test or hook.');
      return server;
    },
    get browser() {
      if (!browser) throw new Error('The browser is not launched yet: read it inside a test or hook.');
      return browser;
    },
  };
}

export interface SignedInOptions {
  /** 1440 x 900 unless given. */
  viewport?: { width: number; height: number };
  /** Where the user lands; by default any page but sign-in and loading. */
  landing?: RegExp;
  /** Runs on the new context before its page opens (init scripts, listeners). */
  prepare?: (context: BrowserContext) => Promise<unknown>;
}

/**
 * A page in a context of its own (closed with the browser), signed in as `email` through the sign-in
 * page, once it has landed.
 */
export async function signedInPage(
  browser: Browser,
  baseUrl: string,
  email: string,
  { viewport = { width: 1440, height: 900 }, landing, prepare }: SignedInOptions = {},
): Promise<Page> {
  const context = await browser.newContext({ viewport });
  await prepare?.(context);
  const page = await context.newPage();
  await signInAs(page, baseUrl, email);
  await page.waitForURL(landing ?? ((url) => !/^\/(signin|loading)/.test(url.pathname)), { timeout: 30_000 });
  return page;
}

export interface SessionOptions {
  /** 1440 x 900 unless given. */
  viewport?: { width: number; height: number };
  /** The context's other options (time zone, locale, touch). */
  context?: BrowserContextOptions;
  /** Other entries the browser's local storage holds from earlier visits (the console's remembered settings). */
  storage?: Record<string, string>;
  /** Runs on the new context before its page opens (listeners, init scripts); {@link sessionPage} only. */
  prepare?: (context: BrowserContext) => Promise<unknown>;
}

/**
 * A context of its own whose browser already holds `email`'s session, as one that signed in earlier:
 * the token of an API sign-in (`POST /signin`, the call the sign-in page makes) in its local storage,
 * through Playwright's `storageState`. For tests of what a signed-in user sees, not of signing in: it
 * spares each context the sign-in page's load and form (docs/PERFORMANCE.md, "Test suite, round 8").
 * The tests of the sign-in itself use {@link signInAs}.
 */
export async function sessionContext(
  browser: Browser,
  baseUrl: string,
  email: string,
  { viewport = { width: 1440, height: 900 }, context, storage = {} }: SessionOptions = {},
): Promise<BrowserContext> {
  const token = await apiToken(baseUrl, email);
  const entries = { ...storage, [TOKEN_STORAGE_KEY]: token };
  return browser.newContext({
    viewport,
    ...context,
    storageState: {
      cookies: [],
      origins: [{ origin: baseUrl, localStorage: Object.entries(entries).map(([name, value]) => ({ name, value })) }],
    },
  });
}

/**
 * A page of a new {@link sessionContext} (closed with the browser), opened at `path`: `/loading` is where
 * the sign-in page goes once signed in, and leads to the user's landing page.
 */
export async function sessionPage(
  browser: Browser,
  baseUrl: string,
  email: string,
  path: string,
  options: SessionOptions = {},
): Promise<Page> {
  const context = await sessionContext(browser, baseUrl, email, options);
  await options.prepare?.(context);
  const page = await context.newPage();
  await page.goto(`${baseUrl}${path}`);
  return page;
}

/**
 * A page of a new {@link sessionContext} opened at /loading, where the sign-in page leads, once the
 * console has moved on to `landing` (by default any page past /loading): the user's landing page.
 */
export async function sessionLanding(
  browser: Browser,
  baseUrl: string,
  email: string,
  { landing, ...options }: SessionOptions & { landing?: RegExp } = {},
): Promise<Page> {
  const page = await sessionPage(browser, baseUrl, email, '/loading', options);
  await page.waitForURL(landing ?? ((url) => !/^\/(loading)?$/.test(url.pathname)), { timeout: 30_000 });
  return page;
}

/** The console's API calls in flight (sent, neither answered nor failed), by browser context. */
const apiCallsInFlight = new WeakMap<BrowserContext, Set<Request>>();

/**
 * Counts the API calls of `context` in flight, for {@link apiCallsAnswered}. Call it before the context's
 * first page opens (in `prepare`, or right after `newContext`).
 */
export function trackApiCalls(context: BrowserContext): void {
  if (apiCallsInFlight.has(context)) return;
  const pending = new Set<Request>();
  apiCallsInFlight.set(context, pending);
  context.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/')) pending.add(request);
  });
  context.on('requestfinished', (request) => pending.delete(request));
  context.on('requestfailed', (request) => pending.delete(request));
}

/**
 * Waits until no API call of the page's context is in flight ({@link trackApiCalls}): every call the
 * page has made has its answer. The condition the e2e files meant by Playwright's `networkidle`, which
 * is something else: 500 ms without any request, so after a first page it also waited for the service
 * worker to download the whole console (10 s at load 12: 135 files), and it fires once per document,
 * so after a page changed inside the console it was already true and waited for nothing.
 */
export async function apiCallsAnswered(page: Page, timeout = 30_000): Promise<void> {
  const pending = apiCallsInFlight.get(page.context());
  if (!pending) throw new Error('trackApiCalls(context) was not called for this page');
  await expect
    .poll(() => [...pending].map((request) => `${request.method()} ${request.url()}`), {
      message: 'API calls in flight',
      timeout,
    })
    .toEqual([]);
}

/** Opens a device's dash and waits for its General information panel. */
export async function openDash(page: Page, baseUrl: string, thingName: string): Promise<void> {
  await page.goto(`${baseUrl}/dash/${thingName}`);
  await page.getByRole('heading', { name: 'General information' }).waitFor({ timeout: 30_000 });
}

/** Signs in through the sign-in page as a person would. */
export async function signInAs(page: Page, baseUrl: string, email: string, password = DEMO_PASSWORD): Promise<void> {
  await page.goto(`${baseUrl}/signin`);
  await page.getByLabel(/e-?mail/i).fill(email);
  await page.getByLabel(/password/i).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** An answer of the API: its status and its JSON body. */
export interface ApiAnswer<T> {
  status: number;
  json: T;
}

/** Calls `/api/v1{path}` with a JSON body and a session token, as the console does. */
export async function callApi<T = Record<string, unknown>>(
  baseUrl: string,
  method: string,
  path: string,
  token: string | null,
  body?: unknown,
): Promise<ApiAnswer<T>> {
  const response = await fetch(`${baseUrl}/api/v1${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: token } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as T };
}

/** A session token for a user, from `POST /signin`. */
export async function apiToken(baseUrl: string, email: string, password = DEMO_PASSWORD): Promise<string> {
  return (await callApi<{ jwt: string }>(baseUrl, 'POST', '/signin', null, { email, password })).json.jwt;
}

/** The id of a group directly under an account's root, as `GET /account` answers it to `email`. */
export async function topGroupId(
  baseUrl: string,
  email: string,
  accountName: string,
  groupName: string,
): Promise<string> {
  const token = await apiToken(baseUrl, email);
  const { accounts } = (
    await callApi<{ accounts: { name: string; rootGroup: { groups: { id: string; name: string }[] } }[] }>(
      baseUrl,
      'GET',
      '/account',
      token,
    )
  ).json;
  const account = accounts.find((entry) => entry.name === accountName);
  const group = account?.rootGroup.groups.find((entry) => entry.name === groupName);
  if (!group) throw new Error(`No group ${groupName} under ${accountName} for ${email}`);
  return group.id;
}

/**
 * Holds every browser call matching `url` until the answer is called, then lets them through (and the
 * ones after it at once): a test sees a pending state (Applying, a spinner) for as long as it needs,
 * then releases the call, instead of slowing the call by a fixed time and hoping it looks in time.
 */
export async function holdRequests(page: Page, url: string): Promise<() => void> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(url, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

/**
 * Waits until the page is still: no transition or finite animation running (a dialog fading in, a
 * tank's fill moving to its level). Endless ones (spinners) do not count. For screenshots and
 * layout checks, instead of a fixed pause.
 */
export async function animationsDone(page: Page, timeout = 20_000): Promise<void> {
  await page.waitForFunction(
    () =>
      document
        .getAnimations()
        .every(
          (animation) => animation.playState !== 'running' || animation.effect?.getTiming().iterations === Infinity,
        ),
    undefined,
    { timeout },
  );
}

/**
 * True once the content area has drawn its page: the lazy chunk is in, no skeleton or loading status
 * is left, and the page says something. Poll it (`expect.poll`) instead of pausing for a page to load.
 */
export function contentDrawn(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const main = document.querySelector('#main');
    if (!main || (main.textContent ?? '').trim() === '') return false;
    return main.querySelector('.page-fallback, .fl-skeleton, [role="status"][aria-label^="Loading"]') === null;
  });
}
