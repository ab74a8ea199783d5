import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, signInAs, startServer, type RunningServer } from './harness';

/** Hardening (issue 12) as a person sees it: controls a user may not operate are disabled and say why. */
describe('hardening: what the console lets each user operate', () => {
  let server: RunningServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  const newPage = async (email: string): Promise<Page> => {
    const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    contexts.push(context);
    const page = await context.newPage();
    await signInAs(page, server.baseUrl, email);
    await page.waitForURL(/\/dash/, { timeout: 30_000 });
    return page;
  };
  const openDash = async (page: Page, thingName: string) => {
    await page.goto(`${server.baseUrl}/dash/${thingName}`);
    await page.getByRole('heading', { name: 'General information' }).waitFor({ timeout: 30_000 });
  };

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await server?.stop();
  });

  it('disables Update Timezone for a viewer, with a tooltip saying why; operators keep it', async () => {
    const viewer = await newPage('viewer@fieldlink.test');
    await openDash(viewer, 'ACME-BLR01');
    const control = viewer.getByTestId('timezone-control');
    expect(await control.getAttribute('title')).toBe(
      'Changing device settings needs the ADD_DEVICES or ADD_EDIT_DELETE_GROUPS permission.',
    );
    expect(await control.getByRole('button', { name: 'Update Timezone' }).isDisabled()).toBe(true);
    expect(await control.getByLabel('Time zone').isDisabled()).toBe(true);
    // Operating outputs is dashboard work: the viewer's FLASH LED and setpoint controls stay usable.
    expect(await viewer.getByRole('button', { name: 'FLASH LED' }).isEnabled()).toBe(true);

    const ops = await newPage('ops@fieldlink.test');
    await openDash(ops, 'ACME-BLR01');
    const opsControl = ops.getByTestId('timezone-control');
    expect(await opsControl.getAttribute('title')).toBeNull();
    expect(await opsControl.getByRole('button', { name: 'Update Timezone' }).isEnabled()).toBe(true);
  });
});
