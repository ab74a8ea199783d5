import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { chromium, type Page } from 'playwright-core';
import type { AccountAnswer } from '@fieldlink/api/account';
import { childPath } from '@fieldlink/domain/group-path';
import { createTreeSearch } from '@fieldlink/domain/tree-search';
import {
  buildApp,
  loadConfig,
  migrate,
  openStorage,
  insertDevice,
  insertAttachmentPoint,
  insertUser,
  seedDemo,
  newId,
} from '@fieldlink/server/testing';
import type { Benchmark, BenchOptions, BenchSection } from './benchmark';
import { formatCount, formatMs } from './format';
import { percentile } from './percentile';

/**
 * The account tree at scale (issue: "a tree of 10,000 nodes opens, scrolls and searches smoothly; a
 * search answers in under 50 ms"), measured where it matters: in real Chromium, on the product's own
 * /accounts/treeview page served by the real app, from keystroke to the painted frame.
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
const DEMO_PASSWORD = 'bench-demo-password';
const VIEWER = 'ops@fieldlink.test';
const SITES = 100;
const AREAS_PER_SITE = 4;
const DEVICES_PER_AREA = 23;
const USERS_PER_AREA = 1;
const SEARCH_GOAL_MS = 50;
/** Typed one character at a time, as a person searches: broad first, then narrowing. */
const TYPED = ['controller 4', 'site 7', 'sn-0042', 'area 3', 'tech'];

const sortedOf = (values: readonly number[]) => [...values].sort((a, b) => a - b);

/** Adds sites, areas, devices and users to the demo's Acme Controls account: a tree of 10,000+ items. */
async function growTree(databaseUrl: string): Promise<number> {
  const storage = openStorage(databaseUrl);
  try {
    await migrate(storage.db);
    await seedDemo(storage.db, DEMO_PASSWORD);
    const account = await storage.db
      .selectFrom('accounts')
      .selectAll()
      .where('name', '=', 'Acme Controls')
      .executeTakeFirstOrThrow();
    const root = await storage.db
      .selectFrom('groups')
      .selectAll()
      .where('id', '=', account.root_group_id)
      .executeTakeFirstOrThrow();
    let items = 0;
    const now = Date.now();
    await storage.db.transaction().execute(async (trx) => {
      for (let site = 1; site <= SITES; site++) {
        const siteId = newId();
        const sitePath = childPath(root.path, siteId);
        await trx
          .insertInto('groups')
          .values({
            id: siteId,
            account_id: account.id,
            parent_id: root.id,
            name: `Site ${site}`,
            kind: 'group',
            path: sitePath,
            created_at: now,
          })
          .execute();
        items += 1;
        for (let area = 1; area <= AREAS_PER_SITE; area++) {
          const areaId = newId();
          const areaPath = childPath(sitePath, areaId);
          await trx
            .insertInto('groups')
            .values({
              id: areaId,
              account_id: account.id,
              parent_id: siteId,
              name: `Area ${area}`,
              kind: 'group',
              path: areaPath,
              created_at: now,
            })
            .execute();
          items += 1;
          for (let device = 1; device <= DEVICES_PER_AREA; device++) {
            const serial = (((site - 1) * AREAS_PER_SITE + area - 1) * DEVICES_PER_AREA + device)
              .toString()
              .padStart(5, '0');
            await insertDevice(trx, {
              id: newId(),
              account_id: account.id,
              group_id: areaId,
              thing_name: `BENCH-${serial}`,
              secret_hash: 'bench-device-without-credentials',
              name: `Controller ${site}-${area}-${device}`,
              sn: `SN-${serial}`,
              created_at: now,
            });
            items += 1;
          }
          for (let user = 1; user <= USERS_PER_AREA; user++) {
            const userId = newId();
            await insertUser(trx, {
              id: userId,
              email: `tech-${site}-${area}-${user}@bench.test`,
              password_hash: 'bench-user-without-password',
              first_name: 'Tech',
              last_name: `${site}-${area}`,
            });
            await insertAttachmentPoint(trx, {
              id: newId(),
              user_id: userId,
              account_id: account.id,
              ordinal: 0,
              path: areaPath,
              permissions: '["VIEW_DASH"]',
              secret_permissions: '[]',
              app_type: account.app_type,
            });
            items += 1;
          }
        }
      }
    });
    return items;
  } finally {
    await storage.close();
  }
}

/**
 * In the page: runs `act`, then waits for the frame that shows its result (a requestAnimationFrame
 * callback runs before paint; the task after it runs once the frame is out). Answers milliseconds.
 */
async function timeToFrame(page: Page, act: string, argument: string | number | null): Promise<number> {
  return page.evaluate(
    async ({ act: action, argument: value }) => {
      const started = performance.now();
      const tree = document.querySelector<HTMLElement>('[data-testid="account-tree"]');
      const input = document.querySelector<HTMLInputElement>('input[aria-label="Search the account tree"]')!;
      if (action === 'type') {
        // React listens to the native input event; set the value as the browser would.
        const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
        setter.call(input, value as string);
        input.dispatchEvent(new Event('input', { bubbles: true }));
      } else if (action === 'click') {
        document.querySelector<HTMLButtonElement>(value as string)!.click();
      } else if (action === 'scroll' && tree) {
        tree.scrollTop += value as number;
      }
      await new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
      return performance.now() - started;
    },
    { act, argument },
  );
}

async function ensureWebBuild(log: (line: string) => void): Promise<void> {
  if (fs.existsSync(path.join(ROOT, 'apps/web/dist/index.html'))) return;
  log('  building the web app (apps/web/dist is missing)');
  execFileSync('npm', ['run', 'build', '--workspace', '@fieldlink/web'], { cwd: ROOT, stdio: 'ignore' });
}

async function measure(options: BenchOptions): Promise<BenchSection> {
  await ensureWebBuild(options.log);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fieldlink-bench-tree-'));
  const databaseUrl = path.join(dir, 'fieldlink.db');
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
  const config = loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' });
  let app: Awaited<ReturnType<typeof buildApp>> | null = null;
  try {
    const added = await growTree(databaseUrl);
    app = await buildApp({ config, storage: openStorage(databaseUrl), mqttPort: null });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

    // The server side: GET /account answering the whole tree, and the domain search on its answer.
    const signin = await app.inject({
      method: 'POST',
      url: '/api/v1/signin',
      payload: { email: VIEWER, password: DEMO_PASSWORD },
    });
    const jwt = (signin.json() as { jwt: string }).jwt;
    const accountTimes: number[] = [];
    let answer: AccountAnswer | null = null;
    let answerBytes = 0;
    for (let run = 0; run < 5; run++) {
      const started = performance.now();
      const response = await app.inject({ method: 'GET', url: '/api/v1/account', headers: { authorization: jwt } });
      accountTimes.push(performance.now() - started);
      answer = response.json() as AccountAnswer;
      answerBytes = response.rawPayload.length;
    }
    const index = createTreeSearch(answer!.accounts.map((account) => account.rootGroup));
    const domainTimes: number[] = [];
    for (const text of TYPED) {
      for (let length = 1; length <= text.length; length++) {
        const started = performance.now();
        index.search(text.slice(0, length));
        domainTimes.push(performance.now() - started);
      }
    }
    options.log(
      `  tree of ${formatCount(index.size)} items; GET /account ${formatMs(percentile(sortedOf(accountTimes), 50))}`,
    );

    // The browser side.
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(`${base}/signin`);
    await page.getByLabel(/e-?mail/i).fill(VIEWER);
    await page.getByLabel(/password/i).fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(/\/(dash|accounts)/, { timeout: 60_000 });
    const openTimes: number[] = [];
    for (let run = 0; run < 5; run++) {
      await page.goto(`${base}/accounts/treeview`);
      await page.locator('[role="treeitem"]').first().waitFor({ timeout: 60_000 });
      // Milliseconds since the navigation began: loading, reading the account, the first rows.
      openTimes.push(await page.evaluate(() => performance.now()));
    }

    const expandAll = await timeToFrame(page, 'click', 'button[aria-label="Expand all groups"]');
    const rowCount = await page.evaluate(
      () => document.querySelector<HTMLElement>('[data-testid="account-tree"] > div')!.offsetHeight / 36,
    );
    const domRows = await page.locator('[role="treeitem"]').count();
    const scrollFrames: number[] = [];
    for (let frame = 0; frame < 150; frame++) scrollFrames.push(await timeToFrame(page, 'scroll', 240));

    const searchTimes: number[] = [];
    for (const text of TYPED) {
      for (let length = 1; length <= text.length; length++) {
        searchTimes.push(await timeToFrame(page, 'type', text.slice(0, length)));
      }
      await timeToFrame(page, 'type', '');
    }
    const search = sortedOf(searchTimes);
    const scroll = sortedOf(scrollFrames);
    const open = sortedOf(openTimes);
    const domain = sortedOf(domainTimes);
    const worst = search.at(-1)!;
    const met = worst < SEARCH_GOAL_MS;
    const slowFrames = scrollFrames.filter((ms) => ms > 1000 / 30).length;

    return {
      method: [
        `The demo installation plus ${formatCount(added)} items in one account (Acme Controls): ${SITES} sites of ` +
          `${AREAS_PER_SITE} areas, ${DEVICES_PER_AREA} devices and ${USERS_PER_AREA} user per area — ` +
          `${formatCount(index.size)} tree items as ${VIEWER} sees them. The real app (\`buildApp\`, SQLite file) ` +
          `serves the built console; Debian's Chromium (headless, software rendering) opens ` +
          '`/accounts/treeview` signed in.',
        'Each browser figure is measured inside the page, from the input to the frame that shows its result ' +
          '(a `requestAnimationFrame` callback, then the task after the frame): the search types ' +
          `${TYPED.map((text) => `“${text}”`).join(', ')} one character at a time (${searchTimes.length} keystrokes); ` +
          '"scroll" moves the fully expanded tree 240 px per frame, 150 times. "Open" is the time from navigation ' +
          'to the first row (reading /self and /account included), median of 5 loads.',
      ],
      tables: [
        {
          columns: ['Measure', 'p50', 'p95', 'Max', 'Goal'],
          rows: [
            [
              'Search, keystroke to painted result (browser)',
              formatMs(percentile(search, 50)),
              formatMs(percentile(search, 95)),
              formatMs(worst),
              `< ${SEARCH_GOAL_MS} ms: ${met ? 'met' : 'NOT met'}`,
            ],
            [
              'Search, domain index only (Node.js)',
              formatMs(percentile(domain, 50)),
              formatMs(percentile(domain, 95)),
              formatMs(domain.at(-1)!),
              '',
            ],
            [
              'Scroll, frame time (browser)',
              formatMs(percentile(scroll, 50)),
              formatMs(percentile(scroll, 95)),
              formatMs(scroll.at(-1)!),
              `${slowFrames} of ${scrollFrames.length} frames over 33 ms`,
            ],
            ['Open the tree page (browser)', formatMs(percentile(open, 50)), '', formatMs(open.at(-1)!), ''],
            ['Expand all (browser)', formatMs(expandAll), '', '', ''],
            [
              'GET /account, whole tree (server)',
              formatMs(percentile(sortedOf(accountTimes), 50)),
              '',
              formatMs(Math.max(...accountTimes)),
              `${formatCount(answerBytes / 1024)} KiB answer`,
            ],
          ],
        },
      ],
      findings: [
        `Expanded, the tree has ${formatCount(rowCount)} rows; the page keeps ${domRows} of them in the DOM ` +
          '(fixed-height virtual rows), so typing, scrolling and expanding cost the same at 100 or 10,000 items. ' +
          'The search is one pass over an index built once per answer of GET /account ' +
          '(`packages/domain/src/tree-search.ts`).',
      ],
      failed: !met,
    };
  } finally {
    await browser.close();
    await app?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export const treeSearchBenchmark: Benchmark = {
  name: 'tree-search',
  title: 'Account tree of 10,000 items: open, scroll, search',
  run: measure,
};
