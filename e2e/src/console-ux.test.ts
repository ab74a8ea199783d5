import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, signInAs, startServer, type RunningServer } from './harness';

/**
 * The console as its users find it (issue 14): the device dash leads with live channels, every value
 * carries its unit and full name, each unit gets its own y axis, dates are day first in one stated
 * time zone, and signing in again lands on the device last opened.
 */
describe('console as its users find it', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const newPage = async (width: number, height: number): Promise<Page> =>
    (await browser.newContext({ viewport: { width, height } })).newPage();

  it('leads the device dash with live channels at 1440x900, each value with its unit and whole name', async () => {
    const page = await newPage(1440, 900);
    await signInAs(page, server.baseUrl, 'viewer@fieldlink.test');
    await page.waitForURL(/\/dash\/[^/]+$/, { timeout: 30_000 });
    await page.goto(`${server.baseUrl}/dash/ACME-BLR01`);
    const value = page.getByTestId('channel-value-c1');
    await page.waitForFunction(
      () => /\d/.test(document.querySelector('[data-testid="channel-value-c1"]')?.textContent ?? ''),
      undefined,
      { timeout: 30_000 },
    );
    expect(await value.textContent()).toMatch(/^-?[\d,.]+ °C$/);
    // The totalizer, a pressure and a setpoint read with their units too; a relay reads its state.
    expect(await page.getByTestId('channel-value-t1').textContent()).toMatch(/^[\d,.]+ L$/);
    expect(await page.getByTestId('channel-value-c2').textContent()).toMatch(/^[\d,.]+ bar$/);
    expect(await page.getByTestId('channel-value-do1').textContent()).toMatch(/^(On|Off)$/);

    // The channels' heading and the first row of cards are on the first screen.
    const firstCard = await page.getByRole('article', { name: 'Room temperature' }).boundingBox();
    expect(firstCard).not.toBeNull();
    expect(firstCard!.y + firstCard!.height).toBeLessThan(900);

    // No channel name is cut short: every title shows all of its text.
    const cut = await page.$$eval('.channel-card__title', (titles) =>
      titles.filter((title) => title.scrollWidth > title.clientWidth + 1).map((title) => title.textContent),
    );
    expect(cut).toEqual([]);
    await page.screenshot({ path: 'test-results/ux-device-dash-1440.png' });
    await page.context().close();
  });

  it('gives each unit of the logs chart its own y axis', async () => {
    const page = await newPage(1440, 900);
    await signInAs(page, server.baseUrl, 'viewer@fieldlink.test');
    await page.waitForURL(/\/dash\/[^/]+$/, { timeout: 30_000 });
    await page.goto(`${server.baseUrl}/dash/ACME-BLR01`);
    const logs = page.getByRole('region', { name: 'Logs' });
    await logs.locator('.u-wrap').waitFor({ timeout: 30_000 });
    // Room temperature (°C) and line pressure (bar) open the chart: two units, two y axes.
    const yAxes = () => logs.locator('.u-axis').count();
    await expect.poll(yAxes, { timeout: 30_000 }).toBe(3);
    await logs.getByRole('button', { name: /Pumped volume/ }).click();
    await expect.poll(yAxes, { timeout: 30_000 }).toBe(4);
    // The window is written day first.
    expect(await logs.locator('.log-chart__meta').textContent()).toMatch(
      /\d{2}\/\d{2}\/\d{2} \d{1,2}:\d{2}:\d{2} [ap]m/,
    );
    await page.context().close();
  });

  it('states the time zone of every date once, on every page', async () => {
    const page = await newPage(1440, 900);
    await signInAs(page, server.baseUrl, 'viewer@fieldlink.test');
    await page.waitForURL(/\/dash\/[^/]+$/, { timeout: 30_000 });
    for (const path of ['/dash/ACME-BLR01', '/alarms', '/dash']) {
      await page.goto(`${server.baseUrl}${path}`);
      await expect.poll(() => page.getByTestId('time-zone').count()).toBe(1);
      expect(await page.getByTestId('time-zone').textContent()).toMatch(/^Times in /);
    }
    await page.context().close();
  });

  it('lands on the device last opened when signing in again', async () => {
    const page = await newPage(1440, 900);
    await signInAs(page, server.baseUrl, 'viewer@fieldlink.test');
    await page.waitForURL(/\/dash\/[^/]+$/, { timeout: 30_000 });
    const first = new URL(page.url()).pathname;
    const other = first.endsWith('/ACME-COLD01') ? '/dash/ACME-BLR02' : '/dash/ACME-COLD01';
    await page.goto(`${server.baseUrl}${other}`);
    await page.getByRole('heading', { level: 2, name: 'Channels' }).waitFor({ timeout: 30_000 });
    await page.goto(`${server.baseUrl}/signout`);
    await page.waitForURL((url) => !url.pathname.startsWith('/dash'), { timeout: 30_000 });
    await signInAs(page, server.baseUrl, 'viewer@fieldlink.test');
    await page.waitForURL(`${server.baseUrl}${other}`, { timeout: 30_000 });
    await page.context().close();
  });
});
