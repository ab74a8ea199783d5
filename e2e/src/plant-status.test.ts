import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt, { type MqttClient } from 'mqtt';
import type { Page } from 'playwright-core';
import { apiToken, callApi, sessionPage, useProduct } from './harness';

/**
 * Issue 36 item 3, a plant's state at a glance, in Chromium against the real server: a water plant
 * of Filtec Water provisioned for the test and driven over MQTT as its controller would, so each
 * state is the test's doing. Its generated dashboard opens with the status line, which follows the
 * plant: Running, In alarm (the alarm named, with how long it has been active, and its tile first),
 * Stopped (with why water still flows), Offline.
 */
describe('plant status line', () => {
  const product = useProduct({ FIELDLINK_SIMULATOR: '0' });
  let device: MqttClient;
  let thingName: string;

  const publish = (values: Record<string, number>) =>
    device.publishAsync(`dev/${thingName}/up`, JSON.stringify({ v: 4, type: 'log', t: Date.now(), values }), {
      qos: 1,
    });
  const connect = async (password: string) => {
    device = await mqtt.connectAsync(`mqtt://127.0.0.1:${product.server.mqttPort}`, {
      clientId: thingName,
      username: thingName,
      password,
      reconnectPeriod: 0,
    });
  };

  beforeAll(async () => {
    const base = product.server.baseUrl;
    const water = await apiToken(base, 'water@fieldlink.test');
    const accounts = (await callApi<{ accounts: { id: string; name: string }[] }>(base, 'GET', '/account', water)).json
      .accounts;
    const filtec = accounts.find((account) => account.name === 'Filtec Water')!;
    const admin = await apiToken(base, 'admin@fieldlink.test');
    const provisioned = await callApi<{ device: { id: string }; credentials: { thingName: string; password: string } }>(
      base,
      'POST',
      '/device',
      admin,
      { name: 'Status test plant', accountId: filtec.id },
    );
    expect(provisioned.status).toBe(200);
    thingName = provisioned.json.credentials.thingName;
    const tagged = await callApi(base, 'PUT', '/device/tag', water, {
      deviceId: provisioned.json.device.id,
      key: 'filtecConfig',
      value: 'waterTank',
    });
    expect(tagged.status).toBe(200);
    await connect(provisioned.json.credentials.password);
  }, 120_000);
  afterAll(async () => {
    await device?.endAsync(true).catch(() => undefined);
  });

  const status = (page: Page) => page.getByTestId('plant-status');
  const figure = (page: Page, label: string) =>
    status(page).locator('.plant-status__figure').filter({ hasText: label }).locator('dd');

  it('says Running, In alarm with the alarm and its age, Stopped with why water flows, and Offline', async () => {
    await publish({ do1: 1, a1: 70.4, a16: 81, c2: 4.42, c3: 1.48, s1: 0, s2: 0, s3: 0, s4: 0, xdo1: 0 });
    const page = await sessionPage(
      product.browser,
      product.server.baseUrl,
      'water@fieldlink.test',
      `/dash/${thingName}`,
    );
    await page.getByTestId('plant-dashboard').waitFor({ timeout: 30_000 });

    await expect.poll(() => status(page).getAttribute('data-state'), { timeout: 30_000 }).toBe('Running');
    await expect.poll(() => status(page).getByRole('status').textContent()).toBe('Running');
    expect(await figure(page, 'Plant run').textContent()).toBe('On');
    expect(await figure(page, 'Flow').textContent()).toBe('70.4 L/min');
    expect(await figure(page, 'Tank level').textContent()).toBe('81 %');
    expect(await figure(page, 'Inlet pressure').textContent()).toBe('4.42 bar');
    expect(await figure(page, 'Outlet pressure').textContent()).toBe('1.48 bar');
    expect(await status(page).getByText('No active alarms').count()).toBe(1);
    // No alarm on: every tile is in the group of normal ones.
    const alarmsSection = page.getByRole('region', { name: 'Alarms' });
    expect(await alarmsSection.getByTestId('plant-alarms-normal').locator('summary').textContent()).toMatch(
      /^\d+ alarms normal$/,
    );

    // The UV dose falls low: the plant is in alarm, the alarm named with how long it has been on.
    await publish({ s4: 1, t5: 41 });
    await expect.poll(() => status(page).getAttribute('data-state'), { timeout: 30_000 }).toBe('In alarm');
    const alarms = status(page).getByRole('list', { name: 'Active alarms' });
    await expect.poll(() => alarms.textContent()).toBe('UV dose low active under a minute');
    // Its tile leads the Alarms section, outside the group of normal ones.
    const firstTile = alarmsSection.locator('article[data-widget-id]').first();
    expect(await firstTile.getAttribute('data-widget-id')).toBe('alarm-s4');
    expect(
      await alarmsSection.getByTestId('plant-alarms-normal').locator('article[data-widget-id="alarm-s4"]').count(),
    ).toBe(0);
    await page.screenshot({ path: 'test-results/plant-status-alarm.png' });

    // Alarm reset, plant stopped while the town still draws from the tank: Stopped, and why.
    await publish({ s4: 0, t5: 55, do1: 0, a1: 57.9 });
    await expect.poll(() => status(page).getAttribute('data-state'), { timeout: 30_000 }).toBe('Stopped');
    expect(await figure(page, 'Plant run').textContent()).toBe('Off');
    await expect.poll(() => figure(page, 'Flow').textContent()).toBe('57.9 L/min');
    expect(await status(page).locator('.plant-status__note').textContent()).toBe(
      'Plant stopped: the supply flow is drawn from the storage tank, which the plant refills when it runs.',
    );

    // The controller drops off: Offline, its figures the last it reported.
    await device.endAsync(true);
    await expect.poll(() => status(page).getAttribute('data-state'), { timeout: 30_000 }).toBe('Offline');
    expect(await status(page).locator('.plant-status__note').textContent()).toBe(
      'Not connected: the figures are the last the plant reported.',
    );
  });
});
