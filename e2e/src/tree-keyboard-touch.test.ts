import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { apiToken, callApi, launchBrowser, sessionPage, startServer, type RunningServer } from './harness';

/**
 * Issue 36 item 6, in Chromium against the real server as ops@ (Acme Controls): the account tree as a
 * WAI-ARIA tree for the keyboard, every item's "more" button and long press for touch, details
 * brought into view on a phone, and a Move dialog that tells two groups of the same name apart.
 */
describe('the account tree for keyboard and touch', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;

  const row = (name: string) => page.getByRole('treeitem', { name: new RegExp(`^${name},`) });
  /** The accessible name of the focused element. */
  const focused = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? null);
  const shot = (name: string) =>
    page.screenshot({
      path: process.env.UPDATE_SCREENSHOTS ? `docs/screenshots/${name}.png` : `test-results/${name}.png`,
    });

  beforeAll(async () => {
    server = await startServer({ FIELDLINK_SIMULATOR: '0' });
    browser = await launchBrowser();
    // A second "Cold Store", inside Boiler Room: the Move dialog must tell the two apart.
    const token = await apiToken(server.baseUrl, 'ops@fieldlink.test');
    const { accounts } = (
      await callApi<{ accounts: { rootGroup: { id: string; groups: { id: string; name: string }[] } }[] }>(
        server.baseUrl,
        'GET',
        '/account',
        token,
      )
    ).json;
    const boilerRoom = accounts[0]!.rootGroup.groups.find((group) => group.name === 'Boiler Room')!;
    expect(
      (await callApi(server.baseUrl, 'POST', '/group', token, { parentId: boilerRoom.id, name: 'Cold Store' })).status,
    ).toBe(200);
    page = await sessionPage(browser, server.baseUrl, 'ops@fieldlink.test', '/accounts/treeview');
    await page.getByTestId('account-tree').waitFor({ timeout: 30_000 });
  }, 330_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('says how to reach an item’s actions by keyboard and touch, not by right-click alone', async () => {
    const hint = await page.getByTestId('detail-panel').textContent();
    expect(hint).not.toContain('Right-click');
    expect(hint).toContain('press and hold');
    expect(hint).toContain('Shift+F10');
    // Every item with actions has a visible "more" button.
    const more = page.getByRole('button', { name: 'More actions for Boiler Room' });
    expect(await more.isVisible()).toBe(true);
    expect(await more.evaluate((button) => getComputedStyle(button).opacity)).toBe('1');
    await shot('tree-more-buttons-1440');
  });

  it('moves with the arrow keys, Home and End, a roving tab stop, and Enter', async () => {
    const labels = () =>
      page.getByRole('treeitem').evaluateAll((rows) => rows.map((r) => r.getAttribute('aria-label')));
    await row('Boiler Room').click();
    expect(await focused()).toBe('Boiler Room, 2 devices, Group');
    // One tab stop: the current row.
    await expect
      .poll(() =>
        page
          .locator('[role="treeitem"][tabindex="0"]')
          .evaluateAll((rows) => rows.map((r) => r.getAttribute('aria-label'))),
      )
      .toEqual(['Boiler Room, 2 devices, Group']);
    const order = await labels();
    const at = order.indexOf('Boiler Room, 2 devices, Group');
    await page.keyboard.press('ArrowDown');
    await expect.poll(focused).toBe(order[at + 1]);
    expect(await row('Boiler Room').getAttribute('tabindex')).toBe('-1');
    await page.keyboard.press('ArrowUp');
    await expect.poll(focused).toBe('Boiler Room, 2 devices, Group');
    expect(await row('Boiler Room').getAttribute('aria-selected')).toBe('true');
    // Right opens a closed group, then goes to its first child; Left goes back to the parent.
    expect(await row('Boiler Room').getAttribute('aria-expanded')).toBe('false');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => row('Boiler Room').getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('ArrowRight');
    await expect.poll(async () => (await labels()).indexOf(await focused())).toBe(at + 1);
    await page.keyboard.press('ArrowLeft');
    await expect.poll(focused).toBe('Boiler Room, 2 devices, Group');
    // Enter closes the open group again; Home and End jump.
    await page.keyboard.press('Enter');
    await expect.poll(() => row('Boiler Room').getAttribute('aria-expanded')).toBe('false');
    await page.keyboard.press('End');
    await expect.poll(focused).toBe((await labels()).at(-1));
    await page.keyboard.press('Home');
    await expect.poll(focused).toBe('Acme Controls, 4 devices, Account');
  });

  it('opens the menu with Shift+F10 and the "more" button; Escape closes it and the focus returns', async () => {
    await row('Boiler Room').click();
    await expect.poll(focused).toBe('Boiler Room, 2 devices, Group');
    await page.keyboard.press('Shift+F10');
    const menu = page.getByRole('menu', { name: 'Actions for Boiler Room' });
    await menu.waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('menuitem');
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    await expect.poll(focused).toBe('Boiler Room, 2 devices, Group');

    await page.getByRole('button', { name: 'More actions for Cold Store' }).first().click();
    const coldMenu = page.getByRole('menu', { name: 'Actions for Cold Store' });
    await coldMenu.waitFor();
    expect(await coldMenu.getByRole('menuitem').allTextContents()).toContain('Move');
    await shot('tree-more-menu-1440');
    await page.keyboard.press('Escape');
    await coldMenu.waitFor({ state: 'detached' });
    await expect.poll(focused).toBe('Cold Store, 2 devices, Group');
    // The arrows go on from there.
    await page.keyboard.press('Home');
    await expect.poll(focused).toBe('Acme Controls, 4 devices, Account');
  });

  it('opens the menu on a long press, without a click', async () => {
    const box = (await row('Boiler Room').boundingBox())!;
    await page.mouse.move(box.x + 60, box.y + box.height / 2);
    await page.mouse.down();
    // Held still: the menu comes by itself, while the button is still down.
    const menu = page.getByRole('menu', { name: 'Actions for Boiler Room' });
    await menu.waitFor();
    await page.mouse.up();
    // The release does not close it.
    expect(await menu.isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
  });

  it('shows each destination’s account and path in the Move dialog', async () => {
    await page.getByRole('button', { name: 'More actions for Boiler Room' }).click();
    await page.getByRole('menuitem', { name: 'Move' }).click();
    const dialog = page.getByRole('dialog', { name: 'Move Boiler Room' });
    await dialog.getByRole('searchbox', { name: 'Find a group' }).fill('cold');
    const options = dialog.getByRole('option');
    await expect
      .poll(() => options.evaluateAll((all) => all.map((option) => option.getAttribute('aria-label'))))
      .toEqual([
        'Acme Controls › Boiler Room › Cold Store, A group cannot be moved under itself.',
        'Acme Controls › Cold Store',
      ]);
    // Seen, not only heard: each row shows its path.
    expect(await options.locator('.move-destination__path').allTextContents()).toEqual([
      'Acme Controls › Boiler Room › Cold Store',
      'Acme Controls › Cold Store',
    ]);
    await dialog.getByRole('option', { name: 'Acme Controls › Cold Store' }).click();
    expect(await dialog.getByTestId('move-chosen').textContent()).toBe('Moves to Acme Controls › Cold Store');
    await shot('tree-move-paths-1440');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  it('on a phone, choosing an item brings its details into view; long press opens its menu', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.evaluate(() => window.scrollTo(0, 0));
    const details = page.getByTestId('detail-panel');
    const inView = () =>
      details.evaluate((panel) => {
        const box = panel.getBoundingClientRect();
        // Wholly in view, or its top at the top of the screen.
        return box.top >= -1 && (box.bottom <= window.innerHeight + 1 || box.top < 8);
      });
    expect(await inView()).toBe(false);
    await shot('tree-phone-390');
    await row('Cold Store').last().click();
    await expect.poll(inView).toBe(true);
    expect(await details.textContent()).toContain('Cold Store');
    await shot('tree-phone-details-390');

    await page.evaluate(() => window.scrollTo(0, 0));
    const box = (await row('Boiler Room').boundingBox())!;
    await page.mouse.move(box.x + 60, box.y + box.height / 2);
    await page.mouse.down();
    const menu = page.getByRole('menu', { name: 'Actions for Boiler Room' });
    await menu.waitFor();
    await page.mouse.up();
    await shot('tree-phone-menu-390');
    expect(await menu.isVisible()).toBe(true);
    await page.keyboard.press('Escape');
  });
});
