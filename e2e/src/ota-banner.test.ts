import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { OTA_RELOAD_DELAY_MS } from '@fieldlink/domain/ota';
import { animationsDone, apiToken, callApi, launchBrowser, signInAs, startServer, type RunningServer } from './harness';

/**
 * The shell's banner and OTA updates in Chromium against the real product: disconnected devices (the
 * demo fleet is off), an update submitted from the device table's selection that then waits on the
 * administrators' pending list, approved there, and the banner while the web client reconnects after
 * the server went away.
 */
describe('banner and OTA updates', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  const shots = process.env.E2E_SCREENSHOTS;

  const api = (method: string, path: string, token: string | null, body?: unknown) =>
    callApi<unknown>(server.baseUrl, method, path, token, body);
  const tokenOf = (email: string) => apiToken(server.baseUrl, email);
  const banner = () => page.getByTestId('idle-banner');
  /** The device table with the OTA columns chosen; answers the text of each row's cells by device name. */
  const otaColumns = async () => {
    await page.evaluate(() =>
      localStorage.setItem(
        'deviceTableColumns',
        JSON.stringify(['name', 'otaStatus', 'updatePending', 'hasPendingUpdate']),
      ),
    );
    await page.goto(`${server.baseUrl}/accounts/list`);
    await page.getByTestId('device-table').waitFor({ timeout: 30_000 });
    return page.evaluate(() =>
      Object.fromEntries(
        Array.from(document.querySelectorAll('.dt-row')).map((row) => {
          const cells = Array.from(row.querySelectorAll('[role="cell"]')).map((cell) => cell.textContent ?? '');
          return [cells[1], cells.slice(2)];
        }),
      ),
    );
  };
  const screenshot = async (name: string) => {
    if (!shots) return;
    await animationsDone(page); // dialogs fade in
    await page.screenshot({ path: path.join(shots, `${name}.png`) });
  };

  beforeAll(async () => {
    // No simulated fleet: every demo device is disconnected.
    server = await startServer({
      FIELDLINK_SIMULATOR: '0',
      ...(process.env.E2E_WEB_DIST ? { WEB_DIST: process.env.E2E_WEB_DIST } : {}),
    });
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1360, height: 860 } });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('shows disconnected devices in the banner while the app is idle', async () => {
    await signInAs(page, server.baseUrl, 'brew@fieldlink.test');
    await page.waitForURL((url) => !url.pathname.startsWith('/signin') && !url.pathname.startsWith('/loading'), {
      timeout: 30_000,
    });
    await expect.poll(() => banner().textContent(), { timeout: 20_000 }).toMatch(/\d+ devices are disconnected\./);
    expect(await banner().boundingBox()).toMatchObject({ height: 40 });
    await expect(banner().getByRole('link', { name: 'View devices' }).count()).resolves.toBe(1);
    // Nothing awaits approval yet: no OTA part.
    expect(await banner().textContent()).not.toMatch(/OTA/);
  });

  it('submits an OTA update from the device table’s selection and lists the failures per device', async () => {
    await page.goto(`${server.baseUrl}/accounts/list`);
    await page.getByTestId('device-table').waitFor({ timeout: 30_000 });
    await page.getByRole('checkbox', { name: 'Select Fermenter FV1' }).check();
    const selection = page.getByRole('region', { name: 'Selection' });
    await selection.getByText('1 selected').waitFor();
    await selection.getByRole('button', { name: 'OTA update' }).click();
    const dialog = page.getByRole('dialog', { name: 'OTA update' });
    await dialog.getByLabel('Update command').fill('firmware 5.0.0');
    // An administrator may skip approval; left unticked, the update waits for approval.
    await expect(dialog.getByRole('checkbox', { name: /Skip approval/ }).isChecked()).resolves.toBe(false);
    await screenshot('ota-submit-dialog');
    await dialog.getByRole('button', { name: 'Submit for approval' }).click();
    await page
      .getByText('OTA update submitted for 1 device. It waits for an administrator’s approval.')
      .waitFor({ timeout: 10_000 });
    await expect
      .poll(() => banner().textContent(), { timeout: 10_000 })
      .toContain('1 device has a pending OTA update.');

    // The same device again, with a second one: the answer names the device that failed.
    await page.getByRole('checkbox', { name: 'Select Fermenter FV2' }).check();
    await selection.getByText('2 selected').waitFor();
    await selection.getByRole('button', { name: 'OTA update' }).click();
    await page.getByRole('dialog', { name: 'OTA update' }).getByLabel('Update command').fill('firmware 5.0.0');
    await page.getByRole('dialog', { name: 'OTA update' }).getByRole('button', { name: 'Submit for approval' }).click();
    const failures = page.getByRole('dialog', { name: 'OTA update submitted with failures' });
    await failures.waitFor({ timeout: 10_000 });
    await expect(failures.getByRole('list', { name: 'Failed devices' }).textContent()).resolves.toBe(
      'Fermenter FV1The device already has an OTA update in progress.',
    );
    await screenshot('ota-submit-failures');
    await failures.getByRole('button', { name: 'Close' }).last().click();
    await expect
      .poll(() => banner().textContent(), { timeout: 10_000 })
      .toContain('2 devices have pending OTA updates.');

    // The table's columns show it: OTA status, update pending, has pending update.
    // (The server keeps a built table for 10 s, then answers it once more while it builds the next.)
    await expect
      .poll(async () => (await otaColumns())['Fermenter FV1'], { timeout: 40_000, interval: 2_000 })
      .toEqual(['Awaiting approval', 'Yes', 'No']);
    expect((await otaColumns())['Bright tank BT1']).toEqual(['—', 'No', 'No']);
    await screenshot('ota-device-table');
  });

  it('lets an administrator review the pending list from the banner and approve', async () => {
    await banner().getByRole('button', { name: 'Review' }).click();
    const dialog = page.getByRole('dialog', { name: 'Pending OTA updates' });
    // The device's row in the list awaiting approval (its rollout, below, names it too).
    await dialog.getByRole('table').getByText('Fermenter FV1').waitFor();
    await expect(dialog.getByRole('row').count()).resolves.toBe(3);
    await expect(dialog.getByText('brew@fieldlink.test').count()).resolves.toBe(2);
    await screenshot('ota-pending-dialog');
    await dialog.getByRole('button', { name: 'Approve Fermenter FV1' }).click();
    await page.getByText('OTA update approved.').waitFor({ timeout: 10_000 });
    await expect.poll(() => dialog.getByRole('row').count(), { timeout: 10_000 }).toBe(2);
    await expect
      .poll(() => banner().textContent(), { timeout: 10_000 })
      .toContain('1 device has a pending OTA update.');
    await dialog.getByRole('button', { name: 'Approve all' }).click();
    await dialog.getByText('No OTA update awaits approval.').waitFor({ timeout: 10_000 });
    await dialog.getByRole('button', { name: 'Close' }).last().click();
    await expect.poll(() => banner().textContent(), { timeout: 10_000 }).not.toMatch(/OTA/);
    // Approved: the device's update is released (queued until it is online).
    const token = await tokenOf('brew@fieldlink.test');
    expect((await api('GET', '/devices/ota-pending', token)).json).toEqual({ devices: [] });
    // Released, and queued until the device comes online: no longer pending approval, on its way.
    await expect
      .poll(async () => (await otaColumns())['Fermenter FV1'], { timeout: 40_000, interval: 2_000 })
      .toEqual(['Queued', 'No', 'Yes']);
  });

  it('does not show the pending list to users who are not administrators', async () => {
    const admin = await tokenOf('admin@fieldlink.test');
    const accounts = (await api('GET', '/account', admin)).json as { accounts: { name: string }[] };
    expect(accounts.accounts.length).toBeGreaterThan(0);
    const viewer = await tokenOf('viewer@fieldlink.test');
    expect((await api('GET', '/devices/ota-pending', viewer)).status).toBe(403);
    const submitted = await api('POST', '/devices/ota-submit', viewer, {
      deviceIds: ['x'],
      updateCommand: 'firmware 1.0',
    });
    expect(submitted.status).toBe(403);
  });

  it('says the web client is reconnecting when the cloud goes away', async () => {
    await page.goto(`${server.baseUrl}/accounts/list`);
    await page.getByTestId('device-table').waitFor({ timeout: 30_000 });
    await expect.poll(() => page.getByTestId('connection-status').textContent(), { timeout: 15_000 }).toBe('Connected');
    await server.stop();
    await expect
      .poll(() => banner().textContent(), { timeout: 20_000 })
      .toMatch(/^Connection to the cloud was lost\. Reconnecting/);
    expect(await banner().getAttribute('role')).toBe('alert');
    expect(await banner().boundingBox()).toMatchObject({ height: 40 });
    await screenshot('ota-banner-reconnecting');
  });
});

/**
 * Issue 35 item 9, as the demo brewer with the simulated fleet running: an update sent without
 * waiting for approval succeeds; the banner then says nothing of pending updates (Review offered
 * Approve on devices already updated), and the device table shows the new firmware live and keeps it
 * when the console reads the table again 30 s after the update (it went back to the old firmware).
 */
describe('an OTA update that succeeds', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  const banner = () => page.getByTestId('idle-banner');
  /** The cells after the name (firmware, OTA status) of each row of the open table, by device name. */
  const rows = () =>
    page.evaluate(() =>
      Object.fromEntries(
        Array.from(document.querySelectorAll('.dt-row')).map((row) => {
          const cells = Array.from(row.querySelectorAll('[role="cell"]')).map((cell) => cell.textContent ?? '');
          return [cells[1], cells.slice(2)];
        }),
      ),
    );

  beforeAll(async () => {
    server = await startServer(process.env.E2E_WEB_DIST ? { WEB_DIST: process.env.E2E_WEB_DIST } : {});
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1360, height: 860 } });
    // The page's clock, which runs as the real one until the test moves it on: the console's read of the
    // table 30 s after the update is reached at once instead of waited for (docs/decisions.md, "Issue
    // 37 item 7: the e2e files' order").
    await page.clock.install();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('leaves the banner once done and shows the new firmware without a reload', async () => {
    await signInAs(page, server.baseUrl, 'brew@fieldlink.test');
    await page.waitForURL((url) => !url.pathname.startsWith('/signin') && !url.pathname.startsWith('/loading'), {
      timeout: 30_000,
    });
    await page.evaluate(() => localStorage.setItem('deviceTableColumns', JSON.stringify(['name', 'fw', 'otaStatus'])));
    await page.goto(`${server.baseUrl}/accounts/list`);
    await page.getByTestId('device-table').waitFor({ timeout: 30_000 });
    // The fleet is connected and has told its firmware.
    await expect
      .poll(async () => (await rows())['Fermenter FV1']?.[0] ?? '', { timeout: 60_000, interval: 1_000 })
      .toMatch(/^\d+\.\d+/);
    const before = (await rows())['Fermenter FV1']![0];
    expect(before).not.toBe('5.1.0');

    // Both fermenters, sent at once (the simulated devices succeed with this command).
    await page.getByRole('checkbox', { name: 'Select Fermenter FV1' }).check();
    await page.getByRole('checkbox', { name: 'Select Fermenter FV2' }).check();
    const selection = page.getByRole('region', { name: 'Selection' });
    await selection.getByText('2 selected').waitFor();
    await selection.getByRole('button', { name: 'OTA update' }).click();
    const dialog = page.getByRole('dialog', { name: 'OTA update' });
    // The fleet reports its firmware, so the dialog offers those versions; this one is typed.
    await dialog.getByRole('button', { name: 'Advanced: enter an update command' }).click();
    await dialog.getByLabel('Update command').fill('firmware 5.1.0');
    await dialog.getByRole('checkbox', { name: /Skip approval/ }).check();
    await dialog.getByRole('button', { name: 'Send update' }).click();
    await dialog.waitFor({ state: 'hidden', timeout: 10_000 });

    // Done: the table shows the new firmware live, and the banner lets the devices go.
    await expect
      .poll(async () => [(await rows())['Fermenter FV1'], (await rows())['Fermenter FV2']], {
        timeout: 90_000,
        interval: 1_000,
      })
      .toEqual([
        ['5.1.0', 'Succeeded'],
        ['5.1.0', 'Succeeded'],
      ]);
    // From here the console's next read of the table is a read after the update: 30 s after it
    // finished (the table feed told the shell it ended).
    const reread = page.waitForResponse((response) => response.url().includes('/api/v1/devices/table'), {
      timeout: 90_000,
    });
    // The table feed told the shell the updates ended: the banner reads its count again at once, not
    // at its minute's refresh (it used to say an update was pending for up to a minute after it ended).
    await expect
      .poll(async () => (await banner().count()) === 0 || !/OTA/.test((await banner().textContent()) ?? ''), {
        timeout: 15_000,
        interval: 1_000,
      })
      .toBe(true);

    // The console reads the table again 30 s after the update (its clock moved past them): the
    // firmware stays the new one.
    await page.clock.fastForward(OTA_RELOAD_DELAY_MS);
    await reread;
    await expect
      .poll(async () => [(await rows())['Fermenter FV1']?.[0], (await rows())['Fermenter FV2']?.[0]], {
        timeout: 5_000,
      })
      .toEqual(['5.1.0', '5.1.0']);
    await expect(page.getByRole('button', { name: 'Review' }).count()).resolves.toBe(0);
  }, 300_000);
});
