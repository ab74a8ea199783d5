import { describe, expect, it } from 'vitest';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { sessionLanding, useProduct } from './harness';
import { passScheduledSprays } from './sprayer-schedules';

const SHOTS = process.env.UPDATE_SCREENSHOTS ? 'docs/screenshots' : 'test-results';

/**
 * Issue 36 item 1, select before operate, in Chromium against the real server and simulated devices:
 * every command to a device is confirmed first in a dialog that names the device, the output and the
 * value now and after; nothing leaves the browser before that (the real-time socket is watched);
 * Escape cancels, Enter confirms; the control then says "Sending…" until the device reports the
 * value, and "Done".
 */
describe('select before operate', () => {
  const product = useProduct();

  /** The device commands this page sent over the real-time socket or as `POST /message`. */
  interface CommandLog {
    sent: string[];
  }
  const COMMAND = /"type":"server\/(writeChannel|writeRegister|systemCommand)"/;

  async function open(email: string, width: number, landing?: RegExp): Promise<{ page: Page; log: CommandLog }> {
    const log: CommandLog = { sent: [] };
    const watch = async (context: BrowserContext) =>
      context.on('page', (page) => {
        page.on('websocket', (socket) =>
          socket.on('framesent', ({ payload }) => {
            if (COMMAND.test(String(payload))) log.sent.push(String(payload));
          }),
        );
        page.on('request', (request) => {
          if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/v1/message')
            log.sent.push(request.postData() ?? '');
        });
      });
    const page = await sessionLanding(product.browser, product.server.baseUrl, email, {
      viewport: { width, height: width < 600 ? 844 : 900 },
      prepare: watch,
      landing,
    });
    return { page, log };
  }

  /** Records every text a control's status line shows, so a short "Sending…" is seen too. */
  async function recordStatuses(control: Locator): Promise<() => Promise<string[]>> {
    await control.evaluate((element) => {
      const seen: string[] = [];
      (window as unknown as { operateStatuses: string[] }).operateStatuses = seen;
      const read = () => {
        const text = element.querySelector('[data-testid="operate-status"]')?.textContent?.trim() ?? '';
        if (text !== '' && seen.at(-1) !== text) seen.push(text);
      };
      new MutationObserver(read).observe(element, { subtree: true, childList: true, characterData: true });
    });
    const page = control.page();
    return () => page.evaluate(() => (window as unknown as { operateStatuses: string[] }).operateStatuses);
  }

  const confirmation = (page: Page, action: string) => page.getByRole('dialog', { name: `${action}?` });
  const plantWidget = (page: Page, key: string) => page.locator(`article[data-widget-id="${key}"]`);

  async function plantPage(width: number): Promise<{ page: Page; log: CommandLog }> {
    const opened = await open('water@fieldlink.test', width, /\/dash\/FTW-PLANT0[12]$/);
    const { page } = opened;
    await page.getByTestId('plant-dashboard').waitFor({ timeout: 30_000 });
    if (!page.url().endsWith('/dash/FTW-PLANT01')) {
      await page.goto(`${product.server.baseUrl}/dash/FTW-PLANT01`);
      await page.getByTestId('plant-dashboard').waitFor({ timeout: 30_000 });
    }
    return opened;
  }

  it('confirms Plant run before switching it: nothing sent before, Escape cancels, Enter sends', async () => {
    const { page, log } = await plantPage(1440);
    const widget = plantWidget(page, 'plantRun');
    const toggle = widget.getByRole('switch', { name: 'Plant run' });
    await expect.poll(() => widget.locator('.wv-caption').textContent(), { timeout: 30_000 }).toMatch(/^(On|Off)$/);
    const wasOn = (await toggle.getAttribute('aria-checked')) === 'true';
    const [action, now, after] = wasOn ? ['Switch off', 'On', 'Off'] : ['Switch on', 'Off', 'On'];
    const plantName = (await page.locator('.scene-page__title').textContent())?.replace(/(Online|Offline)$/, '').trim();

    // A click asks, naming the device, the output and the value now and after; nothing is sent.
    await toggle.click();
    const dialog = confirmation(page, action);
    await dialog.waitFor();
    expect(await dialog.getByTestId('operate-device').textContent()).toBe(plantName);
    expect(await dialog.getByTestId('operate-output').textContent()).toBe('Plant run do1');
    expect(await dialog.getByTestId('operate-now').textContent()).toBe(`now ${now}`);
    expect(await dialog.getByTestId('operate-after').textContent()).toBe(`after ${after}`);
    await page.screenshot({ path: `${SHOTS}/operate-confirm-1440.png` });
    expect(log.sent).toEqual([]);
    expect(await toggle.getAttribute('aria-checked')).toBe(String(wasOn));

    // Escape cancels: the dialog closes, nothing is sent, the switch is as it was.
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(log.sent).toEqual([]);
    expect(await toggle.getAttribute('aria-checked')).toBe(String(wasOn));

    // Enter confirms: one command, "Sending…" until the device reports the value, then "Done".
    const statuses = await recordStatuses(widget);
    await toggle.click();
    await dialog.waitFor();
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => statuses(), { timeout: 30_000 }).toContain('✓ Done');
    const seen = await statuses();
    expect(seen.indexOf('Sending…')).toBeGreaterThanOrEqual(0);
    expect(seen.indexOf('Sending…')).toBeLessThan(seen.indexOf('✓ Done'));
    expect(log.sent).toHaveLength(1);
    expect(JSON.parse(log.sent[0]!)).toMatchObject({ type: 'server/writeChannel', code: 'do1', value: wasOn ? 0 : 1 });
    expect(await toggle.getAttribute('aria-checked')).toBe(String(!wasOn));
    expect(await widget.locator('.wv-caption').textContent()).toBe(after);
    await page.context().close();
  });

  it('confirms a reset on a phone, then presses and releases it and says it is done', async () => {
    const { page, log } = await plantPage(390);
    const widget = plantWidget(page, 'reset-gpf2');
    const button = widget.getByRole('button', { name: 'Reset operating time' });
    await expect.poll(() => button.isEnabled(), { timeout: 30_000 }).toBe(true);
    await button.scrollIntoViewIfNeeded();
    await button.click();
    const dialog = confirmation(page, 'Press');
    await dialog.waitFor();
    expect(await dialog.getByTestId('operate-output').textContent()).toBe('Reset operating time gpf2');
    expect(await dialog.getByTestId('operate-after').textContent()).toBe('after Pressed, then released');
    // The dialog fits a phone: its confirm button is on screen.
    const confirm = dialog.getByRole('button', { name: 'Press', exact: true });
    const box = await confirm.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
    await page.screenshot({ path: `${SHOTS}/operate-confirm-390.png` });
    expect(log.sent).toEqual([]);

    // The Cancel button cancels too.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(log.sent).toEqual([]);

    const statuses = await recordStatuses(widget);
    await button.click();
    await confirm.click();
    await expect.poll(() => statuses(), { timeout: 30_000 }).toContain('✓ Done');
    expect((await statuses())[0]).toBe('Sending…');
    // A pulse: the press, then the release once the device held it.
    expect(log.sent.map((frame) => JSON.parse(frame) as { code: string; value: number })).toMatchObject([
      { code: 'gpf2', value: 1 },
      { code: 'gpf2', value: 0 },
    ]);
    await page.context().close();
  });

  it('confirms a spray zone start on a sprayer card before it is sent', async () => {
    await passScheduledSprays(product.server, ['OSC-SPR01', 'OSC-SPR02', 'OSC-SPR03']);
    const { page, log } = await open('spray@fieldlink.test', 1440, /\/spray\//);
    // A sprayer that may spray now: online, idle and not blocked by an alarm. Found by its name: the
    // cards come in as the sprayers' configurations do, so a position could name another card later.
    const cards = page.getByTestId('sprayer-card');
    const sprayable = () =>
      cards.evaluateAll(
        (all) =>
          all
            .find((card) =>
              Array.from(card.querySelectorAll('button')).some((b) => b.textContent === 'Spray zone 1' && !b.disabled),
            )
            ?.getAttribute('aria-label') ?? null,
      );
    let name: string | null = null;
    await expect.poll(async () => (name = await sprayable()), { timeout: 30_000 }).not.toBeNull();
    const card = page.locator(`[data-testid="sprayer-card"][aria-label="${name}"]`);
    const button = card.getByRole('button', { name: 'Spray zone 1' });

    await button.click();
    const dialog = confirmation(page, 'Spray zone 1');
    await dialog.waitFor();
    expect(await dialog.getByTestId('operate-device').textContent()).toBe(name);
    expect(await dialog.getByTestId('operate-output').textContent()).toBe('Manual spray gpf1');
    expect(await dialog.getByTestId('operate-now').textContent()).toBe('now Idle');
    expect(await dialog.getByTestId('operate-after').textContent()).toBe('after Spraying zone 1');
    expect(log.sent).toEqual([]);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(log.sent).toEqual([]);
    expect(await card.getByRole('button', { name: 'Stop spraying' }).count()).toBe(0);

    const statuses = await recordStatuses(card);
    await button.click();
    await dialog.waitFor();
    await page.keyboard.press('Enter');
    await expect.poll(() => statuses(), { timeout: 30_000 }).toContain('✓ Done');
    expect((await statuses())[0]).toBe('Sending…');
    expect(log.sent.map((frame) => JSON.parse(frame) as unknown)).toMatchObject([
      { type: 'server/writeChannel', code: 'gpf1', value: 1 },
    ]);
    await card.getByRole('button', { name: 'Stop spraying' }).waitFor({ timeout: 30_000 });
    await page.context().close();
  });

  it('confirms FLASH LED before the command leaves, then says it is done', async () => {
    const { page, log } = await open('ops@fieldlink.test', 1440);
    await page.goto(`${product.server.baseUrl}/dash/ACME-BLR01`);
    await page.getByRole('heading', { name: 'General information' }).waitFor({ timeout: 30_000 });
    const flash = page.getByRole('button', { name: 'FLASH LED' });
    await flash.click();
    const dialog = confirmation(page, 'Flash LED');
    await dialog.waitFor();
    expect(await dialog.getByTestId('operate-output').textContent()).toBe('Status LED');
    expect(await dialog.getByTestId('operate-now').textContent()).toBe('now Normal');
    expect(await dialog.getByTestId('operate-after').textContent()).toBe('after Flashing');
    expect(await dialog.getByTestId('operate-device').textContent()).not.toBe('');
    expect(log.sent).toEqual([]);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(log.sent).toEqual([]);

    const statuses = await recordStatuses(page.locator('.device-actions'));
    await flash.click();
    await dialog.waitFor();
    await page.keyboard.press('Enter');
    await expect.poll(() => statuses(), { timeout: 30_000 }).toContain('✓ Done');
    expect((await statuses())[0]).toBe('Sending…');
    await page.getByText('The device is flashing its LED.').waitFor();
    expect(log.sent.map((frame) => JSON.parse(frame) as unknown)).toMatchObject([
      { type: 'server/systemCommand', thingName: 'ACME-BLR01', command: 'FLASH LED' },
    ]);
    await page.context().close();
  });

  it('acts at once for a scene widget its author marked "no confirmation"', async () => {
    // The switch is zone 2 of Row 1, which a factory schedule would also turn.
    await passScheduledSprays(product.server, ['OSC-SPR01']);
    const { page, log } = await open('spray@fieldlink.test', 1440, /\/spray\//);
    await page.getByRole('link', { name: 'Scenes', exact: true }).click();
    await page.getByTestId('scene-grid').waitFor({ timeout: 30_000 });
    const frame = page.locator('[data-testid="widget-frame"][aria-label="Row 1 zone 2"]');
    const toggle = frame.getByRole('switch');
    await expect.poll(() => frame.locator('.wv-caption').textContent(), { timeout: 30_000 }).toMatch(/^(On|Off)$/);

    // By default the switch asks first.
    await toggle.click();
    await page.getByRole('dialog', { name: /^Switch (on|off)\?$/ }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    expect(log.sent).toEqual([]);

    // Its author marks it "no confirmation" in the widget editor; the mark is saved with the widget.
    await frame.getByTestId('widget-menu-button').click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    const editor = page.getByTestId('widget-editor');
    await editor.waitFor();
    const mark = editor.getByTestId('widget-no-confirmation');
    expect(await mark.isChecked()).toBe(false);
    await mark.check();
    await editor.screenshot({ path: `${SHOTS}/operate-no-confirmation-editor.png` });
    const saved = page.waitForResponse(
      (response) => response.request().method() === 'PUT' && new URL(response.url()).pathname === '/api/v1/widget',
    );
    await page.getByTestId('widget-editor-save').click();
    const answer = await saved;
    expect(answer.status()).toBe(200);
    expect(((await answer.json()) as { noConfirmation?: boolean }).noConfirmation).toBe(true);
    await editor.waitFor({ state: 'detached' });

    // Now a click sends at once: no dialog, one command, "Sending…" then "Done".
    const wasOn = (await toggle.getAttribute('aria-checked')) === 'true';
    const statuses = await recordStatuses(frame);
    await toggle.click();
    await expect.poll(() => log.sent.length, { timeout: 10_000 }).toBe(1);
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(JSON.parse(log.sent[0]!)).toMatchObject({ type: 'server/writeChannel', code: 'do2', value: wasOn ? 0 : 1 });
    await expect.poll(() => statuses(), { timeout: 30_000 }).toContain('✓ Done');
    expect((await statuses())[0]).toBe('Sending…');
    expect(await toggle.getAttribute('aria-checked')).toBe(String(!wasOn));
    await page.context().close();
  });
});
