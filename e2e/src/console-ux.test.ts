import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { formatDateTime } from '@fieldlink/domain/date-format';
import { seedFromText } from '@fieldlink/simulation/seeded-random';
import {
  animationsDone,
  apiCallsAnswered,
  apiToken,
  callApi,
  closeTestContexts,
  launchBrowser,
  sessionLanding,
  sessionPage,
  signInAs,
  startServer,
  trackApiCalls,
  type RunningServer,
  type SessionOptions,
} from './harness';

/**
 * The console as its users find it (issue 14): the device dash leads with live channels, every value
 * carries its unit and full name, each unit gets its own y axis, dates are day first in one stated
 * time zone, and signing in again lands on the device last opened.
 */
describe('console as its users find it', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  // A test that fails leaves no page running beside the next ones (a shared page of a `beforeAll` stays).
  closeTestContexts(() => browser);

  const newPage = async (width: number, height: number): Promise<Page> => {
    const context = await browser.newContext({ viewport: { width, height } });
    trackApiCalls(context);
    return context.newPage();
  };
  /** A page of a browser that holds the user's session, at `path` (tests of the sign-in use `signInAs`). */
  const signedIn = (email: string, path: string, options?: SessionOptions): Promise<Page> =>
    sessionPage(browser, server.baseUrl, email, path, options);
  /** The same, at the user's landing page (`sessionLanding`). */
  const landedAs = (email: string, options?: Parameters<typeof sessionLanding>[3]): Promise<Page> =>
    sessionLanding(browser, server.baseUrl, email, {
      ...options,
      prepare: async (context) => trackApiCalls(context),
    });

  it('leads the device dash with live channels at 1440x900, each value with its unit and whole name', async () => {
    const page = await signedIn('viewer@fieldlink.test', '/dash/ACME-BLR01');
    const value = page.getByTestId('channel-value-c1');
    await page.waitForFunction(
      () => /\d/.test(document.querySelector('[data-testid="channel-value-c1"]')?.textContent ?? ''),
      undefined,
      { timeout: 30_000 },
    );
    // The unit comes with the channel's configuration, which may follow the first value by a moment.
    await page.waitForFunction(
      () => / °C$/.test(document.querySelector('[data-testid="channel-value-c1"]')?.textContent ?? ''),
      undefined,
      { timeout: 30_000 },
    );
    expect(await value.textContent()).toMatch(/^-?[\d,.]+ °C$/);
    // The totalizer, a pressure and a setpoint read with their units too; a relay reads its state.
    expect(await page.getByTestId('channel-value-t1').textContent()).toMatch(/^[\d,.]+ L$/);
    expect(await page.getByTestId('channel-value-c2').textContent()).toMatch(/^[\d,.]+ bar$/);
    expect(await page.getByTestId('channel-value-do1').textContent()).toMatch(/^(On|Off)$/);

    // The channels' heading and the first row of cards are on the first screen.
    const firstCard = await page.getByRole('article', { name: 'Room temperature' }).boundingBox();
    expect(firstCard).not.toBeNull();
    expect(firstCard!.y + firstCard!.height).toBeLessThan(900);

    // No channel name is cut short: every title shows all of its text.
    const cut = await page.$$eval('.channel-card__title', (titles) =>
      titles.filter((title) => title.scrollWidth > title.clientWidth + 1).map((title) => title.textContent),
    );
    expect(cut).toEqual([]);
    await page.screenshot({ path: 'test-results/ux-device-dash-1440.png' });
    await page.context().close();
  });

  it('gives each unit of the logs chart its own y axis', async () => {
    const page = await signedIn('viewer@fieldlink.test', '/dash/ACME-BLR01');
    const logs = page.getByRole('region', { name: 'Logs' });
    await logs.locator('.u-wrap').waitFor({ timeout: 30_000 });
    // Room temperature (°C) and line pressure (bar) open the chart: two units, two y axes.
    const yAxes = () => logs.locator('.u-axis').count();
    await expect.poll(yAxes, { timeout: 30_000 }).toBe(3);
    await logs.getByRole('button', { name: /Pumped volume/ }).click();
    await expect.poll(yAxes, { timeout: 30_000 }).toBe(4);
    // The window is written with its date and time (the browser's format: no profile chosen).
    expect(await logs.locator('.log-chart__meta').textContent()).toMatch(
      /\d{2}\/\d{2}\/\d{2} \d{1,2}:\d{2}:\d{2} [ap]m/,
    );
    await page.context().close();
  });

  it('states the time zone of every date once, on every page: the device’s on its page, else the user’s', async () => {
    // The user is in New York (a US browser: 12 hours, month first); the demo devices keep UTC.
    const page = await landedAs('viewer@fieldlink.test', {
      context: { timezoneId: 'America/New_York', locale: 'en-US' },
      landing: /\/dash\/[^/]+$/,
    });
    for (const [path, zone] of [
      ['/dash/ACME-BLR01', /^Times in UTC, the device’s zone$/],
      ['/alarms', /^Times in America\/New_York \(UTC-0[45]:00\)$/],
      ['/dash', /^Times in America\/New_York \(UTC-0[45]:00\)$/],
    ] as const) {
      await page.goto(`${server.baseUrl}${path}`);
      await expect.poll(() => page.getByTestId('time-zone').count(), { timeout: 30_000 }).toBe(1);
      await expect.poll(() => page.getByTestId('time-zone').textContent(), { timeout: 30_000 }).toMatch(zone);
    }
    // The device's page writes its times in that zone: its chart's window ends about now, UTC.
    await page.goto(`${server.baseUrl}/dash/ACME-BLR01`);
    await expect.poll(() => page.getByTestId('time-zone').textContent(), { timeout: 30_000 }).toMatch(/device’s zone/);
    const meta = page.getByRole('region', { name: 'Logs' }).locator('.log-chart__meta');
    await meta.waitFor({ timeout: 30_000 });
    const end = (await meta.textContent())?.match(/– (\d{2}\/\d{2}\/\d{2} \d{1,2}:\d{2}):\d{2} ([ap]m)/);
    expect(end).not.toBeNull();
    // To the minute, in UTC (not New York): now or a minute or two before, as the page was read.
    const minutes = [0, 1, 2].map((back) =>
      formatDateTime(Date.now() - back * 60_000, { timeZone: 'UTC', hourCycle: '12', dateOrder: 'mdy' }).replace(
        /:\d{2} ([ap]m)$/,
        ' $1',
      ),
    );
    expect(minutes).toContain(`${end![1]} ${end![2]}`);
    await page.context().close();
  });

  it('lands on the device last opened when signing in again', async () => {
    const page = await newPage(1440, 900);
    await signInAs(page, server.baseUrl, 'viewer@fieldlink.test');
    await page.waitForURL(/\/dash\/[^/]+$/, { timeout: 30_000 });
    const first = new URL(page.url()).pathname;
    const other = first.endsWith('/ACME-COLD01') ? '/dash/ACME-BLR02' : '/dash/ACME-COLD01';
    await page.goto(`${server.baseUrl}${other}`);
    await page.getByRole('heading', { level: 2, name: 'Channels' }).waitFor({ timeout: 30_000 });
    await page.goto(`${server.baseUrl}/signout`);
    await page.waitForURL((url) => !url.pathname.startsWith('/dash'), { timeout: 30_000 });
    await signInAs(page, server.baseUrl, 'viewer@fieldlink.test');
    await page.waitForURL(`${server.baseUrl}${other}`, { timeout: 30_000 });
    await page.context().close();
  });

  /** The page is no wider than the phone: nothing makes it scroll sideways. */
  const expectNoSidewaysScroll = async (page: Page, what: string) => {
    const { scrollWidth, clientWidth, wide } = await page.evaluate(() => {
      const root = document.documentElement;
      const overflowing = Array.from(document.querySelectorAll('body *'))
        .filter((element) => element.getBoundingClientRect().right > root.clientWidth + 1)
        .slice(0, 5)
        .map((element) => `${element.tagName.toLowerCase()}.${element.className}`);
      return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, wide: overflowing };
    });
    expect(scrollWidth, `${what} overflows sideways: ${wide.join(', ')}`).toBeLessThanOrEqual(clientWidth);
  };

  /**
   * Waits for a page to settle: its calls answered, its code and fonts in, no loading skeleton left and
   * nothing still moving. Not Playwright's `networkidle` (500 ms without a request), which on a
   * context's first pages also waited for the service worker's download of the whole console (135 files)
   * and at least half a second on every page.
   */
  const settle = async (page: Page) => {
    const waiting = () => page.locator('.fl-skeleton, .page-fallback').count();
    // The page's code first (its calls start as it draws), then its calls, then what they fill in.
    await expect.poll(waiting, { timeout: 20_000 }).toBe(0);
    await apiCallsAnswered(page);
    await expect.poll(waiting, { timeout: 20_000 }).toBe(0);
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    await animationsDone(page);
  };

  /**
   * A test per page, so each has its own 120 s and a failure names its page: one test over all 21 took
   * 27 s on a quiet machine and ran out of its 120 s on CI machines 2.7 times slower (docs/decisions.md,
   * "Issue 37 item 7 (round 14)"). The visitor's and the administrator's pages share a page each, as
   * the one test did.
   */
  describe('fits every page on a 390 px phone, with no sideways scroll', () => {
    const shots = 'test-results/phone';
    const phone = { width: 390, height: 844 };
    const visit = async (page: Page, path: string, name: string) => {
      await page.goto(`${server.baseUrl}${path}`);
      await settle(page);
      await page.screenshot({ path: `${shots}/${name}.png`, fullPage: true });
      await expectNoSidewaysScroll(page, path);
    };

    describe('as a visitor', () => {
      let visitor: Page;
      beforeAll(async () => {
        visitor = await newPage(phone.width, phone.height);
      });
      afterAll(async () => {
        await visitor?.context().close();
      });

      it.each([
        { path: '/', name: 'landing' },
        { path: '/signin', name: 'signin' },
        { path: '/forgot-password', name: 'forgot-password' },
        { path: '/signup', name: 'signup' },
        { path: '/demo', name: 'demo' },
        { path: '/privacy', name: 'privacy' },
        { path: '/videos/', name: 'videos' },
      ])('$path', ({ path, name }) => visit(visitor, path, name));
    });

    // Every signed-in page, as the users who open them.
    describe('as the administrator', () => {
      let admin: Page;
      beforeAll(async () => {
        admin = await landedAs('admin@fieldlink.test', { viewport: phone, landing: /\/dash\/[^/]+$/ });
      });
      afterAll(async () => {
        await admin?.context().close();
      });

      it.each([
        { path: '/dash', name: 'device-picker' },
        { path: '/dash/ACME-BLR01', name: 'device-dash' },
        { path: '/dash/FTW-PLANT01', name: 'plant-dash' },
        { path: '/dash/FTW-PLANT01?view=device', name: 'plant-device-dash' },
        { path: '/accounts/treeview', name: 'account-tree' },
        { path: '/accounts/list', name: 'device-table' },
        { path: '/reports', name: 'reports' },
        { path: '/reports/schedules', name: 'schedules' },
        { path: '/alarms', name: 'alarms' },
        { path: '/alerts', name: 'alerts' },
      ])('$path', ({ path, name }) => visit(admin, path, name));

      it('a scene with its tabs', async () => {
        await admin.goto(`${server.baseUrl}/dash/ACME-BLR01`);
        await admin.getByRole('link', { name: 'Scenes' }).first().click();
        await admin.getByTestId('scene-tabs').waitFor({ timeout: 30_000 });
        await settle(admin);
        await admin.screenshot({ path: `${shots}/scene.png`, fullPage: true });
        await expectNoSidewaysScroll(admin, 'a scene');
      });
    });

    it.each(['brew@fieldlink.test', 'spray@fieldlink.test', 'stock@fieldlink.test'])(
      "%s's landing page",
      async (email) => {
        const page = await landedAs(email, { viewport: phone });
        await settle(page);
        await page.screenshot({ path: `${shots}/${email.split('@')[0]}-landing.png`, fullPage: true });
        await expectNoSidewaysScroll(page, `${email}'s landing page`);
        await page.context().close();
      },
    );
  });

  it('shows alarms as cards on a phone, the condition with its unit and Acknowledge within reach', async () => {
    const token = await apiToken(server.baseUrl, 'admin@fieldlink.test');
    const accounts = (await callApi<{ accounts: unknown[] }>(server.baseUrl, 'GET', '/account', token)).json.accounts;
    const deviceId = JSON.stringify(accounts).match(/"id":"([^"]+)","name":"Boiler 1"/)?.[1];
    expect(deviceId).toBeTruthy();
    // A threshold the room temperature is always above: the alarm is raised with the next value.
    const set = await callApi(server.baseUrl, 'PUT', '/device/alarm', token, {
      alarm: {
        deviceId,
        code: 'c1',
        enabled: true,
        high: 1,
        low: null,
        hysteresis: 0,
        delaySeconds: 0,
        severity: 'MAJOR',
      },
    });
    expect(set.status).toBe(200);

    const page = await signedIn('admin@fieldlink.test', '/alarms', { viewport: { width: 390, height: 844 } });
    // The demo seeds an active alarm on the same channel (above 19 °C), which stays the active one.
    const row = page.getByRole('row', { name: /Boiler 1/ }).first();
    await row.waitFor({ timeout: 30_000 });
    expect(await row.textContent()).toMatch(/[\d.]+ °C above 1(9)? °C/);
    const acknowledge = row.getByRole('button', { name: 'Acknowledge' });
    const box = await acknowledge.boundingBox();
    expect(box).not.toBeNull();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    await expectNoSidewaysScroll(page, '/alarms with an alarm');
    await page.screenshot({ path: 'test-results/phone/alarms-card.png', fullPage: true });
    await acknowledge.click();
    await row.getByText('Active, acknowledged').waitFor();
    await page.context().close();
  });

  /** Every page the brewer reaches from the top bar, and a scene with a chart widget: a test per page. */
  describe('gives every control a 44 px target on a touch screen, with no sideways scroll', () => {
    let page: Page;
    beforeAll(async () => {
      page = await landedAs('brew@fieldlink.test', {
        viewport: { width: 390, height: 844 },
        context: { hasTouch: true },
      });
    });
    afterAll(async () => {
      await page?.context().close();
    });

    const pages: { path: string; ready: (page: Page) => Locator; open?: string }[] = [
      { path: '/alarms', ready: (page) => page.getByRole('button', { name: 'Acknowledge' }).first() },
      { path: '/dash/NGB-BT01', ready: (page) => page.getByRole('heading', { name: 'General information' }) },
      {
        path: '/dash',
        ready: (page) =>
          page
            .getByRole('searchbox')
            .or(page.getByPlaceholder(/^Search/))
            .first(),
      },
      { path: '/accounts/treeview', ready: (page) => page.getByRole('treeitem').first() },
      { path: '/accounts/list', ready: (page) => page.getByRole('button', { name: /^Name/ }).first() },
      { path: '/reports', ready: (page) => page.getByRole('button', { name: /^Edit / }).first() },
      { path: '/dash', ready: (page) => page.locator('.chart-widget__chip').first(), open: 'Scenes' },
    ];
    it.each(pages.map((entry) => ({ ...entry, where: entry.open ? `${entry.path}, then ${entry.open}` : entry.path })))(
      '$where',
      async ({ path, ready, open }) => {
        await page.goto(`${server.baseUrl}${path}`);
        if (open)
          await page
            .getByRole('link', { name: open, exact: true })
            .or(page.getByRole('tab', { name: open }))
            .first()
            .click();
        await ready(page).waitFor({ timeout: 30_000 });
        // A control answers a tap 22 px above and below its middle (its own box or a hit area around
        // it), unless it is a link inside a line of text (WCAG 2.5.5's inline exception).
        const missed = await page.evaluate(() =>
          Array.from(
            document.querySelectorAll<HTMLElement>(
              'button, select, input:not([type=checkbox]):not([type=radio]), nav a, [role=tab]',
            ),
          )
            .filter((control) => control.checkVisibility({ visibilityProperty: true }))
            .filter((control) => {
              control.scrollIntoView({ block: 'center' });
              const box = control.getBoundingClientRect();
              const x = box.left + box.width / 2;
              const middle = box.top + box.height / 2;
              const hits = (y: number) => {
                const target = document.elementFromPoint(x, y);
                return target !== null && (target === control || control.contains(target));
              };
              return box.width < 44 || !hits(middle - 21) || !hits(middle + 21);
            })
            .map((control) => control.getAttribute('aria-label') ?? control.textContent?.trim() ?? control.tagName),
        );
        expect(missed, `${path}: controls under 44 px`).toEqual([]);
        await expectNoSidewaysScroll(page, path);
      },
    );
  });

  it('offers profile, theme and a password change in the account menu; its toast leaves the menu uncovered', async () => {
    const page = await landedAs('ops@fieldlink.test', { landing: /\/dash\/[^/]+$/ });
    await page.getByRole('button', { name: /^Account menu/ }).click();
    const panel = page.locator('.user-menu__panel');
    await panel.getByText('ops@fieldlink.test').waitFor();
    expect(await panel.getByLabel('Theme').count()).toBe(1);
    await panel.getByRole('button', { name: 'Change password' }).click();
    const toast = page.getByText(/We sent a link to set a new password to ops@fieldlink\.test/);
    await toast.waitFor({ timeout: 20_000 });
    const [toastBox, panelBox, triggerBox] = await Promise.all([
      toast.boundingBox(),
      panel.boundingBox(),
      page.getByRole('button', { name: /^Account menu/ }).boundingBox(),
    ]);
    const overlaps = (a: typeof toastBox, b: typeof toastBox) =>
      a !== null &&
      b !== null &&
      a.x < b.x + b.width &&
      b.x < a.x + a.width &&
      a.y < b.y + b.height &&
      b.y < a.y + a.height;
    expect(overlaps(toastBox, panelBox)).toBe(false);
    expect(overlaps(toastBox, triggerBox)).toBe(false);
    await page.screenshot({ path: 'test-results/ux-account-menu.png' });
    await page.context().close();
  });

  it('updates the device table live: its age ticks, an OTA update shows its progress and the device its reconnection', async () => {
    const page = await signedIn('brew@fieldlink.test', '/accounts/list', {
      storage: { deviceTableColumns: JSON.stringify(['name', 'isConnected', 'lastConnection', 'fw', 'otaStatus']) },
    });
    await page.getByTestId('device-table').waitFor({ timeout: 30_000 });
    const age = page.getByTestId('device-table-age');
    await expect.poll(() => age.textContent(), { timeout: 30_000 }).toMatch(/^Live · last change /);
    // The age ticks on its own, on the shared clock: no reload and no new data needed (seconds, or a
    // minute later when the table's last change is minutes old).
    const before = await age.textContent();
    await expect.poll(() => age.textContent(), { timeout: 70_000, interval: 1_000 }).not.toBe(before);

    // From here on what changes arrives over the real-time channel, in the same document.
    await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
    const tableReads: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/v1/devices/table')) tableReads.push(request.url());
    });
    const row = (name: string) => page.getByRole('row').filter({ has: page.getByRole('link', { name, exact: true }) });
    const cells = async (name: string) =>
      // Connection status, last connection, firmware, OTA status (after the selection box and the name).
      (await row(name).getByRole('cell').allTextContents()).slice(2).map((text) => text.trim());
    const fv1 = row('Fermenter FV1');
    await fv1.waitFor({ timeout: 30_000 });
    await expect.poll(async () => (await cells('Fermenter FV1'))[0], { timeout: 30_000 }).toBe('Online');
    const [, lastConnection, firmware] = await cells('Fermenter FV1');

    // A version the simulated device installs (a fifth of updates fail, chosen by device and command).
    const version = ['4.20.0', '4.20.1', '4.20.2', '4.20.3', '4.20.4', '4.20.5'].find(
      (candidate) => seedFromText(`NGB-FV01|firmware ${candidate}`) % 1000 >= 200,
    )!;
    // Sent from the selection: the dialog offers the versions the fermenters' family runs; a typed
    // command is the advanced way, and the administrator skips approval.
    await row('Fermenter FV1').getByRole('checkbox').check();
    await page.getByRole('region', { name: 'Selection' }).getByRole('button', { name: 'OTA update' }).click();
    const dialog = page.getByRole('dialog', { name: 'OTA update' });
    const versions = await dialog.getByLabel('Firmware version').locator('option').allTextContents();
    expect(versions[0]).toMatch(/^\d+\.\d+\.\d+ \(newest\)$/);
    expect(versions.map((text) => text.replace(' (newest)', ''))).toContain(firmware);
    await dialog.getByRole('button', { name: 'Advanced: enter an update command' }).click();
    await dialog.getByLabel('Update command').fill(`firmware ${version}`);
    await dialog.getByRole('checkbox', { name: /Skip approval/ }).check();
    await dialog.getByRole('button', { name: 'Send update' }).click();
    await dialog.waitFor({ state: 'detached', timeout: 30_000 });

    // Progress, then the new firmware and a new connection after the device's reboot.
    const otaStatus = async () => (await cells('Fermenter FV1'))[3];
    await expect.poll(otaStatus, { timeout: 30_000, interval: 250 }).toMatch(/^Downloading \d+%$/);
    expect(await fv1.getByRole('progressbar').count()).toBe(1);
    await page.screenshot({ path: 'test-results/ux-device-table-ota-1440.png' });

    // The administrators' review shows the rollout as a whole and the device's own progress, live.
    await page.getByTestId('idle-banner').getByRole('button', { name: 'Review' }).click();
    const review = page.getByRole('dialog', { name: 'Pending OTA updates' });
    // Newest first: the rollout just sent.
    const rollout = review.getByRole('listitem', { name: `Rollout firmware ${version}` }).first();
    await rollout.waitFor({ timeout: 30_000 });
    await rollout.getByRole('progressbar', { name: /^Rollout progress: \d+%$/ }).waitFor();
    await expect
      .poll(() => rollout.getByRole('progressbar', { name: /^Rollout progress/ }).getAttribute('aria-valuenow'), {
        timeout: 60_000,
      })
      .toBe('100');
    expect(await rollout.getByTestId('rollout-counts').textContent()).toContain('1 succeeded');
    await review.getByRole('button', { name: 'Close' }).last().click();

    await expect.poll(otaStatus, { timeout: 60_000, interval: 250 }).toBe('Succeeded');
    await expect.poll(async () => (await cells('Fermenter FV1'))[2], { timeout: 30_000 }).toBe(version);
    await expect.poll(async () => (await cells('Fermenter FV1'))[1], { timeout: 30_000 }).not.toBe(lastConnection);
    expect((await cells('Fermenter FV1'))[0]).toBe('Online');
    expect(firmware).not.toBe(version);
    expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    // Read again only as the submission and the end of the update ask (the OTA calls' own refresh),
    // not for each step: the steps came over the real-time channel.
    expect(tableReads.length).toBeLessThanOrEqual(2);
    await page.context().close();
  });

  it('says in one line why a scene cannot be changed, and disabled fields look disabled', async () => {
    // The viewer may not set a device's time zone: the field is there, and plainly disabled.
    const page = await signedIn('viewer@fieldlink.test', '/dash/ACME-BLR01');
    const zone = page.getByLabel('Time zone', { exact: true });
    await zone.waitFor({ timeout: 30_000 });
    expect(await zone.isDisabled()).toBe(true);
    expect(await zone.evaluate((element) => getComputedStyle(element).cursor)).toBe('not-allowed');
    await page.getByRole('link', { name: 'Scenes', exact: true }).click();
    const reason = page.getByTestId('scene-read-only');
    await reason.waitFor({ timeout: 30_000 });
    expect((await reason.textContent())?.trim()).toMatch(/^Read-only: your permissions let you view dashboards/);
    await page.context().close();
  });
});
