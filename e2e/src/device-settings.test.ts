import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import type { Browser, Locator, Page } from 'playwright-core';
import {
  apiToken,
  callApi,
  closeTestContexts,
  holdRequests,
  launchBrowser,
  signInAs,
  startServer,
  type RunningServer,
} from './harness';

/**
 * Device settings (application §2) in Chromium against the real product: the demo administrator
 * changes a channel name and the upload interval of a simulated device and sees them pending, then
 * applied by the device; for an offline device the changes wait as unsent messages.
 */
describe('device settings', () => {
  let server: RunningServer;
  let browser: Browser;
  /** A device provisioned for the test, which reports its configuration once and goes offline. */
  let offline: { id: string; thingName: string };

  const openSettings = async (thingName: string): Promise<Page> => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
    const page = await context.newPage();
    await signInAs(page, server.baseUrl, 'admin@fieldlink.test');
    await page.waitForURL((url) => !url.pathname.startsWith('/signin') && !url.pathname.startsWith('/loading'), {
      timeout: 30_000,
    });
    await page.goto(`${server.baseUrl}/dash/${thingName}`);
    await page.getByRole('button', { name: 'Device settings' }).click();
    await setting(page, 'uploadInterval').locator('input').waitFor({ timeout: 30_000 });
    return page;
  };
  const setting = (page: Page, key: string): Locator => page.getByTestId(`setting-${key}`);
  const expectState = async (field: Locator, state: string) =>
    expect.poll(() => field.getAttribute('data-state'), { timeout: 20_000 }).toBe(state);

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    const admin = await apiToken(server.baseUrl, 'admin@fieldlink.test');
    const ops = await apiToken(server.baseUrl, 'ops@fieldlink.test');
    const provisioned = await callApi<{
      device: { id: string; thingName: string };
      credentials: { thingName: string; password: string };
    }>(server.baseUrl, 'POST', '/device', ops, { name: 'Spare compressor' });
    expect(provisioned.status, JSON.stringify(provisioned.json)).toBe(200);
    expect(admin).toBeTruthy();
    const { device, credentials } = provisioned.json;
    offline = device;
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${server.mqttPort}`, {
      clientId: credentials.thingName,
      username: credentials.thingName,
      password: credentials.password,
      reconnectPeriod: 0,
    });
    const up = (frame: object) =>
      client.publishAsync(`dev/${credentials.thingName}/up`, JSON.stringify(frame), { qos: 1 });
    await up({ v: 4, type: 'conn', t: Date.now(), connected: true });
    await up({
      v: 4,
      type: 'config',
      subtype: 'device',
      uploadInterval: 1,
      logInterval: 60,
      timeDate: { tzName: 'America/Chicago', tzRule: 'CST6CDT,M3.2.0,M11.1.0' },
      channels: [{ code: 'c1', name: 'Suction pressure', upload: true, alarm: false }],
    });
    await up({ v: 4, type: 'conn', t: Date.now(), connected: false });
    await client.endAsync();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  closeTestContexts(() => browser);

  it('applies a channel name and an upload interval: pending, then the value the device reports', async () => {
    const page = await openSettings('ACME-COLD01');
    const upload = setting(page, 'uploadInterval');
    const name = setting(page, 'channel:c1:name');
    await expectState(upload, 'value');
    await expect.poll(() => upload.locator('input').inputValue()).toBe('1');

    // Hold the Apply call until its pending state has been seen.
    const releaseApply = await holdRequests(page, '**/api/v1/device-config');
    await name.locator('input').fill('Supply air');
    await upload.locator('input').fill('5');
    await expectState(upload, 'changed');
    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    await expectState(upload, 'spinning');
    await expectState(name, 'spinning');
    expect(await page.getByRole('button', { name: 'Applying' }).isDisabled()).toBe(true);
    releaseApply();

    // The simulated device applies both and sends its configuration again.
    await expectState(upload, 'value');
    await expectState(name, 'value');
    expect(await upload.locator('input').inputValue()).toBe('5');
    expect(await name.locator('input').inputValue()).toBe('Supply air');
    await expect
      .poll(() => page.getByTestId('settings-courtesy').textContent())
      .toContain('2 changes sent; each shows its new value once the device reports it.');
    // The dash names the channel by its new name.
    await page.getByRole('article', { name: 'Supply air' }).waitFor({ timeout: 20_000 });

    // After a reload the device record says the same.
    await page.unroute('**/api/v1/device-config');
    await page.reload();
    await page.getByRole('button', { name: 'Device settings' }).click();
    await expect
      .poll(() => setting(page, 'uploadInterval').locator('input').inputValue(), { timeout: 30_000 })
      .toBe('5');
  }, 120_000);

  it('queues changes for an offline device and shows them as unsent messages', async () => {
    const page = await openSettings(offline.thingName);
    await page.getByText('The device is offline. Changes you apply are queued').waitFor();
    const upload = setting(page, 'uploadInterval');
    await expect.poll(() => upload.locator('input').inputValue(), { timeout: 20_000 }).toBe('1');
    await upload.locator('input').fill('15');
    await setting(page, 'timeZone').locator('select').selectOption('Australia/Brisbane');
    await page.getByRole('button', { name: 'Apply', exact: true }).click();

    await expect
      .poll(() => page.getByTestId('settings-courtesy').textContent(), { timeout: 20_000 })
      .toContain('The device is offline: 2 changes will be sent when it reconnects.');
    await expectState(upload, 'queued');
    await expectState(setting(page, 'timeZone'), 'queued');
    const unsent = page.getByTestId('unsent-messages');
    await expect
      .poll(() => unsent.textContent(), { timeout: 20_000 })
      .toContain('Channel and interval settings: upload interval');
    await expect.poll(() => unsent.textContent()).toContain('Time zone Australia/Brisbane');

    // Still there for the next person: the device record carries its unsent messages.
    const ops = await apiToken(server.baseUrl, 'ops@fieldlink.test');
    const read = await callApi<{ settings: { unsentMessages: { message: { cmd: string } }[] } }>(
      server.baseUrl,
      'GET',
      `/device?id=${offline.id}`,
      ops,
    );
    expect(read.json.settings.unsentMessages.map((queued) => queued.message.cmd)).toEqual(['writeConfig', 'timeDate']);
  }, 120_000);
});
