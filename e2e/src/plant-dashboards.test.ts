import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { apiToken, callApi, sessionLanding, useProduct } from './harness';

/** The water plants' dashboards, generated from the plant model for their configuration tags (issue 13). */
describe('generated water-plant dashboards', () => {
  const product = useProduct();

  /**
   * Signed in (the browser holds the session, as after an earlier sign-in): the user lands on one of their
   * plants' generated dashboards (the first of their tree), then opens the plant the test is about.
   */
  async function signedIn(email: string, landing: RegExp, plant: string): Promise<Page> {
    const page = await sessionLanding(product.browser, product.server.baseUrl, email, { landing });
    await page.getByTestId('plant-dashboard').waitFor({ timeout: 30_000 });
    if (!page.url().endsWith(`/dash/${plant}`)) {
      await page.goto(`${product.server.baseUrl}/dash/${plant}`);
      await page.getByTestId('plant-dashboard').waitFor({ timeout: 30_000 });
    }
    return page;
  }
  const sections = (page: Page) => page.locator('[data-testid="plant-section"] h2').allTextContents();
  const widget = (page: Page, key: string) => page.locator(`article[data-widget-id="${key}"]`);
  /** The number a value widget shows, or NaN while it has none. */
  const shown = async (page: Page, key: string) =>
    Number(((await widget(page, key).locator('.wv-big__number').textContent()) ?? '').replace(/[^0-9.-]/g, '') || NaN);

  it('lands water@ on its plant with the sections its tag names and live values', async () => {
    const page = await signedIn('water@fieldlink.test', /\/dash\/FTW-PLANT0[12]$/, 'FTW-PLANT01');
    expect(await sections(page)).toEqual([
      'Water',
      'UV',
      'Pressure',
      'Pre-Treatment',
      'Multimedia Filters',
      'Carbon Filters',
      'Chlorine Reticulation',
      'Alarms',
      'Resets',
    ]);
    expect(
      await page.locator('[data-testid="plant-section"]').evaluateAll((all) => all.map((s) => s.dataset.group)),
    ).toEqual(['WATER', 'UV', 'PRESSURE', 'PRE_TREATMENT', 'MEDIA', 'CARBON', 'CHLORINATION', 'ALARM', 'RESETS']);
    // Live: the operating time and supply total count up as the simulated plant reports.
    await expect.poll(() => shown(page, 'supply1Total'), { timeout: 30_000 }).toBeGreaterThan(0);
    await expect.poll(() => shown(page, 'supply1Flow'), { timeout: 30_000 }).not.toBeNaN();
    expect(await page.locator('article[data-widget-id="alarm-s1"]').count()).toBe(1);
    expect(await page.getByText(/could not be shown|Unknown widget type/).count()).toBe(0);

    // The reset button sets the plant model's total back to zero.
    const before = await shown(page, 'supply1Total');
    expect(before).toBeGreaterThan(100);
    await widget(page, 'reset-gpf1').getByRole('button').click();
    // Select before operate (issue 36): the reset asks first; confirming presses it.
    await page.getByRole('dialog', { name: 'Press?' }).getByRole('button', { name: 'Press' }).click();
    await expect.poll(() => shown(page, 'supply1Total'), { timeout: 30_000 }).toBeLessThan(1);
  });

  it('adds a section when the plant’s filtecConfig tag gains a feature, at once', async () => {
    const page = await signedIn('water@fieldlink.test', /\/dash\/FTW-PLANT0[12]$/, 'FTW-PLANT01');
    expect(await sections(page)).not.toContain('Softener');
    await page.getByRole('button', { name: 'Plant features' }).click();
    await page.getByRole('checkbox', { name: 'Softener' }).check();
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => sections(page)).toContain('Softener');
    expect(await sections(page)).toEqual([
      'Water',
      'UV',
      'Pressure',
      'Pre-Treatment',
      'Multimedia Filters',
      'Carbon Filters',
      'Softener',
      'Chlorine Reticulation',
      'Alarms',
      'Resets',
    ]);
    const token = await apiToken(product.server.baseUrl, 'water@fieldlink.test');
    const tree = await callApi<{
      accounts: { rootGroup: { groups: { devices: { id: string; thingName: string }[] }[] } }[];
    }>(product.server.baseUrl, 'GET', '/account', token);
    const plant = tree.json.accounts[0]!.rootGroup.groups.flatMap((g) => g.devices).find(
      (d) => d.thingName === 'FTW-PLANT01',
    )!;
    const device = await callApi<{ tags: { key: string; value: string }[] }>(
      product.server.baseUrl,
      'GET',
      `/device?id=${plant.id}`,
      token,
    );
    expect(device.json.tags.find((tag) => tag.key === 'filtecConfig')?.value.split(',')).toContain('softener');

    // The device's own dash is one click away, and back.
    await page.getByRole('link', { name: 'Device details' }).click();
    await page.getByRole('heading', { name: 'General information' }).waitFor({ timeout: 30_000 });
    await page.goBack();
    await page.getByTestId('plant-dashboard').waitFor();
  });

  it('lands moe@ on a moe plant: the moe sections only, live, and no feature editing without the permission', async () => {
    const page = await signedIn('moe@fieldlink.test', /\/dash\/MTW-(PLANT0[12]|UV01)$/, 'MTW-PLANT02');
    expect(await sections(page)).toEqual([
      'Water',
      'UV',
      'Pressure',
      'Multimedia Filters',
      'Greensand Filters',
      'Alarms',
      'Resets',
    ]);
    await expect.poll(() => shown(page, 'supply1Flow'), { timeout: 30_000 }).not.toBeNaN();
    expect(await page.getByRole('button', { name: 'Plant features' }).count()).toBe(0);
  });

  it('warns "No device found in the group." when a group without devices is opened for its dashboards', async () => {
    const page = await signedIn('water@fieldlink.test', /\/dash\/FTW-PLANT0[12]$/, 'FTW-PLANT01');
    const token = await apiToken(product.server.baseUrl, 'water@fieldlink.test');
    const tree = await callApi<{ accounts: { id: string; rootGroup: { id: string } }[] }>(
      product.server.baseUrl,
      'GET',
      '/account',
      token,
    );
    const account = tree.json.accounts[0]!;
    const added = await callApi<{ id: string }>(product.server.baseUrl, 'POST', '/group', token, {
      parentId: account.rootGroup.id,
      name: 'Planned intake',
    });
    expect(added.status).toBe(200);
    await page.goto(`${product.server.baseUrl}/dash/${account.id}/${added.json.id}`);
    await page.locator('.fl-toast--warning', { hasText: 'No device found in the group.' }).waitFor({ timeout: 30_000 });
  });
});
