import { describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { formatDateTime, type Clock } from '@fieldlink/domain/date-format';
import { apiToken, callApi, signInAs, useProduct } from './harness';

/**
 * Issue 36 item 2, one clock: each user sees the same event in their own time zone and format, as
 * chosen in their profile, not as their browser would have it.
 */
describe('one clock: each user’s zone and format', () => {
  const product = useProduct();
  const LONDON: Clock = { timeZone: 'Europe/London', hourCycle: '24', dateOrder: 'dmy' };
  const NEW_YORK: Clock = { timeZone: 'America/New_York', hourCycle: '12', dateOrder: 'mdy' };

  /** A browser in Tokyo with a US locale: neither user's choice, so the profile must be what counts. */
  const tokyoPage = async (browser: Browser, email: string): Promise<Page> => {
    const context = await browser.newContext({
      viewport: { width: 1440, height: 900 },
      timezoneId: 'Asia/Tokyo',
      locale: 'en-US',
    });
    const page = await context.newPage();
    await signInAs(page, product.server.baseUrl, email);
    await page.waitForURL((url) => !/^\/(signin|loading)/.test(url.pathname), { timeout: 30_000 });
    return page;
  };

  const raisedCell = (page: Page, alarmId: string) =>
    page.getByTestId(`alarm-${alarmId}`).locator('td[data-label="Raised"]');

  it('shows one alarm to a London user (24 h, day first) and a New York user (12 h, month first) each in their own', async () => {
    const { server, browser } = product;
    // The event: an alarm of the demo's Acme account, which both users see.
    const opsToken = await apiToken(server.baseUrl, 'ops@fieldlink.test');
    const { alarms } = (
      await callApi<{ alarms: { id: string; raisedAt: number }[] }>(server.baseUrl, 'GET', '/alarms', opsToken)
    ).json;
    const alarm = alarms[0]!;
    expect(alarm).toBeDefined();

    // ops@ chooses New York, 12 hours, month first through the API (as another browser would).
    const saved = await callApi(server.baseUrl, 'PUT', '/user', opsToken, {
      email: 'ops@fieldlink.test',
      props: { timeZone: NEW_YORK.timeZone, hourCycle: '12', dateOrder: 'mdy' },
    });
    expect(saved.status).toBe(200);

    // viewer@ chooses London, 24 hours, day first in the account menu.
    const viewer = await tokyoPage(browser, 'viewer@fieldlink.test');
    await viewer.getByRole('button', { name: /^Account menu/ }).click();
    // The menu's Clock group (a device's page has a Time zone field of its own).
    const clock = viewer.getByRole('group', { name: 'Clock' });
    await clock.getByLabel(/^Time zone/).selectOption(LONDON.timeZone);
    await clock.getByLabel(/^Hours/).selectOption('24');
    await clock.getByLabel(/^Dates/).selectOption('dmy');
    await expect
      .poll(() => viewer.getByTestId('clock-now').textContent())
      .toMatch(/^Now: \d{2}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2} Europe\/London \(UTC\+0[01]:00\)$/);
    // Saved to the user: the server answers it (the menu saves without waiting).
    const viewerToken = await apiToken(server.baseUrl, 'viewer@fieldlink.test');
    await expect
      .poll(async () => (await callApi(server.baseUrl, 'GET', '/self', viewerToken)).json)
      .toMatchObject({ timeZone: LONDON.timeZone, hourCycle: '24', dateOrder: 'dmy' });
    await viewer.keyboard.press('Escape');

    const ops = await tokyoPage(browser, 'ops@fieldlink.test');
    for (const page of [viewer, ops]) await page.goto(`${server.baseUrl}/alarms`);

    const inLondon = formatDateTime(alarm.raisedAt, LONDON);
    const inNewYork = formatDateTime(alarm.raisedAt, NEW_YORK);
    expect(inLondon).toMatch(/^\d{2}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(inNewYork).toMatch(/^\d{2}\/\d{2}\/\d{2} \d{1,2}:\d{2}:\d{2} [ap]m$/);
    await expect.poll(() => raisedCell(viewer, alarm.id).textContent(), { timeout: 30_000 }).toBe(inLondon);
    await expect.poll(() => raisedCell(ops, alarm.id).textContent(), { timeout: 30_000 }).toBe(inNewYork);
    // Each page names its zone once: the user's own, not the browser's (Tokyo).
    await expect.poll(() => viewer.getByTestId('time-zone').textContent()).toMatch(/^Times in Europe\/London /);
    await expect.poll(() => ops.getByTestId('time-zone').textContent()).toMatch(/^Times in America\/New_York /);

    // The choice follows the user to a new session.
    await viewer.reload();
    await expect.poll(() => raisedCell(viewer, alarm.id).textContent(), { timeout: 30_000 }).toBe(inLondon);
    await viewer.screenshot({ path: 'test-results/one-clock-alarms-london.png' });
    await ops.screenshot({ path: 'test-results/one-clock-alarms-new-york.png' });
    await viewer.getByRole('button', { name: /^Account menu/ }).click();
    await viewer.getByTestId('clock-now').waitFor();
    await viewer.screenshot({ path: 'test-results/one-clock-menu.png' });
    for (const page of [viewer, ops]) await page.context().close();
  });
});
