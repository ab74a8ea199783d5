import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { apiToken, callApi, signedInPage, topGroupId, useProduct } from './harness';

/** Screenshots at desk and phone width (docs/screenshots when asked, else test-results). */
async function shoot(page: Page, name: string) {
  const dir = process.env.UPDATE_SCREENSHOTS ? 'docs/screenshots' : 'test-results';
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: `${dir}/${name}.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${dir}/${name}-phone.png` });
  await page.setViewportSize({ width: 1440, height: 900 });
}

/** Issue 38 item 1: an administrator sees in Accounts → Audit log what was just changed, and by whom. */
describe('the audit log', () => {
  const product = useProduct({ FIELDLINK_SIMULATOR: '0' });

  it('brew@ adds a group and finds it, its own sign-in and a refused one in the audit log, filtered and exported', async () => {
    const { baseUrl } = product.server;
    const refused = await callApi(baseUrl, 'POST', '/signin', null, {
      email: 'brew@fieldlink.test',
      password: 'not the password',
    });
    expect(refused.status).toBe(401);
    const token = await apiToken(baseUrl, 'brew@fieldlink.test');
    const cellarId = await topGroupId(baseUrl, 'brew@fieldlink.test', 'Northgate Brewing', 'Cellar');
    const added = await callApi(baseUrl, 'POST', '/group', token, { parentId: cellarId, name: 'Audit Cellar' });
    expect(added.status).toBe(200);

    const page = await signedInPage(product.browser, baseUrl, 'brew@fieldlink.test');
    await page.getByRole('link', { name: 'Accounts' }).first().click();
    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.waitForURL(/\/accounts\/audit-log$/);
    const rows = page.getByTestId('audit-entry');
    // Newest first: the browser's own sign-in, then the group, then the API sign-in and the refused one.
    await rows.first().waitFor({ timeout: 30_000 });
    const texts = await rows.allTextContents();
    expect(texts[0]).toContain('Signed in');
    const group = texts.findIndex((text) => text.includes('Group added') && text.includes('Audit Cellar'));
    const refusal = texts.findIndex((text) => text.includes('Sign-in refused'));
    expect(group).toBeGreaterThan(0);
    expect(refusal).toBeGreaterThan(group);
    expect(texts[group]).toContain('brew@fieldlink.test');
    // What changed in words, the internal ids left out.
    const changes = rows.nth(group).locator('.audit-changes');
    expect(await changes.locator('dt').allTextContents()).toEqual(['Name']);
    expect(await changes.locator('dd').allTextContents()).toEqual(['Audit Cellar']);
    expect(texts[group]).not.toContain('parentId');
    await shoot(page, 'audit-log');

    await page.getByLabel('Action').selectOption({ label: 'Group added' });
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => rows.allTextContents()).toEqual([expect.stringContaining('Audit Cellar')]);

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('audit-log-Northgate Brewing.csv');
    const csv = await readFile(await file.path(), 'utf8');
    const lines = csv
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toContain('Time (UTC),Account,Seq,Actor');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('group.add');
    expect(lines[1]).toContain('Audit Cellar');
  });
});
