import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, signInAs, startServer, type RunningServer } from './harness';

describe('foundation: a signed-in user watches a simulated device live', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    page = await context.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('sends a visitor without a token to the landing page, which leads to the sign-in page', async () => {
    await page.goto(`${server.baseUrl}/accounts/treeview`);
    await page.waitForURL(`${server.baseUrl}/`);
    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.waitForURL(/\/signin$/);
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
  });

  it('shows "Bad Login Info" for a wrong password', async () => {
    await signInAs(page, server.baseUrl, 'viewer@fieldlink.test', 'not-the-password');
    await page.getByText('Bad Login Info').waitFor();
  });

  it('signs in and sees a channel value change as the device publishes', async () => {
    await signInAs(page, server.baseUrl, '  Viewer@Fieldlink.test ');
    await page.waitForURL(/\/dash\/[A-Z0-9-]+$/, { timeout: 30_000 });
    const value = page.getByTestId('channel-value-c1').first();
    await value.waitFor({ timeout: 30_000 });
    await page.waitForFunction(
      () => /\d/.test(document.querySelector('[data-testid="channel-value-c1"]')?.textContent ?? ''),
      undefined,
      { timeout: 30_000 },
    );
    // The value's card states the time of the sample it shows. The shown value, at one decimal, may
    // stay the same for a minute (a chiller near its setpoint), so a new sample is told by its time.
    const sampleTime = page.locator('article', { has: value }).locator('time').first();
    const first = await sampleTime.getAttribute('datetime');
    expect(first).not.toBeNull();
    await expect.poll(() => sampleTime.getAttribute('datetime'), { timeout: 30_000 }).not.toBe(first);
    expect(await value.textContent()).toMatch(/\d/);
    await expect(page.getByTestId('connection-status').textContent()).resolves.toMatch(/connected/i);
    // The README's picture is refreshed on request only, so a test run leaves the tree clean.
    await page.screenshot({
      path: process.env.UPDATE_SCREENSHOTS ? 'docs/screenshots/device-dash.png' : 'test-results/device-dash.png',
    });
  });

  it('shows the time of each live value as its frame arrives, whole and in order', async () => {
    // The server writes a device event as one frame built once to every socket that negotiated no
    // extension (issue 41 item 4): this browser's socket is one, and the page reads its frames.
    const live = await page.context().newPage();
    await live.addInitScript(() => {
      const record = window as unknown as { liveTimes: number[]; socketExtensions: string | null };
      record.liveTimes = [];
      record.socketExtensions = null;
      window.WebSocket = class extends window.WebSocket {
        constructor(url: string | URL, protocols?: string | string[]) {
          super(url, protocols);
          this.addEventListener('open', () => (record.socketExtensions = this.extensions));
          this.addEventListener('message', (event: MessageEvent) => {
            const action = JSON.parse(event.data as string) as { type: string; logs?: Record<string, { t: number }[]> };
            const t = action.type === 'server/newRawLogs' ? action.logs?.c1?.at(-1)?.t : undefined;
            if (t !== undefined) record.liveTimes.push(t);
          });
        }
      };
    });
    await live.goto(page.url());
    // Three frames, then the card's time is the last one's: the page shows what the frames carried.
    await live.waitForFunction(
      () => {
        const { liveTimes } = window as unknown as { liveTimes: number[] };
        const last = liveTimes.at(-1);
        const shown = document
          .querySelector('[data-testid="channel-value-c1"]')
          ?.closest('article')
          ?.querySelector('time')
          ?.getAttribute('datetime');
        return liveTimes.length >= 3 && last !== undefined && shown === new Date(last).toISOString();
      },
      undefined,
      { timeout: 30_000 },
    );
    const { liveTimes, socketExtensions } = await live.evaluate(() => {
      const record = window as unknown as { liveTimes: number[]; socketExtensions: string | null };
      return { liveTimes: record.liveTimes, socketExtensions: record.socketExtensions };
    });
    expect(socketExtensions).toBe('');
    expect(liveTimes).toEqual([...liveTimes].sort((a, b) => a - b));
    await live.close();
  });

  it('keeps the session across a reload and returns to the same page', async () => {
    const url = page.url();
    await page.reload();
    await page.waitForURL(url, { timeout: 30_000 });
    await page.getByTestId('channel-value-c1').first().waitFor();
  });

  it('reloads other tabs when the token is removed (sign-out elsewhere)', async () => {
    const other = await page.context().newPage();
    await other.goto(page.url());
    await other.getByTestId('channel-value-c1').first().waitFor({ timeout: 30_000 });
    const reloaded = other.waitForEvent('load');
    await page.evaluate(() => localStorage.removeItem('fieldlinkToken'));
    await reloaded;
    await other.waitForURL(/\/signin|\/$/, { timeout: 30_000 });
    await other.close();
  });

  it('stops cleanly on Ctrl-C', async () => {
    expect(await server.stop()).toBe(0);
    expect(server.output()).toMatch(/Fieldlink stopped cleanly/);
  });
});
