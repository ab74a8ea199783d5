import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { TOKEN_STORAGE_KEY } from '@fieldlink/api/session';
import { READ_ONLY_SCENE_MESSAGE } from '@fieldlink/domain/widgets';
import { launchBrowser, signInAs, startServer, type RunningServer } from './harness';

/**
 * Demo mode (core §1, §2 /demo): a prospect opens the console without an account; every screen runs
 * over simulated `_DEMO` devices in the browser and nothing but the console's own files is fetched.
 */
describe('demo mode', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    // The server only serves the console's files here: no fleet, no history.
    server = await startServer({ FIELDLINK_SIMULATOR: '0', FIELDLINK_DEMO_HISTORY_DAYS: '0' });
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  interface Fetched {
    path: string;
    type: string;
  }

  /** A fresh browser on /demo, recording every request and socket made once the page has loaded. */
  async function openDemoPage(): Promise<{ context: BrowserContext; page: Page; requests: Fetched[] }> {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${server.baseUrl}/demo`);
    await page.getByRole('heading', { name: 'Try the console with simulated devices' }).waitFor();
    const requests: Fetched[] = [];
    page.on('request', (request) =>
      requests.push({ path: new URL(request.url()).pathname, type: request.resourceType() }),
    );
    page.on('websocket', (socket) => requests.push({ path: socket.url(), type: 'websocket' }));
    return { context, page, requests };
  }

  async function open(page: Page, variant: string): Promise<void> {
    await page.locator('.demo-chooser__card', { has: page.getByText(variant, { exact: true }) }).click();
    await page.waitForURL((url) => !['/demo', '/loading'].includes(url.pathname), { timeout: 30_000 });
    await page.getByRole('region', { name: 'Demo' }).waitFor();
  }

  /** Live readings change within three of the demo's 10 s log intervals (waited for, not slept). */
  const LIVE_WITHIN_MS = 30_000;
  /** Every value on the page's channel cards (the values alone, not how long ago they came). */
  const channelValues = (page: Page) => page.locator('.channel-card .channel-card__value').allInnerTexts();
  /** The time of every reading on the page's channel cards. */
  const readingTimes = (page: Page) =>
    page.locator('.channel-card time').evaluateAll((times) => times.map((time) => time.getAttribute('datetime')));

  /**
   * Only the console's own files were fetched (its page on a reload, scripts, styles, the worker):
   * no API call, no socket.
   */
  function expectStaticOnly(requests: readonly Fetched[]): void {
    expect(requests.some((request) => request.path.startsWith('/assets/'))).toBe(true);
    const isStatic = ({ path, type }: Fetched) =>
      type === 'document' || path.startsWith('/assets/') || path === '/favicon.svg' || path === '/sw.js';
    expect(requests.filter((request) => !isStatic(request) || request.path.startsWith('/api/'))).toEqual([]);
  }

  it('offers the brewery, both water plants, spray, retail stores and the default app', async () => {
    const { context, page } = await openDemoPage();
    const titles = await page.locator('.demo-chooser__title').allInnerTexts();
    expect(titles).toEqual([
      'Brewery',
      'Water plant (Filtec)',
      'Water plant (Filtec MOE)',
      'Spray operation',
      'Retail stores',
      'Controllers (default app)',
    ]);
    await context.close();
  });

  it('opens the default app on a simulated device whose values move, with no call to the server', async () => {
    const { context, page, requests } = await openDemoPage();
    await open(page, 'Controllers (default app)');
    expect(new URL(page.url()).pathname).toBe('/dash/CTL01_DEMO');
    await expect.poll(() => page.locator('.channel-card').count(), { timeout: 30_000 }).toBeGreaterThan(5);
    const before = await channelValues(page);
    await expect.poll(() => channelValues(page), { timeout: LIVE_WITHIN_MS }).not.toEqual(before);
    // The log chart draws the generated history at once.
    await expect.poll(() => page.locator('.log-chart canvas').count(), { timeout: 20_000 }).toBeGreaterThan(0);
    await page.getByRole('link', { name: 'Accounts' }).click();
    await expect.poll(() => page.getByText('Plant room').count(), { timeout: 20_000 }).toBeGreaterThan(0);
    // The account's dashboard: live widgets over the same devices, read-only as a demo account's are.
    await page.getByRole('link', { name: 'Dashboard' }).click();
    await page.getByRole('link', { name: 'Scenes' }).click();
    await expect.poll(() => page.getByText('Main readings').count(), { timeout: 20_000 }).toBe(1);
    expect(await page.getByText('Layout locked').count()).toBe(1);
    expectStaticOnly(requests);
    await context.close();
  });

  it('runs the brewery: live tanks, and a batch started in the demo survives a reload', async () => {
    const { context, page, requests } = await openDemoPage();
    await open(page, 'Brewery');
    expect(new URL(page.url()).pathname).toMatch(/^\/brew\/summary\//);
    await expect.poll(() => page.locator('.tank-card').count(), { timeout: 30_000 }).toBe(3);
    expect(await page.getByTestId('brew-count').textContent()).toBe('3 tanks · 2 with a batch');
    await expect
      .poll(() => page.locator('.tank-card', { hasText: 'Northgate Pils' }).getByTestId('tank-gravity').textContent(), {
        timeout: 30_000,
      })
      .toMatch(/^1\.0\d{3}$/);

    await page.locator('.tank-card', { hasText: 'Bright tank BT1' }).click();
    await page.getByRole('button', { name: 'Start batch' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Beer').fill('Demo Saison');
    await dialog.getByLabel('Style').fill('Saison');
    await dialog.getByLabel('Original gravity').fill('1.052');
    await dialog.getByRole('button', { name: 'Start batch' }).click();
    await expect
      .poll(() => page.locator('.tank-view__title').textContent(), { timeout: 20_000 })
      .toContain('Demo Saison');
    await page.getByLabel('Gravity reading', { exact: true }).fill('1.031');
    await page.getByRole('button', { name: 'Add reading' }).click();
    await expect
      .poll(() => page.getByTestId('gravity-readings').textContent(), { timeout: 20_000 })
      .toContain('1.0310');

    await page.reload();
    await expect
      .poll(() => page.locator('.tank-view__title').textContent(), { timeout: 30_000 })
      .toContain('Demo Saison');
    await expect
      .poll(() => page.getByTestId('gravity-readings').textContent(), { timeout: 20_000 })
      .toContain('1.0310');

    // A fermenter's own dashboard moves too.
    await page.goto(`${server.baseUrl}/dash/FV02_DEMO`);
    await expect.poll(() => page.locator('.channel-card').count(), { timeout: 30_000 }).toBeGreaterThan(5);
    const before = await channelValues(page);
    await expect.poll(() => channelValues(page), { timeout: LIVE_WITHIN_MS }).not.toEqual(before);
    expectStaticOnly(requests);
    await context.close();
  });

  it.each([
    // Variant, where it lands, what the landing page shows, a device whose readings are watched, and how.
    // An idle sprayer's values may not move for a while: the time of its readings does, every log interval.
    ['Spray operation', /^\/spray\//, 'Sprayer Row 1', '/dash/SPR01_DEMO', readingTimes],
    ['Water plant (Filtec)', /^\/dash\/WTP01_DEMO$/, 'Riverside plant', '/dash/WTP01_DEMO?view=device', channelValues],
    [
      'Water plant (Filtec MOE)',
      /^\/dash\/MOE01_DEMO$/,
      'Moe treatment plant',
      '/dash/MOE01_DEMO?view=device',
      channelValues,
    ],
    // Shelves count stock: their counts move only when a customer takes a product, so what moves within
    // a log interval (10 s) is the time of the readings.
    ['Retail stores', /^\/inv\/cig/, 'Dallas Uptown', '/dash/SHF01_DEMO', readingTimes],
  ])(
    'opens the %s demo on its own screens, with live readings and no call to the server',
    async (variant, landing, shown, watched, readings) => {
      const { context, page, requests } = await openDemoPage();
      await open(page, variant);
      expect(new URL(page.url()).pathname).toMatch(landing);
      await expect.poll(() => page.getByText(shown).count(), { timeout: 30_000 }).toBeGreaterThan(0);
      await page.goto(`${server.baseUrl}${watched}`);
      await expect.poll(() => page.locator('.channel-card').count(), { timeout: 30_000 }).toBeGreaterThan(5);
      const before = await readings(page);
      await expect.poll(() => readings(page), { timeout: LIVE_WITHIN_MS }).not.toEqual(before);
      expectStaticOnly(requests);
      await context.close();
    },
  );

  it('signs in the demo account’s user: its _DEMO devices run in the browser, and its scenes refuse changes', async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    const calls: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/api/')) calls.push(`${request.method()} ${url.pathname}${url.search}`);
    });
    await signInAs(page, server.baseUrl, 'prospect@fieldlink.test');
    await page.waitForURL((url) => !['/signin', '/loading'].includes(url.pathname), { timeout: 30_000 });
    expect(await page.getByRole('region', { name: 'Demo' }).count()).toBe(0);

    await page.goto(`${server.baseUrl}/dash/CTL01_DEMO`);
    await expect.poll(() => page.locator('.channel-card').count(), { timeout: 30_000 }).toBeGreaterThan(5);
    await expect.poll(() => page.locator('.log-chart canvas').count(), { timeout: 20_000 }).toBeGreaterThan(0);
    const before = await channelValues(page);
    await expect.poll(() => channelValues(page), { timeout: LIVE_WITHIN_MS }).not.toEqual(before);
    // The account and its scenes come from the server; nothing of a simulated device's data does.
    expect(calls.some((call) => call.startsWith('GET /api/v1/account'))).toBe(true);
    const deviceCalls = calls.filter((call) =>
      /^GET \/api\/v1\/(device-logs|device\?|device\/|inv\/store-device-logs)/.test(call),
    );
    expect(deviceCalls.filter((call) => call.includes('_DEMO'))).toEqual([]);
    expect(calls.filter((call) => call.includes('/device-logs'))).toEqual([]);

    // The account's dashboard: the demo account's kind keeps it as it is, for a user with scene rights too.
    await page.getByRole('link', { name: 'Scenes' }).click();
    await expect
      .poll(() => page.getByTestId('scene-read-only').textContent(), { timeout: 30_000 })
      .toContain('demo account');
    await expect.poll(() => page.locator('.react-grid-item').count(), { timeout: 30_000 }).toBeGreaterThan(3);
    const refused = await page.evaluate(async (tokenKey) => {
      const headers = { authorization: localStorage.getItem(tokenKey) ?? '', 'content-type': 'application/json' };
      const { accounts } = (await (await fetch('/api/v1/account', { headers })).json()) as {
        accounts: { id: string; rootGroup: { id: string } }[];
      };
      const root = accounts[0]!.rootGroup;
      const query = `accountId=${accounts[0]!.id}&groupId=${root.id}`;
      const [scene] = (await (await fetch(`/api/v1/scenes?${query}`, { headers })).json()) as {
        accountId: string;
        path: string;
      }[];
      const response = await fetch('/api/v1/scene', {
        method: 'PUT',
        headers,
        body: JSON.stringify({ accountId: scene!.accountId, path: scene!.path, props: { name: 'Mine' } }),
      });
      return [response.status, ((await response.json()) as { message: string }).message];
    }, TOKEN_STORAGE_KEY);
    expect(refused).toEqual([403, READ_ONLY_SCENE_MESSAGE]);
    await context.close();
  });

  it('loads no demo code for a signed-in customer without _DEMO devices', async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await signInAs(page, server.baseUrl, 'viewer@fieldlink.test');
    await page.waitForURL((url) => !['/signin', '/loading'].includes(url.pathname), { timeout: 30_000 });
    // A dashboard, a device and the account tree: none of them fetches the demo's chunks.
    await page.goto(`${server.baseUrl}/dash/ACME-BLR01`);
    await page.getByText('Boiler 1').first().waitFor({ timeout: 30_000 });
    await page.getByRole('link', { name: 'Accounts' }).click();
    await page.getByText('Boiler Room').first().waitFor({ timeout: 30_000 });
    expect(scripts.length).toBeGreaterThan(3);
    expect(scripts.filter((script) => /\/demo-(mode|worker)-/.test(script))).toEqual([]);
    await context.close();
  });
});
