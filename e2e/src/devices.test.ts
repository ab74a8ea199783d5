import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import type { Browser, Page } from 'playwright-core';
import {
  apiToken,
  callApi,
  closeTestContexts,
  holdRequests,
  launchBrowser,
  openDash,
  sessionPage,
  startServer,
  type RunningServer,
  useProduct,
} from './harness';
import { startMapServer, type MapServer } from './devices-map-server';

/** The device pages in Chromium against the real product, with tiles and a geocoder on loopback. */
describe('devices: general-information panel, map and commands', () => {
  let server: RunningServer;
  let map: MapServer;
  let browser: Browser;

  const api = (method: string, path: string, token: string | null, body?: unknown) =>
    callApi(server.baseUrl, method, path, token, body);
  const tokenOf = (email: string) => apiToken(server.baseUrl, email);
  /** A device's dash, opened by a browser that holds `email`'s session (the sign-in is not what is tested). */
  const dashPage = async (email: string, thingName: string): Promise<Page> => {
    const page = await sessionPage(browser, server.baseUrl, email, `/dash/${thingName}`, {
      viewport: { width: 1360, height: 900 },
    });
    await page.getByRole('heading', { name: 'General information' }).waitFor({ timeout: 30_000 });
    return page;
  };

  /** A device provisioned for the test, which reports a setpoint once and then goes offline. */
  let offline: { id: string; thingName: string };

  beforeAll(async () => {
    map = await startMapServer();
    server = await startServer({ MAP_TILE_URL: map.tileUrl, MAP_KEY: 'e2e-map-key', GEOCODER_URL: map.geocoderUrl });
    browser = await launchBrowser();
    const ops = await tokenOf('ops@fieldlink.test');
    const provisioned = await api('POST', '/device', ops, { name: 'Spare chiller' });
    const { device, credentials } = provisioned.json as {
      device: { id: string; thingName: string };
      credentials: { thingName: string; password: string };
    };
    offline = device;
    await api('POST', '/device-config', ops, {
      id: device.id,
      props: { location: { lat: 32.79, lng: -96.81, address: 'Loading dock' } },
    });
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${server.mqttPort}`, {
      clientId: credentials.thingName,
      username: credentials.thingName,
      password: credentials.password,
      reconnectPeriod: 0,
    });
    await client.publishAsync(
      `dev/${credentials.thingName}/up`,
      JSON.stringify({ v: 4, type: 'log', t: Date.now(), values: { c1: 4.2, sp1: 5 } }),
      { qos: 1 },
    );
    await client.publishAsync(
      `dev/${credentials.thingName}/up`,
      JSON.stringify({ v: 4, type: 'conn', t: Date.now(), connected: false }),
      { qos: 1 },
    );
    await client.endAsync();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await map?.close();
  });
  closeTestContexts(() => browser);

  it('edits and applies a device’s name and location; both are there after a reload', async () => {
    const page = await dashPage('ops@fieldlink.test', 'ACME-COLD01');
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Name').fill('Freezer room A');
    await page.getByLabel('Search for new address').fill('Main');
    const option = page.getByRole('option', { name: '200 Main Street, Dallas, TX, USA' });
    await option.waitFor();
    expect(await page.getByRole('option').count()).toBeLessThanOrEqual(10);
    await option.click();
    await expect(page.getByLabel('Latitude').inputValue()).resolves.toBe('32.78');
    await expect(page.getByLabel('Longitude').inputValue()).resolves.toBe('-96.8');
    const query = map.queries().at(-1)!;
    expect([query.get('q'), query.get('limit'), query.get('viewbox')?.split(',').length]).toEqual(['Main', '10', 4]);

    // Hold the call until "Applying" has been seen.
    const releaseApply = await holdRequests(page, '**/api/v1/device-config');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByRole('button', { name: 'Applying' }).waitFor();
    releaseApply();
    await page.getByRole('button', { name: 'Edit' }).waitFor();
    await page.reload();
    await page.getByTestId('attr-name').getByText('Freezer room A').waitFor({ timeout: 30_000 });
    await page.getByTestId('attr-location').getByText('200 Main Street, Dallas, TX, USA').waitFor();
    await page.getByTestId('attr-location').getByText('32.780000, -96.800000').waitFor();
  });

  it('changes nothing on Discard', async () => {
    const page = await dashPage('ops@fieldlink.test', 'ACME-COLD02');
    const before = await page.getByTestId('attr-name').textContent();
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Name').fill('Should not be saved');
    await page.getByLabel('Latitude').fill('1');
    await page.getByRole('button', { name: 'Discard' }).click();
    expect(await page.getByTestId('attr-name').textContent()).toBe(before);
    await page.reload();
    await page.getByTestId('attr-name').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('attr-name').textContent()).toBe(before);
  });

  it('says when a location would not be saved for want of a coordinate, and only then', async () => {
    const page = await dashPage('ops@fieldlink.test', 'ACME-COLD02');
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Latitude').fill('32.5');
    expect(await page.getByTestId('location-incomplete').count()).toBe(0);
    await page.getByLabel('Longitude').fill('');
    await page
      .getByTestId('location-incomplete')
      .getByText('Enter both latitude and longitude: the location is saved only with both.')
      .waitFor();
    await page.getByLabel('Longitude').fill('-96.8');
    await page.getByTestId('location-incomplete').waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Discard' }).click();
  });

  it('shows the mute spinner until the server confirms, then the mute icon', async () => {
    const page = await dashPage('viewer@fieldlink.test', 'ACME-BLR02');
    await page.getByRole('button', { name: 'Edit' }).click();
    const releaseMute = await holdRequests(page, '**/api/v1/device-config');
    await page.getByLabel('Mute Disconnection').check();
    await page.getByRole('status', { name: 'Saving mute setting' }).waitFor();
    releaseMute();
    await page.getByRole('status', { name: 'Saving mute setting' }).waitFor({ state: 'detached' });
    expect(await page.getByLabel('Mute Disconnection').isChecked()).toBe(true);
    await page.getByTestId('muted-icon').waitFor();
    // A viewer may mute but not rename.
    expect(await page.getByLabel('Name').isDisabled()).toBe(true);
  });

  it('shows the Device Plan row to admins only, and Change tells them to contact the supplier', async () => {
    const ops = await dashPage('ops@fieldlink.test', 'ACME-BLR01');
    expect(await ops.getByTestId('attr-plan').count()).toBe(0);
    await ops.getByRole('button', { name: 'Edit' }).click();
    expect(await ops.getByTestId('plan-row').count()).toBe(0);

    const admin = await dashPage('admin@fieldlink.test', 'ACME-BLR01');
    await admin.getByTestId('attr-plan').getByText('Premium').waitFor();
    await admin.getByRole('button', { name: 'Edit' }).click();
    await admin.getByTestId('plan-row').getByRole('button', { name: 'Change' }).click();
    await admin.getByText('Please contact your supplier to change your device plan.').waitFor();
  });

  it('writes a setpoint: it reaches the simulated device and its new value comes back', async () => {
    const page = await dashPage('ops@fieldlink.test', 'ACME-BLR01');
    const value = page.getByTestId('channel-value-sp1');
    await value.waitFor({ timeout: 30_000 });
    // The value carries the unit the device gives the channel.
    const target = (await value.textContent()) === '23 °C' ? '22' : '23';
    await page.getByLabel('New value for Heating setpoint').fill(target);
    await page.getByRole('button', { name: 'Set' }).first().click();
    // Select before operate (issue 36): the write is confirmed first.
    await page
      .getByRole('dialog', { name: 'Change setpoint?' })
      .getByRole('button', { name: 'Change setpoint' })
      .click();
    await page.waitForFunction(
      (wanted) => document.querySelector('[data-testid="channel-value-sp1"]')?.textContent === wanted,
      `${target} °C`,
      { timeout: 15_000 },
    );
  });

  it('fails a write to an offline device with the specification’s message', async () => {
    const page = await dashPage('ops@fieldlink.test', offline.thingName);
    await page.getByTestId('panel-connection').getByText('Offline').waitFor();
    await page.getByLabel('New value for SP_1').fill('7');
    await page.getByRole('button', { name: 'Set', exact: true }).click();
    await page
      .getByRole('dialog', { name: 'Change setpoint?' })
      .getByRole('button', { name: 'Change setpoint' })
      .click();
    await page.getByTestId('write-error-sp1').getByText('Timeout when waiting for response.').waitFor();
  });

  // The first-day bug: the console keeps a device's live state after its dash closes, and it overrides
  // the record; a device that dropped meanwhile showed Online on the dash again until it changed again.
  it('shows a device that dropped while its dash was closed as offline when the dash opens again', async () => {
    const ops = await tokenOf('ops@fieldlink.test');
    const { device, credentials } = (await api('POST', '/device', ops, { name: 'Returning pump' })).json as {
      device: { id: string; thingName: string };
      credentials: { thingName: string; password: string };
    };
    const page = await dashPage('ops@fieldlink.test', device.thingName);
    const badge = page.getByTestId('panel-connection');
    await badge.getByText('Offline').waitFor();
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${server.mqttPort}`, {
      clientId: credentials.thingName,
      username: credentials.thingName,
      password: credentials.password,
      reconnectPeriod: 0,
    });
    // Pushed to the open dash: the console now holds the device's live state.
    await badge.getByText('Online').waitFor({ timeout: 15_000 });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Accounts' }).click();
    // Gone from the screen, so unwatched (the dash stays while the next page's code loads).
    await page.getByRole('heading', { name: 'General information' }).waitFor({ state: 'detached' });
    await client.publishAsync(
      `dev/${credentials.thingName}/up`,
      JSON.stringify({ v: 4, type: 'conn', t: Date.now(), connected: false }),
      { qos: 1 },
    );
    await client.endAsync();
    await expect
      .poll(async () => (await api('GET', `/device?id=${device.id}`, ops)).json)
      .toMatchObject({ isConnected: false });
    // Back to the dash in the same page (no reload): its watch starts again.
    await page.goBack();
    await page.getByRole('heading', { name: 'General information' }).waitFor();
    await expect.poll(() => badge.textContent()).toBe('Offline');
  });

  it('shows a green marker for a connected device and a red one for a disconnected device', async () => {
    const page = await dashPage('ops@fieldlink.test', 'ACME-BLR01');
    await page.locator('.device-marker--green').waitFor({ timeout: 15_000 });
    expect(await page.locator('.device-marker--red').count()).toBe(0);
    await page.locator('.device-marker--green').click();
    await page.locator('.device-marker__popup').getByText('Serial Number:').waitFor();
    expect(map.tileRequests()).toBeGreaterThan(0);

    await openDash(page, server.baseUrl, offline.thingName);
    await page.locator('.device-marker--red').waitFor({ timeout: 15_000 });
    expect(await page.locator('.device-marker--green').count()).toBe(0);
    await page.screenshot({ path: 'test-results/device-panel-offline.png' });
  });
});

describe('devices: with a tile source but no maps key, and no geocoder', () => {
  // A tile URL alone does not show the map: §2 and §5 need a non-blank maps key.
  const product = useProduct({ MAP_TILE_URL: 'http://127.0.0.1:9/tiles/{z}/{x}/{y}.png', MAP_KEY: '  ' });

  it('hides the map and the address search', async () => {
    const page = await sessionPage(product.browser, product.server.baseUrl, 'ops@fieldlink.test', '/dash/ACME-BLR01');
    await page.getByRole('heading', { name: 'General information' }).waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Latitude').waitFor();
    expect(await page.getByTestId('device-map').count()).toBe(0);
    expect(await page.getByLabel('Search for new address').count()).toBe(0);
  });
});
