import { describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { apiToken, callApi, signInAs, useProduct } from './harness';

/** Screenshots at desk and phone width (docs/screenshots when asked, else test-results). */
async function shoot(page: Page, name: string) {
  const dir = process.env.UPDATE_SCREENSHOTS ? 'docs/screenshots' : 'test-results';
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: `${dir}/${name}.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${dir}/${name}-phone.png`, fullPage: true });
  await page.setViewportSize({ width: 1440, height: 900 });
}

/**
 * Issue 38 item 2: a person adds a passkey on the security page, signs out, and signs in with it and
 * no password. The passkey lives in Chromium's virtual authenticator (DevTools protocol), which
 * answers the real WebAuthn ceremonies as a laptop's fingerprint reader would.
 */
describe('passkeys', () => {
  const product = useProduct({ FIELDLINK_SIMULATOR: '0' });

  // A passkey is bound to PUBLIC_URL's host, localhost here (WebAuthn refuses IP addresses).
  const baseUrlOf = () => product.server.baseUrl.replace('127.0.0.1', 'localhost');

  /** A page whose browser has a laptop's fingerprint reader: Chromium's virtual authenticator. */
  async function withAuthenticator(): Promise<{
    context: BrowserContext;
    page: Page;
    devtools: Awaited<ReturnType<BrowserContext['newCDPSession']>>;
    authenticatorId: string;
  }> {
    const context = await product.browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    const devtools = await context.newCDPSession(page);
    await devtools.send('WebAuthn.enable');
    const { authenticatorId } = await devtools.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
      },
    });
    return { context, page, devtools, authenticatorId };
  }

  it('ops@ adds a passkey, signs out, and signs in with it without a password', async () => {
    const baseUrl = baseUrlOf();
    const { context, page, devtools, authenticatorId } = await withAuthenticator();

    const email = 'ops@fieldlink.test';
    await signInAs(page, baseUrl, email);
    await page.waitForURL((url) => !/^\/(signin|loading)/.test(url.pathname), { timeout: 30_000 });
    await page.getByRole('button', { name: /Account menu/ }).click();
    await page.getByRole('link', { name: 'Two-factor authentication' }).click();
    await page.waitForURL(/\/account\/security$/);
    const section = page.getByRole('region', { name: 'Passkeys' });
    await section.getByText('No passkeys yet.').waitFor();
    await section.getByRole('button', { name: 'Add a passkey' }).click();
    await section.getByLabel('Passkey name').fill('Work laptop');
    await section.getByRole('button', { name: 'Continue' }).click();
    const row = section.getByTestId('passkey-row');
    await row.getByText('Work laptop').waitFor({ timeout: 30_000 });
    expect(await row.count()).toBe(1);
    expect(await row.getByText('This kind of device').count()).toBe(1);
    expect(await row.getByText('Never').count()).toBe(1);
    // The credential is in the authenticator, discoverable, for the host of PUBLIC_URL.
    const { credentials } = await devtools.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(credentials[0]).toMatchObject({ isResidentCredential: true, rpId: 'localhost' });
    await section.scrollIntoViewIfNeeded();
    await shoot(page, 'security-passkeys');

    await page.getByRole('button', { name: /Account menu/ }).click();
    await page.getByRole('link', { name: 'Sign out' }).click();
    await page.waitForURL(/\/signin$/, { timeout: 30_000 });
    await page.getByRole('button', { name: 'Sign in with a passkey' }).waitFor();
    await shoot(page, 'signin-passkey');

    // No e-mail, no password: the passkey alone.
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.waitForURL((url) => !/^\/(signin|loading)/.test(url.pathname), { timeout: 30_000 });
    const used = await devtools.send('WebAuthn.getCredentials', { authenticatorId });
    expect(used.credentials[0]!.signCount).toBeGreaterThan(0);
    await page.goto(`${baseUrl}/account/security`);
    const usedRow = page.getByRole('region', { name: 'Passkeys' }).getByTestId('passkey-row');
    await usedRow.getByText('Work laptop').waitFor({ timeout: 30_000 });
    expect(await usedRow.getByText('Never').count()).toBe(0);
    await context.close();
  });

  it('a user whose account requires a second factor sets up a passkey at sign-in and is signed in', async () => {
    const baseUrl = baseUrlOf();
    const admin = await apiToken(baseUrl, 'admin@fieldlink.test');
    // The brewery as its own user sees it (the administrator sees it as a customer in the tree).
    const brewer = await apiToken(baseUrl, 'brew@fieldlink.test');
    const { accounts } = (
      await callApi<{ accounts: { id: string; name: string }[] }>(baseUrl, 'GET', '/account', brewer)
    ).json;
    const brewery = accounts.find((account) => account.name === 'Northgate Brewing');
    const requireSecondFactor = (required: boolean) =>
      callApi(baseUrl, 'PUT', '/account/second-factor', admin, { accountId: brewery?.id, required });
    expect((await requireSecondFactor(true)).status).toBe(200);
    const { context, page, devtools, authenticatorId } = await withAuthenticator();
    try {
      await signInAs(page, baseUrl, 'brew@fieldlink.test');
      await page.waitForURL(/\/second-factor-setup$/, { timeout: 30_000 });
      // Both second factors the security page offers, not only the authenticator app.
      await page.getByRole('button', { name: 'Use an authenticator app' }).waitFor();
      await shoot(page, 'second-factor-setup-choice');
      await page.getByRole('button', { name: 'Use a passkey' }).click();
      await page.getByLabel('Passkey name').fill('Brewhouse tablet');
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.waitForURL((url) => !/^\/(signin|loading|second-factor-setup)/.test(url.pathname), {
        timeout: 30_000,
      });
      const { credentials } = await devtools.send('WebAuthn.getCredentials', { authenticatorId });
      expect(credentials).toHaveLength(1);
      await page.goto(`${baseUrl}/account/security`);
      const row = page.getByRole('region', { name: 'Passkeys' }).getByTestId('passkey-row');
      await row.getByText('Brewhouse tablet').waitFor({ timeout: 30_000 });
    } finally {
      await context.close();
      await requireSecondFactor(false);
    }
  });
});
