import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { CONFIGURE_DEVICES_REFUSAL } from '@fieldlink/domain/device-actions';
import { MONITOR_ONLY_REFUSAL } from '@fieldlink/domain/permissions';
import { BROADCAST_SPRAY_FORBIDDEN, broadcastSprayWaitMessage } from '@fieldlink/domain/spray';
import { apiToken, callApi, openDash, sessionLanding, useProduct } from './harness';

const SHOTS = process.env.UPDATE_SCREENSHOTS ? 'docs/screenshots' : 'test-results';

/**
 * Issue 35 as the demo users meet it on their first day, in Chromium against the real server: the
 * monitor-only viewer@ sees every value but operates nothing, and is told why; a refusal of spray@'s
 * broadcast is said once and never signs it out; the cool-down counts down before confirming.
 */
describe('a first day as each demo user', () => {
  const product = useProduct();
  const open = (email: string, width: number, landing?: RegExp): Promise<Page> =>
    sessionLanding(product.browser, product.server.baseUrl, email, {
      viewport: { width, height: width < 600 ? 844 : 900 },
      landing,
    });
  // The toast viewport only: the dialog's own alert has the role "status" too.
  const toasts = (page: Page, text: string) => page.locator('.fl-toasts').getByText(text).count();

  it.each([1440, 390])('viewer@ is monitor-only: every value, no control, and why (%i px)', async (width) => {
    const viewer = await open('viewer@fieldlink.test', width);
    await openDash(viewer, product.server.baseUrl, 'ACME-BLR01');
    expect(await viewer.getByTestId('refusal-note').first().textContent()).toContain(MONITOR_ONLY_REFUSAL);
    const flash = viewer.getByRole('button', { name: 'FLASH LED' });
    expect(await flash.isDisabled()).toBe(true);
    // Setpoints, relays and flags of the channel cards: disabled, with the reason as their title.
    const controls = viewer.locator('.channel-write');
    await controls.first().waitFor({ timeout: 30_000 });
    expect(await controls.first().getAttribute('title')).toBe(MONITOR_ONLY_REFUSAL);
    for (const control of await viewer.locator('.channel-write button, .channel-write input').all()) {
      expect(await control.isDisabled()).toBe(true);
    }
    // Values and charts are all there.
    await viewer.getByTestId('log-chart').first().waitFor({ timeout: 30_000 });
    await viewer.screenshot({ path: `${SHOTS}/monitor-only-viewer-${width}.png`, fullPage: width < 600 });

    // Item 2: Edit offers only muting; the rest is disabled, and it says why.
    await viewer.getByRole('button', { name: 'Edit' }).click();
    expect(await viewer.getByTestId('refusal-note').getByText(CONFIGURE_DEVICES_REFUSAL).count()).toBe(1);
    expect(await viewer.getByLabel('Name').isDisabled()).toBe(true);
    expect(await viewer.getByText('ADD_DEVICES').count()).toBe(0);
    await viewer.context().close();
  });

  it('keeps spray@ signed in through a broadcast refusal, says it once, and counts the cool-down down', async () => {
    const base = product.server.baseUrl;
    const spray = await open('spray@fieldlink.test', 1440, /\/spray\//);
    const token = await apiToken(base, 'spray@fieldlink.test');
    const admin = await apiToken(base, 'admin@fieldlink.test');
    const setFlags = (secretPermissions: string[]) =>
      callApi(base, 'PUT', '/user', admin, { email: 'spray@fieldlink.test', props: { secretPermissions } });
    await spray.getByTestId('sprayer-card').first().waitFor({ timeout: 30_000 });

    // The permission is taken away while spray@ works: the broadcast answers 401 (§6).
    expect((await setFlags([])).status).toBe(200);
    await spray.getByRole('button', { name: 'Broadcast spray' }).click();
    const dialog = spray.getByRole('dialog');
    await dialog.getByRole('button', { name: /^Spray \d sprayers?$/ }).click();
    await expect
      .poll(() => dialog.getByTestId('broadcast-refusal').textContent(), { timeout: 20_000 })
      .toBe(BROADCAST_SPRAY_FORBIDDEN);
    // Said once: in the dialog, with no toast or page message besides; and still signed in.
    expect(await spray.getByText(BROADCAST_SPRAY_FORBIDDEN).count()).toBe(1);
    expect(await dialog.getByRole('button', { name: /^Spray \d sprayers?$/ }).isDisabled()).toBe(true);
    expect(new URL(spray.url()).pathname).toMatch(/^\/spray\//);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await spray.getByRole('button', { name: 'Broadcast spray' }).waitFor();

    // Given back, and someone else broadcasts first: the confirmation meets the cool-down, and the
    // dialog counts the server's retryAfterSeconds down instead of saying "Ready".
    expect((await setFlags(['MOSNIX_BROADCAST_SPRAY'])).status).toBe(200);
    const rootGroupId = new URL(spray.url()).pathname.split('/')[2]!;
    expect((await callApi(base, 'POST', '/mosnix/broadcast-spray', token, { groupId: rootGroupId })).status).toBe(200);
    await spray.getByRole('button', { name: 'Broadcast spray' }).click();
    await dialog.getByRole('button', { name: /^Spray \d sprayers?$/ }).click();
    const cooldown = dialog.getByTestId('broadcast-cooldown');
    await cooldown.waitFor({ timeout: 20_000 });
    const first = await cooldown.textContent();
    const seconds = Number(/wait (\d+) seconds/.exec(first!)![1]);
    expect(first).toBe(broadcastSprayWaitMessage(seconds));
    expect(await dialog.getByRole('button', { name: /^Wait \d+ s$/ }).isDisabled()).toBe(true);
    expect(await dialog.getByText('Ready to spray.').count()).toBe(0);
    expect(await toasts(spray, 'Broadcast spray has recently been initiated')).toBe(0);
    // It counts down.
    await expect
      .poll(async () => Number(/wait (\d+) seconds/.exec((await cooldown.textContent())!)![1]), { timeout: 10_000 })
      .toBeLessThan(seconds);
    await spray.screenshot({ path: `${SHOTS}/monitor-only-spray-cooldown-1440.png` });
    await spray.setViewportSize({ width: 390, height: 844 });
    await spray.screenshot({ path: `${SHOTS}/monitor-only-spray-cooldown-390.png` });
    expect(new URL(spray.url()).pathname).toMatch(/^\/spray\//);
    await spray.context().close();
  }, 120_000);
});
