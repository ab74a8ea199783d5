import { describe, expect, it } from 'vitest';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { Secret, TOTP } from 'otpauth';
import type { Page } from 'playwright-core';
import { callApi, DEMO_PASSWORD, signedInPage, signInAs, useProduct } from './harness';

/** Screenshots at desk and phone width (docs/screenshots when asked, else test-results). */
async function shoot(page: Page, name: string) {
  const dir = process.env.UPDATE_SCREENSHOTS ? 'docs/screenshots' : 'test-results';
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: `${dir}/${name}.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${dir}/${name}-phone.png`, fullPage: true });
  await page.setViewportSize({ width: 1440, height: 900 });
}

/** What an authenticator app reads from the QR code: the otpauth:// URL in it. */
async function scanQrCode(page: Page): Promise<string> {
  const source = await page.getByRole('img', { name: 'QR code for your authenticator app' }).getAttribute('src');
  const png = PNG.sync.read(Buffer.from(source!.replace(/^data:image\/png;base64,/, ''), 'base64'));
  const found = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
  if (!found) throw new Error('The QR code could not be read');
  return found.data;
}

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

/**
 * Issue 38 items 2 to 4: a person turns on an authenticator app, signs out and signs in with its code;
 * makes an API token and revokes it; signs another session out.
 */
describe('two-factor authentication', () => {
  const product = useProduct({ FIELDLINK_SIMULATOR: '0' });

  it('ops@ enrols TOTP from the QR code, saves the recovery codes, signs out and signs in with a code', async () => {
    const { baseUrl } = product.server;
    const email = 'ops@fieldlink.test';
    const page = await signedInPage(product.browser, baseUrl, email);
    await page.getByRole('button', { name: /Account menu/ }).click();
    await page.getByRole('link', { name: 'Two-factor authentication' }).click();
    await page.waitForURL(/\/account\/security$/);
    await page.getByRole('heading', { name: 'Two-factor authentication is off' }).waitFor();
    await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
    await page.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();

    const url = new URL(await scanQrCode(page));
    expect(url.protocol).toBe('otpauth:');
    expect(url.host).toBe('totp');
    expect(url.searchParams.get('issuer')).toBe('Fieldlink');
    const secret = url.searchParams.get('secret')!;
    // The key shown as text for apps that cannot scan is the same secret.
    expect((await page.getByTestId('totp-secret').textContent())!.replaceAll(' ', '')).toBe(secret);
    await shoot(page, 'security-enrol');

    const app = new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });
    const firstCode = app.generate();
    await page.getByLabel('Code from the app').fill(firstCode);
    await page.getByRole('button', { name: 'Turn on' }).click();
    await page.getByRole('heading', { name: 'Save your recovery codes' }).waitFor();
    const codes = await page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem').allTextContents();
    expect(codes).toHaveLength(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-7]{4}(-[a-z2-7]{4}){3}$/);
    await shoot(page, 'security-recovery-codes');
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download' }).click();
    expect((await download).suggestedFilename()).toBe('fieldlink-recovery-codes.txt');
    await page.getByRole('button', { name: 'I have saved them' }).click();
    await page.getByRole('heading', { name: 'Two-factor authentication is on' }).waitFor();
    await expect.poll(() => page.getByText('10 of 10 recovery codes are left.').count()).toBe(1);

    await page.getByRole('button', { name: /Account menu/ }).click();
    await page.getByRole('link', { name: 'Sign out' }).click();
    await page.waitForURL(/\/signin$/, { timeout: 30_000 });

    await signInAs(page, baseUrl, email, DEMO_PASSWORD);
    await page.getByText('Enter the code from your authenticator app.').waitFor({ timeout: 30_000 });
    const codeField = page.getByLabel('Authentication code');
    // The code that turned the app on was used there: it cannot sign in again.
    await codeField.fill(firstCode);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText('That code is not valid. Codes work once').waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Use a recovery code' }).click();
    await page.getByLabel('Recovery code').waitFor();
    await shoot(page, 'signin-recovery-code');
    await page.getByRole('button', { name: 'Use your authenticator app' }).click();
    // The app's next code (the server accepts one step either side of now, for a phone's clock).
    await codeField.fill(app.generate({ timestamp: Date.now() + 30_000 }));
    await shoot(page, 'signin-code');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL((u) => !/^\/(signin|loading)/.test(u.pathname), { timeout: 30_000 });
  });

  it('brew@ makes an API token, an integration uses it until it is revoked, and signs a phone out', async () => {
    const { baseUrl } = product.server;
    const email = 'brew@fieldlink.test';
    // Signed in on a phone too: another session of the same user.
    const phone = await fetch(`${baseUrl}/api/v1/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': IPHONE },
      body: JSON.stringify({ email, password: DEMO_PASSWORD }),
    });
    const phoneJwt = ((await phone.json()) as { jwt: string }).jwt;
    const page = await signedInPage(product.browser, baseUrl, email);
    await page.goto(`${baseUrl}/account/security`);
    const sessions = page.getByRole('table', { name: 'Signed-in sessions' });
    await sessions.getByText('This browser').waitFor();
    await sessions.getByText('Chrome on Linux').waitFor();
    await sessions.getByText('Safari on iPhone').waitFor();
    // The security page belongs to no section: no section's tabs above it.
    expect(await page.getByRole('navigation', { name: /views$/ }).count()).toBe(0);

    await page.getByRole('button', { name: 'New API token' }).click();
    await page.getByLabel('Name').fill('Nightly export');
    await page.getByRole('button', { name: 'Make token' }).click();
    const token = (await page.getByTestId('new-api-token').textContent())!;
    expect(token).toMatch(/^flk_/);
    await page.getByText('it will not be shown again').waitFor();
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('table', { name: 'API tokens' }).getByText('Nightly export').waitFor();
    await shoot(page, 'security-sessions-tokens');
    const self = () =>
      fetch(`${baseUrl}/api/v1/self`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.status);
    expect(await self()).toBe(200);

    await page.getByRole('button', { name: 'Revoke Nightly export' }).click();
    await page.getByRole('dialog', { name: 'Revoke this API token?' }).getByRole('button', { name: 'Revoke' }).click();
    await page.getByText('No API tokens yet.').waitFor();
    expect(await self()).toBe(401);

    await page.getByRole('button', { name: /^Sign out Safari on iPhone/ }).click();
    await page
      .getByRole('dialog', { name: 'Sign this session out?' })
      .getByRole('button', { name: 'Sign out' })
      .click();
    await page.getByText('You are signed in on this browser only.').waitFor();
    expect((await callApi(baseUrl, 'GET', '/self', phoneJwt)).status).toBe(401);
  });
});
