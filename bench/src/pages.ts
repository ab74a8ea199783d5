import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { TOKEN_STORAGE_KEY } from '@fieldlink/api/session';
import type { Benchmark, BenchOptions, BenchSection, StorageDialect } from './benchmark';
import { signIn, startInstance } from './cluster-support';
import { formatMs } from './format';
import { freshDatabase } from './fresh-database';
import { median } from './percentile';

/**
 * Speed an operator feels (issue 36 item 8): each main page opened as its demo user, cold (a new
 * browser context: empty cache, nothing loaded) and warm (the same context, the page visited again),
 * timed from the start of the navigation until a specific element of the page's content is visible.
 * The real server (`apps/server/src/main.ts`, the production build of the console, the demo fleet).
 */

const WEB_DIST = path.resolve(import.meta.dirname, '../../apps/web/dist');
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];
const VIEWPORT = { width: 1440, height: 900 };
/** Warm visits after the one cold visit, per page and dialect. */
const WARM_RUNS = 5;
const WARM_GOAL_MS = 1000;
const COLD_GOAL_MS = 2000;
const CONTENT_TIMEOUT_MS = 60_000;

interface MainPage {
  name: string;
  email: string;
  /** The page's path, found as the user would: where they land, or a tab the shell offers them. */
  locate(page: Page): Promise<string>;
  /** An element of the page's content (not its frame or a skeleton). */
  content: string;
}

const landing = async (page: Page) => new URL(page.url()).pathname;
/** A sub-tab's address, once the account tree has given it its route (before, tabs lead to /dash). */
const tab = (name: string) => async (page: Page) => {
  const link = page.getByRole('navigation', { name: 'Dashboard views' }).getByRole('link', { name, exact: true });
  await page.waitForFunction(
    (element) => element !== null && element.getAttribute('href') !== '/dash',
    await link.elementHandle({ timeout: CONTENT_TIMEOUT_MS }),
    { timeout: CONTENT_TIMEOUT_MS },
  );
  return (await link.getAttribute('href'))!;
};
const fixed = (pathname: string) => async () => pathname;

const MAIN_PAGES: MainPage[] = [
  { name: 'Device dash', email: 'ops@fieldlink.test', locate: landing, content: '.channel-card .channel-card__value' },
  {
    name: 'Plant dashboard',
    email: 'water@fieldlink.test',
    locate: landing,
    content: '[data-testid="plant-dashboard"] .react-grid-item',
  },
  { name: 'Scene', email: 'moe@fieldlink.test', locate: tab('Scenes'), content: '.react-grid-item' },
  {
    name: 'Tree',
    email: 'admin@fieldlink.test',
    locate: fixed('/accounts/treeview'),
    content: '[data-testid="account-tree"] [role="treeitem"]',
  },
  {
    name: 'Device list',
    email: 'admin@fieldlink.test',
    locate: fixed('/accounts/list'),
    content: '.dt-body [role="row"]',
  },
  { name: 'Alarms', email: 'spray@fieldlink.test', locate: fixed('/alarms'), content: '.alarms-table tbody tr' },
  {
    name: 'Reports',
    email: 'admin@fieldlink.test',
    locate: fixed('/reports'),
    content: '[data-testid="report-row"], .fl-list-note',
  },
  { name: 'Brew summary', email: 'brew@fieldlink.test', locate: landing, content: '.tank-card' },
  { name: 'Spray overview', email: 'spray@fieldlink.test', locate: landing, content: '[data-testid="sprayer-card"]' },
  { name: 'Retail overview', email: 'stock@fieldlink.test', locate: landing, content: '[data-testid="store-list"]' },
];

/** A new context (empty cache) holding the user's session, as a browser they signed in with before. */
async function sessionContext(browser: Browser, jwt: string): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  await context.addInitScript(([key, token]) => localStorage.setItem(key!, token!), [TOKEN_STORAGE_KEY, jwt]);
  return context;
}

/** Milliseconds from the start of the navigation to `url` until `content` is visible. */
async function timeVisit(page: Page, url: string, content: string): Promise<number> {
  const started = performance.now();
  await page.goto(url, { waitUntil: 'commit' });
  await page.locator(content).first().waitFor({ state: 'visible', timeout: CONTENT_TIMEOUT_MS });
  return performance.now() - started;
}

interface PageFigures {
  cold: number;
  warm: number[];
}

/** Every main page on one dialect: one server (the demo data, the simulated fleet), one browser. */
async function runDialect(dialect: StorageDialect, options: BenchOptions): Promise<Map<string, PageFigures>> {
  const database = await freshDatabase(dialect, options.postgresUrl, 'pages');
  const server = await startInstance({ DATABASE_URL: database.url, WEB_DIST, FIELDLINK_SIMULATOR: '1' });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  try {
    const figures = new Map<string, PageFigures>();
    for (const main of MAIN_PAGES) {
      const jwt = await signIn(server, main.email);
      // The page's address, found as the user finds it, in a context of its own (so the measured
      // context starts with an empty cache).
      const finding = await sessionContext(browser, jwt);
      const first = await finding.newPage();
      await first.goto(server.url);
      await first.waitForURL((url) => !/^\/(signin|loading)?$/.test(url.pathname), { timeout: CONTENT_TIMEOUT_MS });
      await first.locator('#main').waitFor();
      const url = `${server.url}${await main.locate(first)}`;
      await finding.close();

      const context = await sessionContext(browser, jwt);
      const page = await context.newPage();
      const cold = await timeVisit(page, url, main.content);
      const warm: number[] = [];
      for (let i = 0; i < WARM_RUNS; i += 1) warm.push(await timeVisit(page, url, main.content));
      await context.close();
      figures.set(main.name, { cold, warm });
      options.log(
        `  ${dialect} ${main.name}: cold ${formatMs(cold)}, warm ${formatMs(median(warm))} (load ${os.loadavg()[0]!.toFixed(2)})`,
      );
    }
    return figures;
  } finally {
    await browser.close();
    await server.kill('SIGINT');
    await database.drop();
  }
}

const DIALECT_NAMES: Record<StorageDialect, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };

async function run(options: BenchOptions): Promise<BenchSection> {
  if (!fs.existsSync(path.join(WEB_DIST, 'index.html'))) throw new Error('Build the console first: npm run build');
  const loadBefore = os.loadavg();
  const rows: string[][] = [];
  let allMet = true;
  for (const dialect of options.dialects) {
    const figures = await runDialect(dialect, options);
    for (const main of MAIN_PAGES) {
      const { cold, warm } = figures.get(main.name)!;
      const coldMet = cold < COLD_GOAL_MS;
      const warmMet = median(warm) < WARM_GOAL_MS;
      allMet &&= coldMet && warmMet;
      rows.push([
        main.name,
        DIALECT_NAMES[dialect],
        main.email,
        formatMs(cold),
        coldMet ? 'met' : `not met (${formatMs(cold)})`,
        `${formatMs(median(warm))}; ${formatMs(Math.max(...warm))}`,
        warmMet ? 'met' : `not met (${formatMs(median(warm))})`,
      ]);
    }
  }
  const loadAfter = os.loadavg();
  const loads = (load: number[]) => load.map((value) => value.toFixed(2)).join(', ');
  return {
    method: [
      'Command: `npm run bench -- --only pages` (it builds the console first). The real server (`node apps/server/src/main.ts`: the production build of the console, the demo data and the simulated fleet), once per dialect on a fresh database; Chromium headless at 1440×900.',
      `Each main page as its demo user (signed in beforehand: the session is in the browser's storage, as after a sign-in). Cold: a new browser context (empty cache, no script loaded yet), the page's address opened once. Warm: in the same context, the same address opened again ${WARM_RUNS} times (scripts cached, the page's data fetched again); median and slowest. Time: from the start of the navigation until a specific element of the page's content is visible (a channel's value, a widget, a tree row, a table row, an alarm, a report row or the empty list's note, a tank, a sprayer, the store list), not just the page's load. One cold visit per page and dialect: a cold figure is a single measurement, not a median.`,
      `Goals (issue 36 item 8): cold under ${formatMs(COLD_GOAL_MS)}, warm under ${formatMs(WARM_GOAL_MS)}.`,
    ],
    tables: [
      {
        columns: ['page', 'storage', 'user', 'cold', 'cold goal', 'warm (median; slowest)', 'warm goal'],
        rows,
      },
    ],
    findings: [
      `Load average (1, 5, 15 minutes) on ${os.availableParallelism()} cores: ${loads(loadBefore)} at the start, ${loads(loadAfter)} at the end (the server, its simulated fleet and Chromium run on the same cores; a load above the core count means they queue for the CPU).`,
      allMet
        ? 'Every page meets both goals on every dialect: warm under 1 s, cold under 2 s.'
        : 'Not every page meets its goals: the rows marked "not met" give the figure.',
    ],
  };
}

export const pagesBenchmark: Benchmark = {
  name: 'pages',
  title: 'Speed an operator feels: each main page cold and warm',
  // Counted in page visits, not windows: per dialect a server start and 10 pages x 7 visits (finding
  // the address, one cold, five warm), each bounded by a minute; ten minutes a dialect is ample.
  budgetSeconds: (options) => options.dialects.length * 600,
  run,
};
