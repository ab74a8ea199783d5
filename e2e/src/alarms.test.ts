import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt, { type MqttClient } from 'mqtt';
import type { Browser, Page } from 'playwright-core';
import { apiToken, callApi, launchBrowser, signInAs, startServer, type RunningServer } from './harness';

/**
 * Alarms in Chromium against the real product: a threshold set in a channel's Alarm dialog, a value
 * published over MQTT that crosses it, the alarm on /alarms acknowledged there, and the device's
 * disconnection on /alerts.
 */
describe('alarms and alerts pages', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let device: MqttClient;
  let thingName: string;

  const api = (method: string, path: string, token: string | null, body?: unknown) =>
    callApi(server.baseUrl, method, path, token, body);
  const tokenOf = (email: string) => apiToken(server.baseUrl, email);
  const publish = (values: Record<string, number>) =>
    device.publishAsync(`dev/${thingName}/up`, JSON.stringify({ v: 4, type: 'log', t: Date.now(), values }), {
      qos: 1,
    });

  beforeAll(async () => {
    server = await startServer({ FIELDLINK_DISCONNECT_ALERT_SECONDS: '0', FIELDLINK_SIMULATOR: '0' });
    browser = await launchBrowser();
    // A pump of Orchard Spray Co, provisioned by the supplier's administrator for this test.
    const spray = await tokenOf('spray@fieldlink.test');
    const accounts = (await api('GET', '/account', spray)).json.accounts as { id: string; name: string }[];
    const orchard = accounts.find((account) => account.name === 'Orchard Spray Co')!;
    const admin = await tokenOf('admin@fieldlink.test');
    const provisioned = (await api('POST', '/device', admin, { name: 'Alarm test pump', accountId: orchard.id }))
      .json as { credentials: { thingName: string; password: string } };
    thingName = provisioned.credentials.thingName;
    device = await mqtt.connectAsync(`mqtt://127.0.0.1:${server.mqttPort}`, {
      clientId: thingName,
      username: thingName,
      password: provisioned.credentials.password,
      reconnectPeriod: 0,
    });
    await publish({ c1: 20 });

    const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    page = await context.newPage();
    await signInAs(page, server.baseUrl, 'spray@fieldlink.test');
    // The spray app lands on its overview.
    await page.waitForURL(/\/spray\/[^/]+$/, { timeout: 30_000 });
  }, 120_000);
  afterAll(async () => {
    await device?.endAsync(true).catch(() => undefined);
    await browser?.close();
    await server?.stop();
  });

  it('sets a threshold in the channel’s Alarm dialog; a value crossing it appears on /alarms and is acknowledged there', async () => {
    await page.goto(`${server.baseUrl}/dash/${thingName}`);
    await page
      .getByRole('button', { name: /^Alarm: / })
      .first()
      .click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('High threshold').fill('50');
    await dialog.getByLabel('Hysteresis').fill('2');
    await page.screenshot({ path: 'test-results/alarm-dialog.png' });
    await dialog.getByRole('button', { name: 'Save alarm' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: /^Alarm set: / }).waitFor();

    // The demo's own alarms waiting for someone (issue 35 item 11: the spray account seeds one).
    await page.goto(`${server.baseUrl}/alarms`);
    const navCount = async () =>
      (await page.getByTestId('alarm-nav-count').count()) === 0
        ? 0
        : Number(await page.getByTestId('alarm-nav-count').textContent());
    await page
      .getByRole('row', { name: /Sprayer/ })
      .first()
      .waitFor({ timeout: 20_000 });
    const seeded = await navCount();
    expect(seeded).toBeGreaterThanOrEqual(1);

    await publish({ c1: 57 });
    await page.goto(`${server.baseUrl}/alarms`);
    const row = page.getByRole('row', { name: /Alarm test pump/ });
    await row.waitFor({ timeout: 20_000 });
    expect(await row.textContent()).toContain('57 above 50');
    expect(await row.textContent()).toContain('Active');
    await expect.poll(navCount, { timeout: 10_000 }).toBe(seeded + 1);
    await page.screenshot({ path: 'test-results/alarms-page.png' });

    await row.getByRole('button', { name: 'Acknowledge' }).click();
    await row.getByText('Active, acknowledged').waitFor();
    expect(await row.textContent()).toContain('spray@fieldlink.test');
    await expect.poll(navCount, { timeout: 10_000 }).toBe(seeded);

    // Back below the threshold minus the hysteresis: cleared, and gone from the current alarms.
    await publish({ c1: 47 });
    await page.getByRole('button', { name: 'History' }).click();
    await page
      .getByRole('row', { name: /Alarm test pump/ })
      .getByText('Cleared', { exact: true })
      .waitFor({
        timeout: 20_000,
      });
  });

  it('shows the device’s disconnection on /alerts', async () => {
    await device.endAsync(true);
    await page.goto(`${server.baseUrl}/alerts`);
    const alert = page.getByRole('listitem').filter({ hasText: 'Alarm test pump' });
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Refresh' }).click();
          return alert.count();
        },
        { timeout: 20_000, interval: 1000 },
      )
      .toBe(1);
    expect(await alert.textContent()).toContain('Disconnected');
    await page.screenshot({ path: 'test-results/alerts-page.png' });
  });
});
