import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, signInAs, startServer, topGroupId, type RunningServer } from './harness';

/**
 * The brew summary in Chromium as brew@ against the real server and its simulated fermenters: a batch
 * started in the empty bright tank, a gravity reading and a tasting note added, the batch ended, and
 * its report generated and downloaded from the summary.
 */
describe('brew summary', () => {
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let cellarId: string;

  beforeAll(async () => {
    // The demo's batches are those of the plant the 30-day history leaves, as on a first start.
    server = await startServer({ FIELDLINK_DEMO_HISTORY_DAYS: '30' });
    browser = await launchBrowser();
    cellarId = await topGroupId(server.baseUrl, 'brew@fieldlink.test', 'Northgate Brewing', 'Cellar');
    context = await browser.newContext({ viewport: { width: 1440, height: 900 }, acceptDownloads: true });
    page = await context.newPage();
    await signInAs(page, server.baseUrl, 'brew@fieldlink.test');
    await page.waitForURL((url) => !url.pathname.startsWith('/signin'), { timeout: 30_000 });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('shows every tank of the group live, with the demo’s fermenting batches', async () => {
    await page.goto(`${server.baseUrl}/brew/summary/${cellarId}`);
    await expect.poll(() => page.locator('.tank-card').count(), { timeout: 30_000 }).toBe(3);
    expect(await page.getByTestId('brew-count').textContent()).toBe('3 tanks · 2 with a batch');
    await expect.poll(() => page.getByText('Northgate Pils').count()).toBe(1);
    // The estimate of a fermenting tank: a gravity with four decimals, from its live values.
    await expect
      .poll(() => page.locator('.tank-card', { hasText: 'Northgate Pils' }).getByTestId('tank-gravity').textContent(), {
        timeout: 30_000,
      })
      .toMatch(/^1\.0\d{3}$/);
  });

  it('starts a batch, adds a gravity reading and a tasting note, ends it and downloads its report', async () => {
    await page.locator('.tank-card', { hasText: 'Bright tank BT1' }).click();
    await page.getByRole('button', { name: 'Start batch' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Beer').fill('E2E Saison');
    await dialog.getByLabel('Style').fill('Saison');
    await dialog.getByLabel('Original gravity').fill('1.052');
    await dialog.getByRole('button', { name: 'Start batch' }).click();
    await expect
      .poll(() => page.locator('.tank-view__title').textContent(), { timeout: 20_000 })
      .toContain('E2E Saison');

    await page.getByLabel('Gravity reading', { exact: true }).fill('1.031');
    await page.getByRole('button', { name: 'Add reading' }).click();
    await expect
      .poll(() => page.getByTestId('gravity-readings').textContent(), { timeout: 20_000 })
      .toContain('1.0310');

    await page.getByRole('button', { name: 'Add tasting note' }).click();
    await page.getByRole('combobox', { name: 'Aroma' }).selectOption('4');
    await page.getByRole('combobox', { name: 'Flavor' }).selectOption('4.5');
    await page.getByRole('textbox', { name: 'Tasting notes' }).fill('Peppery, dry finish');
    await page.getByRole('button', { name: 'Save tasting note' }).click();
    await expect
      .poll(() => page.getByTestId('tasting-notes').textContent(), { timeout: 20_000 })
      .toContain('Peppery, dry finish');
    // Aroma 4, flavor 4.5, mouthfeel, appearance and overall 3: average 3.5.
    expect(await page.getByTestId('tasting-averages').textContent()).toContain('Average3.5');
    // The note is marked on the chart as a blue annotation.
    expect(await page.getByText('Tasting 3.5/5: Peppery, dry finish').count()).toBe(1);

    await page.getByRole('button', { name: 'End batch' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'End batch' }).click();
    // Back on the summary: the tank is idle again and the batch is among the finished ones.
    await expect
      .poll(() => page.getByTestId('brew-count').textContent(), { timeout: 20_000 })
      .toBe('3 tanks · 2 with a batch');
    const finished = page.getByTestId('finished-batches').locator(':scope > li', { hasText: 'E2E Saison' });
    await expect.poll(() => finished.count(), { timeout: 20_000 }).toBe(1);
    // Generating, polled every 10 s, until Complete.
    await expect
      .poll(() => finished.getByTestId('brew-report').textContent(), { timeout: 60_000 })
      .toContain('Complete');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      finished.getByRole('button', { name: 'Download' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^E2E-Saison-\d{4}-\d\d-\d\d\.pdf$/);
    const file = await download.path();
    const { readFile } = await import('node:fs/promises');
    expect((await readFile(file)).subarray(0, 5).toString()).toBe('%PDF-');
  }, 180_000);

  // Issue 35 item 8: an end taken back shows at once, in the finished list and in the tank, without a reload.
  it('takes back the end from the finished list and from the idle tank, without a reload', async () => {
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));
    const sameDocument = () => page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument);
    const finished = page.getByTestId('finished-batches').locator(':scope > li', { hasText: 'E2E Saison' });
    // Only BT1's newest batch is offered: the fermenters run theirs.
    expect(
      await page
        .getByTestId('finished-batches')
        .getByRole('button', { name: /^Take back end of/ })
        .count(),
    ).toBe(1);
    await finished.getByRole('button', { name: 'Take back end of E2E Saison' }).click();
    const dialog = page.getByRole('dialog', { name: 'Take back this end?' });
    expect(await dialog.textContent()).toMatch(/E2E Saison runs again in tank \d+ · Bright tank BT1, in the state/);
    await dialog.getByRole('button', { name: 'Take back end' }).click();
    await expect.poll(() => finished.count(), { timeout: 20_000 }).toBe(0);
    await expect
      .poll(() => page.getByTestId('brew-count').textContent(), { timeout: 20_000 })
      .toBe('3 tanks · 3 with a batch');
    expect(await page.locator('.tank-card', { hasText: 'Bright tank BT1' }).textContent()).toContain('E2E Saison');

    // Ended again from its tank, the idle tank offers the take-back itself.
    await page.locator('.tank-card', { hasText: 'Bright tank BT1' }).click();
    await page.getByRole('button', { name: 'End batch' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'End batch' }).click();
    await expect.poll(() => finished.count(), { timeout: 20_000 }).toBe(1);
    await page.locator('.tank-card', { hasText: 'Bright tank BT1' }).click();
    await expect
      .poll(() => page.locator('.tank-view__title').textContent())
      .toContain('No batch in this tank · E2E Saison ended');
    await page.getByRole('button', { name: 'Take back end of E2E Saison' }).click();
    await page
      .getByRole('dialog', { name: 'Take back this end?' })
      .getByRole('button', { name: 'Take back end' })
      .click();
    await expect
      .poll(() => page.locator('.tank-view__title').textContent(), { timeout: 20_000 })
      .toMatch(/E2E Saison · Saison · day \d+/);
    expect(await page.getByRole('button', { name: 'End batch' }).count()).toBe(1);
    expect(await sameDocument()).toBe(true);
  }, 120_000);
});
