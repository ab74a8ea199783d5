import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { CONFIGURE_DEVICES_REFUSAL } from '@fieldlink/domain/device-actions';
import { openDash, sessionLanding, sessionPage, signedInPage, useProduct, type SessionOptions } from './harness';

const WEB_DIST = path.resolve(import.meta.dirname, '../../apps/web/dist');

declare global {
  interface Window {
    /** Content-Security-Policy violations the page reported. */
    cspViolations?: string[];
    inlineScriptRan?: boolean;
  }
}

/** Hardening (issue 12) as a person sees it: controls a user may not operate are disabled and say why. */
describe('hardening: what the console lets each user operate', () => {
  const product = useProduct();

  /** Every violation of the page's Content-Security-Policy is recorded, from the first script on. */
  const recordViolations: SessionOptions['prepare'] = (context) =>
    context.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => {
        (window.cspViolations ??= []).push(`${event.effectiveDirective} ${event.blockedURI}`);
      });
    });
  const viewport = { width: 1360, height: 900 };
  /** Signed in through the sign-in page, which the policy covers too. */
  const signedIn = (email: string): Promise<Page> =>
    signedInPage(product.browser, product.server.baseUrl, email, {
      viewport,
      landing: /\/dash/,
      prepare: recordViolations,
    });
  /** A browser that holds `email`'s session (signed in earlier), at its landing page. */
  const landed = (email: string, landing: RegExp): Promise<Page> =>
    sessionLanding(product.browser, product.server.baseUrl, email, { viewport, landing, prepare: recordViolations });
  /** A browser that holds `email`'s session, at a device's dash. */
  const dash = async (email: string, thingName: string): Promise<Page> => {
    const page = await sessionPage(product.browser, product.server.baseUrl, email, `/dash/${thingName}`, {
      viewport,
      prepare: recordViolations,
    });
    await page.getByRole('heading', { name: 'General information' }).waitFor({ timeout: 30_000 });
    return page;
  };
  const violations = (page: Page) => page.evaluate(() => window.cspViolations ?? []);

  it('disables Update Timezone and FLASH LED for the monitor-only viewer, saying why; operators keep them', async () => {
    const viewer = await dash('viewer@fieldlink.test', 'ACME-BLR01');
    const control = viewer.getByTestId('timezone-control');
    expect(await control.getAttribute('title')).toBe(CONFIGURE_DEVICES_REFUSAL);
    expect(await control.getByRole('button', { name: 'Update Timezone' }).isDisabled()).toBe(true);
    expect(await control.getByLabel('Time zone').isDisabled()).toBe(true);
    // The demo's viewer is monitor-only (issue 35): its FLASH LED is disabled, saying why.
    expect(await viewer.getByRole('button', { name: 'FLASH LED' }).isDisabled()).toBe(true);

    const ops = await dash('ops@fieldlink.test', 'ACME-BLR01');
    const opsControl = ops.getByTestId('timezone-control');
    expect(await opsControl.getAttribute('title')).toBeNull();
    expect(await opsControl.getByRole('button', { name: 'Update Timezone' }).isEnabled()).toBe(true);
    // Operating outputs is dashboard work for everyone else (docs/decisions.md, Hardening).
    expect(await ops.getByRole('button', { name: 'FLASH LED' }).isEnabled()).toBe(true);
  });

  it('serves the built console with no inline script and no source map', () => {
    const index = readFileSync(path.join(WEB_DIST, 'index.html'), 'utf8');
    const scripts = [...index.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(attributes).toMatch(/\ssrc="\/assets\//);
      expect(body!.trim()).toBe('');
    }
    const files = readdirSync(WEB_DIST, { recursive: true }).map(String);
    expect(files.filter((file) => file.endsWith('.map'))).toEqual([]);
    for (const file of files.filter((name) => name.endsWith('.js'))) {
      expect(readFileSync(path.join(WEB_DIST, file), 'utf8')).not.toContain('sourceMappingURL=');
    }
  });

  it('runs the whole console under its Content-Security-Policy, which stops an injected script', async () => {
    const answer = await fetch(`${product.server.baseUrl}/dash/ACME-BLR01`);
    const policy = answer.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("frame-ancestors 'self'");
    expect(policy).not.toMatch(/script-src[^;]*unsafe/);

    // The device dash with its live values and log chart, a water plant's scene, the brew summary
    // and a tank view, the account tree: none of them needs anything the policy refuses.
    // The sign-in page first: the administrator signs in through it.
    const admin = await signedIn('admin@fieldlink.test');
    await openDash(admin, product.server.baseUrl, 'ACME-BLR01');
    const chart = admin.getByTestId('log-chart').first();
    await chart.waitFor({ timeout: 30_000 });
    const box = await chart.boundingBox();
    if (box) await admin.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await admin.goto(`${product.server.baseUrl}/accounts/treeview`);
    await admin.getByRole('tree').first().waitFor({ timeout: 30_000 });
    expect(await violations(admin)).toEqual([]);

    const water = await landed('water@fieldlink.test', /\/(dash|scene)/);
    await water.waitForLoadState('networkidle');
    expect(await violations(water)).toEqual([]);

    const brew = await landed('brew@fieldlink.test', /\/brew\/summary\//);
    await brew.locator('.tank-card').first().waitFor({ timeout: 30_000 });
    await brew.locator('.tank-card').first().click();
    await brew.locator('#brew-setpoint').waitFor({ timeout: 30_000 });
    expect(await violations(brew)).toEqual([]);

    // What the policy is for: a script that found its way into the page does not run.
    const ran = await brew.evaluate(async () => {
      const script = document.createElement('script');
      script.textContent = 'window.inlineScriptRan = true';
      // An allowed inline script runs as it is appended; the refusal is reported (awaited below).
      document.body.append(script);
      return window.inlineScriptRan === true;
    });
    expect(ran).toBe(false);
    await expect.poll(() => violations(brew)).toEqual([expect.stringMatching(/^script-src-elem inline/)]);
    expect(await brew.evaluate(() => window.inlineScriptRan === true)).toBe(false);
  });
});
