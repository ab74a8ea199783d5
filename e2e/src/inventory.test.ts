import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page, WebSocketRoute } from 'playwright-core';
import { launchBrowser, signInAs, startServer, type RunningServer } from './harness';

/**
 * Retail stock in Chromium against the real product and its simulated shops, as stock@: the region
 * overview, a store's status, the chart's selections, the picklist's CSV, the reload after a
 * reconnect, and /bp-no-data when the inventory cannot be loaded.
 */
describe('retail stock screens', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  const sockets: WebSocketRoute[] = [];

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, acceptDownloads: true });
    page = await context.newPage();
    // The real-time socket passes through, so the test can drop it like a lost network would.
    await page.routeWebSocket(/\/api\/v1\/realtime/, (socket) => {
      sockets.push(socket);
      socket.connectToServer();
    });
    await signInAs(page, server.baseUrl, 'stock@fieldlink.test');
    await page.waitForURL((url) => !/\/(signin|loading)$/.test(url.pathname), { timeout: 30_000 });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('opens the overview with its figures, 14 days of metrics, the inefficiency chart and the stores by region', async () => {
    await page.goto(`${server.baseUrl}/inv/cig`);
    await page.waitForURL(/\/inv\/cig\/overview\//);
    await page.getByRole('heading', { name: 'Corner Retail' }).waitFor();
    const stores = page.getByTestId('store-list');
    for (const name of ['Main Street Store', 'Airport Store', 'Riverside Store']) {
      await stores.getByRole('link', { name }).waitFor();
    }
    await stores.getByRole('rowheader', { name: 'North Texas' }).waitFor();
    expect(await page.getByTestId('lost-sales-chart').locator('rect').count()).toBeGreaterThan(0);
    expect(await page.getByTestId('lost-sales-chart').locator('.inv-daily__label').count()).toBe(14);
    // stock@ holds REPORTING_PLUS (Financial Loss): the inefficiency chart and figure are shown.
    await page.getByTestId('inefficiency-chart').waitFor();
    await expect.poll(() => page.getByTestId('store-inefficiency').innerText()).toMatch(/\d+\.\d%/);
    await expect.poll(() => page.getByTestId('star-rating').innerText()).toMatch(/\d\.\d/);
    await expect.poll(() => page.getByTestId('total-lost-sales').innerText()).toMatch(/Customers?/);

    // On a phone each store is a block of labelled lines that fits the card: nothing scrolls sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    const frame = stores.locator('xpath=..');
    await expect
      .poll(() => frame.evaluate((element) => element.scrollWidth - element.clientWidth))
      .toBeLessThanOrEqual(0);
    expect(await stores.locator('thead').isVisible()).toBe(false);
    await page.setViewportSize({ width: 1440, height: 900 });

    await page.getByLabel('Region').selectOption({ label: 'North Texas' });
    await page.getByRole('heading', { name: 'North Texas' }).waitFor();
    await expect.poll(() => page.getByTestId('store-list').getByRole('link').count()).toBe(2);
  });

  it('opens a store’s status with every product of its two shelves', async () => {
    await page.getByTestId('store-list').getByRole('link', { name: 'Main Street Store' }).click();
    await page.getByRole('heading', { name: 'Main Street Store' }).waitFor();
    const rows = page.getByTestId('product-table').locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(12);
    const text = await page.getByTestId('product-table').innerText();
    expect(text).toMatch(/Good|Low|Empty/);
    expect(text).toMatch(/\d+d \d+h \d+m|\d+h \d+m|\d+m|>1 Month/);
    expect(text).toContain('Shelf A1');
  });

  it('charts 90 days of stock for each selection', async () => {
    await page.getByRole('link', { name: 'Chart' }).click();
    const chart = page.getByTestId('store-chart');
    await chart.locator('canvas').first().waitFor();
    const legend = chart.getByTestId('chart-legend').locator('li');
    await expect.poll(() => legend.count()).toBe(10);
    await chart.getByRole('button', { name: 'Highest 5 sales / h' }).click();
    await expect.poll(() => legend.count()).toBe(5);
    await expect.poll(() => chart.getByTestId('chart-maximum').innerText()).toMatch(/Scale to (22|33|44|55) units/);
    await chart.getByRole('button', { name: 'Custom' }).click();
    await chart.getByTestId('chart-empty').getByText('Choose products to chart.').waitFor();
    await chart.getByRole('checkbox').first().check();
    await expect.poll(() => legend.count()).toBe(1);
    for (const option of ['Empty', 'Low']) {
      await chart.getByRole('button', { name: option, exact: true }).click();
      // Either the products in that state or a plain statement that there are none.
      await expect
        .poll(async () => (await legend.count()) > 0 || (await chart.getByTestId('chart-empty').count()) > 0)
        .toBe(true);
    }
  });

  it('lists what to pick, and exports it as CSV', async () => {
    await page.getByRole('link', { name: 'Picklist' }).click();
    const picklist = page.getByTestId('picklist');
    await picklist.getByRole('heading', { name: /Picklist/ }).waitFor();
    const rows = await picklist.locator('tbody tr').count();
    if (rows === 0) {
      await picklist.getByText('Nothing to pick').waitFor();
      return;
    }
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      picklist.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^picklist-main-street-store-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = readFileSync((await download.path())!, 'utf8').replace(/^\uFEFF/, '');
    const lines = csv.trimEnd().split('\r\n');
    expect(lines[0]).toBe('Product,SKU,Shelf,Slots,Count,Range state,Time until out of stock,Units to pick');
    expect(lines).toHaveLength(rows + 1);
  });

  it('reads the inventory again behind the loading screen after the connection drops', async () => {
    await page.getByRole('link', { name: 'Status' }).click();
    await page.getByTestId('product-table').waitFor();
    const reloads: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/v1/inv/store-status')) reloads.push(request.url());
    });
    const opened = sockets.length;
    await sockets.at(-1)!.close();
    await expect.poll(() => sockets.length, { timeout: 30_000 }).toBeGreaterThan(opened);
    await expect.poll(() => reloads.length, { timeout: 30_000 }).toBeGreaterThan(0);
    await page.getByTestId('product-table').waitFor();
  });

  it('goes to /bp-no-data when the inventory cannot be loaded, and tries again from there', async () => {
    const overview = /\/api\/v1\/inv\/overview/;
    await page.route(overview, (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"Server error"}' }),
    );
    await page.goto(`${server.baseUrl}/inv/cig`);
    await page.waitForURL(/\/bp-no-data$/, { timeout: 30_000 });
    await page.getByRole('heading', { name: 'No inventory data' }).waitFor();
    await page.unroute(overview);
    await page.getByRole('link', { name: 'Try again' }).click();
    await page.getByTestId('store-list').waitFor();
  });
});
