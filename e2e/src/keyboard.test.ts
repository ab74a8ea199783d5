import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { DEMO_PASSWORD, useProduct } from './harness';

/**
 * Issue 36 item 7: the core tasks with the keyboard alone (no mouse, no click, no fill): sign in,
 * open a device, operate an output through its confirmation, acknowledge an alarm, make a report.
 * Every control is reached with Tab and shows where the focus is.
 */
describe('the core tasks with the keyboard alone', () => {
  const product = useProduct();

  /** Most Tab presses to reach a control: a page with a long list still stays under it. */
  const MAX_TABS = 250;

  /** True when `target` holds the focus. */
  const focused = (target: Locator) => target.evaluate((element) => element === document.activeElement);

  /**
   * Presses Tab (or Shift+Tab) until `target` holds the focus, and checks the focus shows: the browser
   * treats it as keyboard focus (`:focus-visible`) and the page draws an outline or a ring for it, on
   * the control or on the frame around it.
   */
  async function tabTo(page: Page, target: Locator, key: 'Tab' | 'Shift+Tab' = 'Tab'): Promise<void> {
    await target.waitFor({ timeout: 60_000 });
    for (let presses = 0; !(await focused(target)); presses += 1) {
      if (presses >= MAX_TABS) throw new Error(`${String(target)} not reached in ${MAX_TABS} presses of ${key}`);
      await page.keyboard.press(key);
    }
    const ring = await target.evaluate((element) => {
      const shows = (box: Element) => {
        const style = getComputedStyle(box);
        return (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== 'none';
      };
      // The ring is on the control, or on the field around it (a search box's frame, `:focus-within`).
      const frame = element.parentElement;
      return {
        focusVisible: element.matches(':focus-visible'),
        drawn: shows(element) || (frame !== null && frame.matches(':focus-within') && shows(frame)),
      };
    });
    expect(ring, `focus shown on ${String(target)}`).toEqual({ focusVisible: true, drawn: true });
  }

  it('signs in, opens a device, operates it, acknowledges an alarm and makes a report', async () => {
    const { baseUrl } = product.server;
    const context = await product.browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);

    // Sign in.
    await page.goto(`${baseUrl}/signin`);
    await tabTo(page, page.getByLabel(/e-?mail/i));
    await page.keyboard.type('admin@fieldlink.test');
    await tabTo(page, page.getByLabel(/password/i));
    await page.keyboard.type(DEMO_PASSWORD);
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => !/^\/(signin|loading)/.test(url.pathname), { timeout: 60_000 });

    // Open a device: Dashboard, Devices, search for it, follow its link.
    await tabTo(page, page.getByRole('navigation', { name: 'Dashboard views' }).getByRole('link', { name: 'Devices' }));
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/dash');
    await tabTo(page, page.getByRole('searchbox', { name: 'Search devices' }));
    await page.keyboard.type('FTW-PLANT01');
    const deviceLink = page.getByRole('link', { name: /FTW-PLANT01/ });
    await expect.poll(() => deviceLink.count()).toBe(1);
    await tabTo(page, deviceLink);
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/dash/FTW-PLANT01');
    await page.getByTestId('plant-dashboard').waitFor({ timeout: 60_000 });

    // Operate an output: Space on the switch asks; Enter confirms; the device takes the new value.
    const widget = page.locator('article[data-widget-id="plantRun"]');
    const toggle = widget.getByRole('switch', { name: 'Plant run' });
    await expect.poll(() => widget.locator('.wv-caption').textContent(), { timeout: 60_000 }).toMatch(/^(On|Off)$/);
    const wasOn = (await toggle.getAttribute('aria-checked')) === 'true';
    await tabTo(page, toggle);
    await page.keyboard.press('Space');
    const dialog = page.getByRole('dialog', { name: wasOn ? 'Switch off?' : 'Switch on?' });
    await dialog.waitFor();
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => toggle.getAttribute('aria-checked'), { timeout: 60_000 }).toBe(String(!wasOn));
    // The focus is back on the switch, where the person left it.
    expect(await focused(toggle)).toBe(true);

    // Acknowledge an alarm: Alarms in the main navigation, then the first alarm's Acknowledge.
    await tabTo(
      page,
      page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /^Alarms/ }),
      'Shift+Tab',
    );
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/alarms');
    const acknowledge = page.getByRole('button', { name: 'Acknowledge', exact: true });
    await acknowledge.first().waitFor({ timeout: 60_000 });
    const waiting = await acknowledge.count();
    const row = page.getByRole('row').filter({ has: acknowledge.first() });
    const rowId = await row.first().getAttribute('data-testid');
    await tabTo(page, acknowledge.first());
    await page.keyboard.press('Enter');
    await expect.poll(() => acknowledge.count(), { timeout: 60_000 }).toBe(waiting - 1);
    expect(await page.getByTestId(rowId!).getByRole('button', { name: 'Acknowledge', exact: true }).count()).toBe(0);

    // Make a report: Reports, New report, a name, a device's channels, Generate.
    await tabTo(
      page,
      page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Reports' }),
      'Shift+Tab',
    );
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/reports');
    await tabTo(page, page.getByRole('button', { name: 'New report' }));
    await page.keyboard.press('Enter');
    const form = page.getByRole('dialog', { name: 'New report' });
    await form.waitFor();
    await tabTo(page, form.getByLabel('Name', { exact: true }));
    await page.keyboard.type('Keyboard report');
    await tabTo(page, form.getByLabel('Find a device or group'));
    await page.keyboard.type('Fermenter FV1');
    const device = form.getByRole('checkbox', { name: /^Fermenter FV1/ });
    await expect.poll(() => device.count()).toBe(1);
    await tabTo(page, device);
    await page.keyboard.press('Space');
    expect(await device.isChecked()).toBe(true);
    await tabTo(page, form.getByRole('button', { name: 'Generate report' }));
    await page.keyboard.press('Enter');
    await form.waitFor({ state: 'detached' });
    const report = page.getByTestId('report-row').filter({ hasText: 'Keyboard report' });
    await expect.poll(() => report.count(), { timeout: 60_000 }).toBe(1);
    await context.close();
    // Five tasks, each waiting on the server and the device; on a loaded machine this takes minutes.
  }, 300_000);
});
