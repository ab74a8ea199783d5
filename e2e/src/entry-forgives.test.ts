import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { formatTastingDate, localeClockFormat } from '@fieldlink/domain/date-format';
import { localTimeZone } from '@fieldlink/domain/time-zone';
import { ZERO_DURATION } from '@fieldlink/domain/spray';
import { launchBrowser, signedInPage, startServer, topGroupId, type RunningServer } from './harness';

/**
 * Issue 36 item 5, in Chromium against the real server: a gravity reading takes the time it was
 * taken and says why a value or a time cannot be saved; deleting a reading asks first; the spray
 * schedule says the rule behind "Cannot have a duration of zero." and fits a phone.
 */
describe('entry that forgives', () => {
  let server: RunningServer;
  let browser: Browser;

  const shot = (page: Page, name: string) =>
    page.screenshot({
      path: process.env.UPDATE_SCREENSHOTS ? `docs/screenshots/${name}.png` : `test-results/${name}.png`,
      fullPage: true,
    });

  /** `YYYY-MM-DDTHH:mm` of a moment in the browser's own time zone, as its datetime-local field holds it. */
  const localInput = (page: Page, t: number) =>
    page.evaluate((at) => {
      const date = new Date(at);
      const pad = (n: number) => String(n).padStart(2, '0');
      return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
    }, t);

  // One signed-in page per user, resized for each width: a sign-in is slow on a loaded machine.
  const pages = new Map<string, Page>();
  const pageAs = async (email: string, width: number, height: number) => {
    let page = pages.get(email);
    if (!page) {
      page = await signedInPage(browser, server.baseUrl, email, { viewport: { width, height } });
      pages.set(email, page);
    }
    await page.setViewportSize({ width, height });
    return page;
  };

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
  }, 330_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it.each([
    [1440, 900],
    [390, 844],
  ])(
    'at %d px: a reading with a time, an out-of-range value that says why, and a delete that asks',
    async (width, height) => {
      // A value of its own per run, so each finds only its reading.
      const typed = width === 1440 ? '1.0123' : '1.0124';
      const cellarId = await topGroupId(server.baseUrl, 'brew@fieldlink.test', 'Northgate Brewing', 'Cellar');
      const page = await pageAs('brew@fieldlink.test', width, height);
      await page.goto(`${server.baseUrl}/brew/summary/${cellarId}`);
      await page.locator('.tank-card', { hasText: 'Northgate Pils' }).click();
      const panel = page.getByRole('region', { name: 'Gravity readings' });
      const value = panel.getByRole('textbox', { name: 'Gravity reading' });
      const time = panel.getByLabel('Time taken');
      const add = panel.getByRole('button', { name: 'Add reading' });
      await value.waitFor({ timeout: 30_000 });

      // The time field shows now (this minute or the next, should the minute turn meanwhile).
      const shown = Date.parse(await time.inputValue());
      expect(Math.abs(shown - Date.now())).toBeLessThan(120_000);

      // An out-of-range value says why, rather than only greying the button out.
      await value.fill('1.5');
      await expect
        .poll(() => panel.getByRole('alert').textContent())
        .toBe('1.5 is outside the gravities of wort and beer: 0.980 to 1.200.');
      expect(await add.isDisabled()).toBe(true);
      // So does a time before the batch started.
      await value.fill(typed);
      await time.fill('2001-01-01T09:00');
      await expect.poll(() => panel.getByRole('alert').textContent()).toBe('The time lies before the batch started.');
      expect(await add.isDisabled()).toBe(true);
      await shot(page, `entry-gravity-reason-${width}`);

      // Ten minutes ago: saved with that time.
      const takenAt = await localInput(page, Date.now() - 600_000);
      await time.fill(takenAt);
      await expect.poll(() => panel.getByRole('alert').count()).toBe(0);
      await add.click();
      const reading = panel.getByTestId('gravity-readings').locator('li', { hasText: typed });
      await reading.waitFor({ timeout: 20_000 });
      const takenMs = await page.evaluate((value) => new Date(value).getTime(), takenAt);
      // The page's clock: the browser's zone (this machine's) and its locale's format (the user chose none).
      const locale = await page.evaluate(() => navigator.language);
      const browserClock = { timeZone: localTimeZone(), ...localeClockFormat(locale) };
      expect(await reading.textContent()).toContain(formatTastingDate(takenMs, browserClock));

      // Deleting asks first: Cancel keeps the reading, Delete removes it.
      await reading.getByRole('button', { name: `Delete reading ${typed}` }).click();
      const dialog = page.getByRole('dialog', {
        name: `Delete the reading ${typed} of ${formatTastingDate(takenMs, browserClock)}?`,
      });
      await dialog.waitFor();
      await shot(page, `entry-delete-asks-${width}`);
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });
      expect(await reading.count()).toBe(1);
      await reading.getByRole('button', { name: `Delete reading ${typed}` }).click();
      await dialog.getByRole('button', { name: 'Delete' }).click();
      await reading.waitFor({ state: 'detached', timeout: 20_000 });
    },
    120_000,
  );

  it.each([
    [1440, 900],
    [390, 844],
  ])(
    'at %d px: a spray duration under one step keeps the message and says the rule; the time fits',
    async (width, height) => {
      const page = await pageAs('spray@fieldlink.test', width, height);
      const rootGroupId = await page.evaluate(async () => {
        const token = localStorage.getItem('fieldlinkToken');
        const answer = await fetch('/api/v1/account', { headers: { authorization: token ?? '' } });
        const { accounts } = (await answer.json()) as { accounts: { name: string; rootGroup: { id: string } }[] };
        return accounts.find((account) => account.name === 'Orchard Spray Co')!.rootGroup.id;
      });
      await page.goto(`${server.baseUrl}/spray/${rootGroupId}`);
      await page
        .getByRole('article', { name: 'Sprayer Row 1' })
        .getByRole('button', { name: 'Edit schedules' })
        .click({ timeout: 30_000 });
      const dialog = page.getByRole('dialog');
      const t1 = dialog.getByTestId('schedule-T-1');
      await t1.getByLabel('T-1 duration').fill('7');
      await dialog.getByRole('button', { name: 'Save to sprayer' }).click();
      await expect.poll(() => t1.getByRole('alert').textContent()).toBe(ZERO_DURATION);
      const rule = await t1.locator('.spray-editor__rule').textContent();
      expect(rule).toMatch(
        /^7 s is less than one step, and a part step is not sprayed\. Durations are whole steps of (\d+) s \(SP-1\): \1 s to \d+ s\.$/,
      );
      expect(await t1.getByLabel('T-1 duration').getAttribute('aria-describedby')).toBe('T-1-duration-rule');

      // The time field lies inside its row and the dialog, not cut off or scrolled sideways.
      const within = await t1.evaluate((row) => {
        const input = row.querySelector('input[type="time"]')!.getBoundingClientRect();
        const box = row.getBoundingClientRect();
        const body = row.closest('[role="dialog"]')!;
        return {
          inside: input.left >= box.left && input.right <= box.right,
          // Room for a 12-hour time ("06:00 AM") beside its clock button.
          wideEnough: input.width >= 150,
          noSideScroll: body.scrollWidth <= body.clientWidth,
        };
      });
      expect(within).toEqual({ inside: true, wideEnough: true, noSideScroll: true });
      await t1.scrollIntoViewIfNeeded();
      await page.screenshot({
        path: process.env.UPDATE_SCREENSHOTS
          ? `docs/screenshots/entry-spray-rule-${width}.png`
          : `test-results/entry-spray-rule-${width}.png`,
      });
    },
    120_000,
  );
});
