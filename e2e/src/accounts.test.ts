import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { apiToken, contentDrawn, launchBrowser, signInAs, startServer, type RunningServer } from './harness';
import { signupLinkOf, startMailCatcher } from './accounts-smtp';

type MailCatcher = Awaited<ReturnType<typeof startMailCatcher>>;

describe('account tree: invitations, moves and who sees what', () => {
  let mail: MailCatcher;
  let server: RunningServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  const newPage = async (): Promise<Page> => {
    const context = await browser.newContext({ viewport: { width: 1360, height: 860 } });
    contexts.push(context);
    return context.newPage();
  };
  const openTree = async (page: Page) => {
    await page.goto(`${server.baseUrl}/accounts/treeview`);
    await page.getByTestId('account-tree').waitFor({ timeout: 30_000 });
  };
  const row = (page: Page, name: string | RegExp) => page.getByRole('treeitem', { name });
  /** A link of the mail, opened on the server's own address (the mail names PUBLIC_URL). */
  const onServer = (link: URL) => `${server.baseUrl}${link.pathname}${link.search}`;
  const tokenOf = (email: string) => apiToken(server.baseUrl, email);

  beforeAll(async () => {
    mail = await startMailCatcher();
    server = await startServer({ SMTP_URL: mail.url, FIELDLINK_SIMULATOR: '0' });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await server?.stop();
    await mail?.stop();
  });

  it('invites by mail over SMTP; the invitee signs up from the link and has exactly the granted permissions', async () => {
    const ops = await newPage();
    await signInAs(ops, server.baseUrl, 'ops@fieldlink.test');
    await ops.waitForURL(/\/dash/, { timeout: 30_000 });
    await openTree(ops);
    await row(ops, /^Cold Store/).click({ button: 'right' });
    await ops.getByRole('menuitem', { name: 'Invite User' }).click();
    await ops.getByLabel('E-mail').fill('New.Hire@Acme.test');
    await ops.locator('[data-permission="VIEW_DASH"]').check();
    await ops.locator('[data-permission="VIEW_ACCOUNTS"]').check();
    // ops does not hold READ_REPORTS: it cannot be ticked.
    await expect(ops.locator('[data-permission="READ_REPORTS"]').isDisabled()).resolves.toBe(true);
    await ops.getByRole('button', { name: 'Send invitation' }).click();
    await ops.getByText('Invitation sent to new.hire@acme.test.').waitFor();

    const invitation = await mail.waitFor('new.hire@acme.test');
    expect(invitation.raw).toMatch(/Subject: Olive Operator invited you to Fieldlink/);
    const link = signupLinkOf(invitation);
    expect(link.pathname).toBe('/signup');
    expect(link.searchParams.get('email')).toBe('new.hire@acme.test');

    const hire = await newPage();
    await hire.goto(onServer(link));
    await hire.getByLabel('First name').fill('Nia');
    await hire.getByLabel('Last name').fill('Hire');
    await hire.getByLabel('Password').fill('a-long-enough-password');
    await hire.getByRole('button', { name: 'Create account' }).click();
    await hire.waitForURL(/\/signedUpSuccessfully$/);
    // The link works once.
    const again = await newPage();
    await again.goto(onServer(link));
    await again.getByLabel('First name').fill('Eve');
    await again.getByLabel('Last name').fill('Again');
    await again.getByLabel('Password').fill('another-long-password');
    await again.getByRole('button', { name: 'Create account' }).click();
    await again.getByRole('alert').waitFor();

    // Signs in afresh with the new password; the tree starts at Cold Store, where the invitation put them.
    await hire.goto(`${server.baseUrl}/signout`);
    await hire.waitForURL(/\/signin$/);
    await signInAs(hire, server.baseUrl, 'new.hire@acme.test', 'a-long-enough-password');
    await hire.waitForURL(/\/dash/, { timeout: 30_000 });
    await openTree(hire);
    await row(hire, /^Cold Store/).waitFor();
    expect(await hire.getByRole('treeitem', { name: /^Acme Controls/ }).count()).toBe(0);
    await row(hire, /^Nia Hire/).click();
    const chips = hire.getByTestId('detail-panel').locator('.permission-chips > *');
    await chips.first().waitFor();
    expect(await chips.allTextContents()).toEqual(['View dashboards', 'View accounts']);
  });

  it('a user without group edit sees no Move entry', async () => {
    const hire = contexts[1]!.pages()[0]!;
    await openTree(hire);
    await row(hire, /^Cold Store/).click();
    await hire.keyboard.press('ArrowRight');
    await row(hire, /^Freezer room/).click({ button: 'right' });
    // Handled once the row is selected: the same event opens the menu, where the row has one.
    await expect.poll(() => row(hire, /^Freezer room/).getAttribute('aria-selected')).toBe('true');
    expect(await hire.getByRole('menu').count()).toBe(0);
    expect(await hire.getByRole('menuitem', { name: 'Move' }).count()).toBe(0);
    expect(await hire.getByTestId('detail-panel').getByRole('button', { name: 'Move' }).count()).toBe(0);
  });

  it('moves a device; it shows under its new group', async () => {
    const ops = contexts[0]!.pages()[0]!;
    await openTree(ops);
    await row(ops, /^Boiler Room/).click();
    await ops.keyboard.press('ArrowRight');
    await row(ops, /^Boiler 1/).click({ button: 'right' });
    await ops.getByRole('menuitem', { name: 'Move' }).click();
    await ops.getByRole('option', { name: /Cold Store/ }).click();
    await ops.getByRole('button', { name: 'Move to Cold Store' }).click();
    await ops.getByText('Moved Boiler 1 to Cold Store.').waitFor();
    // The tree opens at the device in its new place.
    const moved = row(ops, /^Boiler 1/);
    await expect(moved.getAttribute('aria-level')).resolves.toBe('3');
    await expect(ops.getByTestId('detail-panel').textContent()).resolves.toContain('Acme Controls/Cold Store');
    await row(ops, /^Boiler Room/).click();
    await expect(ops.getByTestId('detail-panel').textContent()).resolves.toMatch(/Devices, all levels\s*1/);
  });

  it('a user without dashboard access lands on /dashAccessDeny', async () => {
    const ops = await tokenOf('ops@fieldlink.test');
    const account = (await (
      await fetch(`${server.baseUrl}/api/v1/account`, { headers: { authorization: ops } })
    ).json()) as { accounts: { rootGroup: { relativePath: string } }[] };
    const invite = await fetch(`${server.baseUrl}/api/v1/invite-user`, {
      method: 'POST',
      headers: { authorization: ops, 'content-type': 'application/json' },
      body: JSON.stringify({
        email: 'installer@acme.test',
        path: account.accounts[0]!.rootGroup.relativePath,
        permissions: ['ADD_DEVICES'],
      }),
    });
    expect(invite.status).toBe(200);
    const page = await newPage();
    await page.goto(onServer(signupLinkOf(await mail.waitFor('installer@acme.test'))));
    await page.getByLabel('First name').fill('Ian');
    await page.getByLabel('Last name').fill('Staller');
    await page.getByLabel('Password').fill('a-long-enough-password');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('link', { name: 'Open the console' }).click();
    await page.waitForURL(/\/dashAccessDeny$/, { timeout: 30_000 });
    await page.getByText('No dashboard access').waitFor();
  });

  it('a user of one account cannot reach another account’s tree or device by typing its URL', async () => {
    const ops = await tokenOf('ops@fieldlink.test');
    const acme = (await (
      await fetch(`${server.baseUrl}/api/v1/account`, { headers: { authorization: ops } })
    ).json()) as {
      accounts: {
        id: string;
        rootGroup: { id: string; groups: { name: string; id: string; devices: { id: string }[] }[] };
      }[];
    };
    const boilers = acme.accounts[0]!.rootGroup.groups.find((group) => group.name === 'Cold Store')!;

    const brew = await newPage();
    await signInAs(brew, server.baseUrl, 'brew@fieldlink.test');
    // The brewing app lands on its brew summary.
    await brew.waitForURL(/\/brew\/summary\/[^/]+$/, { timeout: 30_000 });
    await brew.goto(`${server.baseUrl}/dash/ACME-BLR01`);
    await brew.getByText('Device not found').waitFor({ timeout: 30_000 });
    expect(await brew.locator('body').textContent()).not.toContain('Boiler 1');

    await brew.goto(`${server.baseUrl}/dash/${acme.accounts[0]!.id}/${acme.accounts[0]!.rootGroup.id}`);
    // Once the page has drawn what it shows for that address (no lazy chunk's fallback, skeleton or
    // loading status left), it names nothing of Acme.
    await expect.poll(() => contentDrawn(brew), { timeout: 30_000 }).toBe(true);
    expect(await brew.locator('body').textContent()).not.toMatch(/Acme|Boiler|Cold Store/);

    await openTree(brew);
    await row(brew, /^Northgate Brewing/).waitFor();
    await brew.getByLabel('Search the account tree').fill('boiler');
    await brew
      .getByText(/Nothing matches|No matches/)
      .first()
      .waitFor();
    expect(await brew.getByRole('treeitem', { name: /Boiler 1/ }).count()).toBe(0);

    const answers = await brew.evaluate(
      async ({ deviceId, groupId }) => {
        const authorization = localStorage.getItem('fieldlinkToken') ?? '';
        const headers = { authorization, 'content-type': 'application/json' };
        const device = await fetch(`/api/v1/device?id=${deviceId}`, { headers });
        const rename = await fetch('/api/v1/group', {
          method: 'PUT',
          headers,
          body: JSON.stringify({ id: groupId, name: 'Mine' }),
        });
        return [device.status, rename.status];
      },
      { deviceId: boilers.devices[0]!.id, groupId: boilers.id },
    );
    expect(answers).toEqual([404, 404]);
  });
});
