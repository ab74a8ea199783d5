import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt, { type MqttClient } from 'mqtt';
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import type { PushNotice } from '@fieldlink/api/push';
import { startTestPushService } from '@fieldlink/server/testing';
import { apiToken, callApi, openDash, sessionLanding, useProduct } from './harness';

/** Every record of the console's offline store of last values, read in the page (IndexedDB). */
function keptLastValues(): Promise<unknown[]> {
  return new Promise((resolve, reject) => {
    const opening = indexedDB.open('fieldlink-last-values');
    // Reading must not create the database the console has not made (it would lack the console's store).
    opening.onupgradeneeded = () => opening.transaction?.abort();
    opening.onerror = () => (opening.error?.name === 'AbortError' ? resolve([]) : reject(opening.error));
    opening.onsuccess = () => {
      const database = opening.result;
      if (!database.objectStoreNames.contains('users')) return resolve([]);
      const reading = database.transaction('users').objectStore('users').getAll();
      reading.onerror = () => reject(reading.error);
      reading.onsuccess = () => resolve(reading.result as unknown[]);
    };
  });
}

/**
 * Web Push in Chromium (issue 39 item 2), end to end but for the one hop no test machine has: the
 * browser's own push service (Google's, for Chromium) is on the internet. So the page's
 * `PushManager.subscribe` answers a subscription on the tests' loopback push service, with keys this
 * test holds; everything else is real: the switch in the account menu, the notification permission,
 * `POST /push-subscriptions`, an alarm raised by a frame over MQTT, the server's encrypted and
 * VAPID-signed message (checked and decrypted by the loopback push service), and its payload relayed
 * to the real service worker through the DevTools protocol (`ServiceWorker.deliverPushMessage`), as
 * the browser's push service would deliver it, which shows it as a notification.
 */
describe('notifications on this browser', () => {
  const product = useProduct({ FIELDLINK_WEBHOOK_ALLOW_PRIVATE: '1', FIELDLINK_SIMULATOR: '0' });
  let pushService: Awaited<ReturnType<typeof startTestPushService>>;
  let device: MqttClient;
  let thingName: string;
  let page: Page;
  let context: BrowserContext;
  const consoleLines: string[] = [];

  beforeAll(async () => {
    pushService = await startTestPushService();
    const { baseUrl, mqttPort } = product.server;
    const spray = await apiToken(baseUrl, 'spray@fieldlink.test');
    const accounts = (await callApi(baseUrl, 'GET', '/account', spray)).json.accounts as { id: string; name: string }[];
    const orchard = accounts.find((account) => account.name === 'Orchard Spray Co')!;
    const admin = await apiToken(baseUrl, 'admin@fieldlink.test');
    const provisioned = (
      await callApi(baseUrl, 'POST', '/device', admin, { name: 'Push test pump', accountId: orchard.id })
    ).json as { device: { id: string }; credentials: { thingName: string; password: string } };
    thingName = provisioned.credentials.thingName;
    const alarm = {
      deviceId: provisioned.device.id,
      code: 'c1',
      enabled: true,
      high: 50,
      low: null,
      hysteresis: 2,
      delaySeconds: 0,
      severity: 'CRITICAL',
    };
    device = await mqtt.connectAsync(`mqtt://127.0.0.1:${mqttPort}`, {
      clientId: thingName,
      username: thingName,
      password: provisioned.credentials.password,
      reconnectPeriod: 0,
    });
    expect((await callApi(baseUrl, 'PUT', '/device/alarm', spray, { alarm })).status).toBe(200);

    const { subscription } = pushService.browser('chromium');
    // A browser that holds the session (signing in is not what this tests), at the user's landing page.
    page = await sessionLanding(product.browser, baseUrl, 'spray@fieldlink.test', {
      // The worker is what this file tests (the harness's contexts block it elsewhere).
      context: { serviceWorkers: 'allow' },
      prepare: async (newContext) => {
        context = newContext;
        newContext.on('console', (message) => consoleLines.push(`${message.type()}: ${message.text()}`));
        await newContext.grantPermissions(['notifications'], { origin: baseUrl });
        // The one stand-in: a subscription on the loopback push service instead of Google's.
        await newContext.addInitScript((fake) => {
          // Kept in the tab's session storage: a browser's subscription outlives a page load.
          const key = 'test-push-subscribed';
          const made = () => ({
            endpoint: fake.endpoint,
            expirationTime: null,
            options: {},
            getKey: () => null,
            toJSON: () => ({ endpoint: fake.endpoint, expirationTime: null, keys: fake.keys }),
            unsubscribe: async () => {
              sessionStorage.removeItem(key);
              return true;
            },
          });
          PushManager.prototype.subscribe = async function () {
            sessionStorage.setItem(key, '1');
            return made() as unknown as PushSubscription;
          };
          PushManager.prototype.getSubscription = async function () {
            return sessionStorage.getItem(key) ? (made() as unknown as PushSubscription) : null;
          };
        }, subscription);
      },
    });
  }, 180_000);
  afterAll(async () => {
    await device?.endAsync(true).catch(() => undefined);
    await pushService?.stop();
  });

  /** The service worker's registration, as the DevTools protocol names it. */
  async function workerRegistration(cdp: CDPSession): Promise<string> {
    const registrations: { registrationId: string; isDeleted: boolean }[] = [];
    const versions: { registrationId: string; status: string; runningStatus: string }[] = [];
    cdp.on('ServiceWorker.workerRegistrationUpdated', (event) => registrations.push(...event.registrations));
    cdp.on('ServiceWorker.workerVersionUpdated', (event) => versions.push(...event.versions));
    await cdp.send('ServiceWorker.enable');
    await expect
      .poll(() => versions.some((version) => version.status === 'activated'), {
        message: `the service worker is active (${JSON.stringify({ registrations, versions, consoleLines })})`,
        timeout: 90_000,
      })
      .toBe(true);
    return versions.find((version) => version.status === 'activated')!.registrationId;
  }

  it('turns notifications on in the account menu, shows an alarm raised over MQTT as a notification, and starts offline from the kept shell with the last values seen', async () => {
    const { baseUrl } = product.server;
    const cdp = await context.newCDPSession(page);
    const registrationId = await workerRegistration(cdp);

    // The console's own switch: permission granted, subscribed, saved for the user.
    await page.getByRole('button', { name: /^Account menu/ }).click();
    const toggle = page.getByRole('switch', { name: 'Notifications on this browser' });
    await toggle.waitFor({ timeout: 30_000 });
    await expect.poll(() => toggle.getAttribute('aria-checked'), { timeout: 30_000 }).toBe('false');
    await toggle.click();
    await expect.poll(() => toggle.getAttribute('aria-checked'), { timeout: 30_000 }).toBe('true');
    await expect.poll(() => page.getByTestId('push-hint').textContent()).toMatch(/alarms show as notifications/);

    // A real alarm: a frame past the threshold, over MQTT.
    await device.publishAsync(
      `dev/${thingName}/up`,
      JSON.stringify({ v: 4, type: 'log', t: Date.now(), values: { c1: 57 } }),
      { qos: 1 },
    );
    await expect
      .poll(() => pushService.received.filter((push) => push.name === 'chromium').length, { timeout: 60_000 })
      .toBe(1);
    expect(pushService.refused).toEqual([]);
    const notice = pushService.received[0]!.payload as PushNotice;
    expect(notice).toMatchObject({ title: 'Alarm (CRITICAL): Push test pump', url: `/dash/${thingName}` });
    expect(notice.body).toMatch(/57.*above 50/);

    // The decrypted message, relayed to the service worker as the browser's push service would. The
    // notification is read only once the push event has ended (its `waitUntil`, the `showNotification`, has
    // settled), as DevTools' background-service log records it, not while the worker still shows it:
    // Chromium's `getNotifications()` deletes the stored record of a notification created before the
    // call and not yet on display, so a read in that window lost it for good (the failure at load 6-18,
    // reproduced by reading in a loop through the push; docs/decisions.md, "the web-push flake").
    const pushEvents: string[] = [];
    cdp.on('BackgroundService.backgroundServiceEventReceived', ({ backgroundServiceEvent: event }) => {
      if (event.eventName !== 'Push event completed') return;
      pushEvents.push(event.eventMetadata.find((entry) => entry.key === 'Status')?.value ?? '');
    });
    await cdp.send('BackgroundService.startObserving', { service: 'pushMessaging' });
    await cdp.send('BackgroundService.setRecording', { shouldRecord: true, service: 'pushMessaging' });
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin: baseUrl,
      registrationId,
      data: JSON.stringify(notice),
    });
    await expect.poll(() => pushEvents, { message: 'the push event ended', timeout: 60_000 }).toEqual(['Success']);
    const shown = () =>
      page.evaluate(async () =>
        (await (await navigator.serviceWorker.ready).getNotifications()).map((shownNotice) => ({
          title: shownNotice.title,
          body: shownNotice.body,
          tag: shownNotice.tag,
          url: (shownNotice.data as { url?: string } | null)?.url,
          actions: (shownNotice as Notification & { actions?: { action: string; title: string }[] }).actions?.map(
            (action) => `${action.action}: ${action.title}`,
          ),
        })),
      );
    await expect.poll(shown, { timeout: 30_000 }).toEqual([
      {
        title: 'Alarm (CRITICAL): Push test pump',
        body: notice.body,
        tag: notice.tag,
        url: `/dash/${thingName}`,
        actions: ['acknowledge: Acknowledge'],
      },
    ]);

    // Offline start (issue 39 item 1): the values seen are kept in this browser, for this user only.
    await openDash(page, baseUrl, thingName);
    await page.getByRole('article', { name: 'Ch_1' }).getByText('57').waitFor({ timeout: 30_000 });
    await expect
      .poll(() => page.evaluate(keptLastValues), { timeout: 30_000 })
      .toEqual([
        expect.objectContaining({ values: [expect.objectContaining({ deviceName: 'Push test pump', value: 57 })] }),
      ]);
    await context.setOffline(true);
    await page.reload();
    await page.getByRole('heading', { name: 'You are offline' }).waitFor({ timeout: 60_000 });
    const keptRow = page.getByRole('row', { name: /Push test pump/ });
    await expect
      .poll(() => keptRow.textContent(), { timeout: 30_000 })
      .toMatch(/Push test pump\s*Ch_1\s*57\s*(just now|\d+ s ago|\d+ min ago)/);
    // An API answer never comes from the service worker's cache: offline, a call fails, and no cache holds one.
    expect(
      await page.evaluate(() =>
        fetch('/api/v1/self').then(
          (answer) => answer.status,
          () => 'no answer',
        ),
      ),
    ).toBe('no answer');
    const cachedAddresses = await page.evaluate(async () =>
      (await Promise.all((await caches.keys()).map(async (name) => (await caches.open(name)).keys()))).flatMap(
        (requests) => requests.map((request) => request.url),
      ),
    );
    expect(cachedAddresses.length).toBeGreaterThan(0);
    expect(cachedAddresses.filter((address) => new URL(address).pathname.startsWith('/api/'))).toEqual([]);
    // Back online, the console goes on by itself to the page it was on.
    await context.setOffline(false);
    await page.waitForURL(`${baseUrl}/dash/${thingName}`, { timeout: 60_000 });
    await page.getByRole('article', { name: 'Ch_1' }).getByText('57').waitFor({ timeout: 30_000 });

    // Signing out takes this browser's subscription away from the user first.
    const spray = await apiToken(baseUrl, 'spray@fieldlink.test');
    await page.goto(`${baseUrl}/signout`);
    await page.waitForURL(/\/signin/);
    // Signing out leaves nothing of the user's values for the next person at this browser.
    await expect.poll(() => page.evaluate(keptLastValues), { timeout: 30_000 }).toEqual([]);
    expect((await callApi(baseUrl, 'POST', '/push-subscriptions/test', spray, {})).json).toEqual({
      sent: 0,
      removed: 0,
      failed: 0,
    });

    // The server goes away: a reload starts from the shell the service worker keeps (issue 39 item 1).
    await product.server.stop();
    await page.reload();
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor({ timeout: 30_000 });
    expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toBe(`${baseUrl}/sw.js`);
  }, 300_000);
});
