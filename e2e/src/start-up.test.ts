import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { apiToken, launchBrowser, startServer, type RunningServer } from './harness';

/**
 * Core §2 start-up routing and the public pages as a visitor opens them: the landing page `/`, the
 * paths remembered through /loading, the links that keep their query strings, and the video library
 * read from the server's directory (an honest empty state first, then a real video that plays).
 */
describe('start-up routing and the public pages', () => {
  let server: RunningServer;
  let browser: Browser;
  let videos: string;
  let token: string;
  const shots = process.env.E2E_SCREENSHOTS;

  beforeAll(async () => {
    videos = fs.mkdtempSync(path.join(os.tmpdir(), 'fieldlink-e2e-videos-'));
    server = await startServer({ VIDEOS_DIR: videos });
    browser = await launchBrowser();
    token = await apiToken(server.baseUrl, 'viewer@fieldlink.test');
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    fs.rmSync(videos, { recursive: true, force: true });
  });

  const visitor = async (width = 1440): Promise<Page> =>
    (await browser.newContext({ viewport: { width, height: 900 } })).newPage();

  /** A browser that holds the viewer's token, as after an earlier sign-in. */
  const signedIn = async (): Promise<{ context: BrowserContext; page: Page }> => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.addInitScript((jwt) => {
      if (!sessionStorage.getItem('seeded')) {
        localStorage.setItem('fieldlinkToken', jwt);
        sessionStorage.setItem('seeded', '1');
      }
    }, token);
    return { context, page: await context.newPage() };
  };

  it('shows the landing page at / to a visitor without a token, which leads to the sign-in', async () => {
    const page = await visitor();
    await page.goto(`${server.baseUrl}/`);
    await page.getByRole('link', { name: 'Sign in' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    await page.getByRole('link', { name: 'Try the demo' }).waitFor();
    if (shots) await page.screenshot({ path: 'docs/screenshots/landing-1440.png' });
    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.waitForURL(/\/signin$/);
    await page.close();
  });

  it('sends a visitor without a token from a page that needs a sign-in, and from /loading, to /', async () => {
    const page = await visitor(390);
    for (const target of ['/accounts/treeview', '/dash/ACME-BLR01?range=day', '/alarms', '/loading', '/no-such-page']) {
      await page.goto(`${server.baseUrl}${target}`);
      await page.getByRole('link', { name: 'Sign in' }).waitFor();
      expect(new URL(page.url()).pathname, target).toBe('/');
    }
    if (shots) await page.screenshot({ path: 'docs/screenshots/landing-390.png' });
    await page.close();
  });

  it('keeps the query strings of invitation and reset links, token or not', async () => {
    const page = await visitor();
    await page.goto(`${server.baseUrl}/signup?code=abc123&email=new%40fieldlink.test`);
    await page.getByRole('heading').first().waitFor();
    expect(page.url()).toBe(`${server.baseUrl}/signup?code=abc123&email=new%40fieldlink.test`);
    await page.goto(`${server.baseUrl}/reset-password?email=viewer%40fieldlink.test&code=xyz`);
    await page.getByRole('heading').first().waitFor();
    expect(page.url()).toBe(`${server.baseUrl}/reset-password?email=viewer%40fieldlink.test&code=xyz`);
    await page.close();

    const { context, page: withToken } = await signedIn();
    await withToken.goto(`${server.baseUrl}/reset-password?email=viewer%40fieldlink.test&code=xyz`);
    await withToken.getByRole('heading').first().waitFor();
    expect(withToken.url()).toBe(`${server.baseUrl}/reset-password?email=viewer%40fieldlink.test&code=xyz`);
    await context.close();
  });

  it('remembers any path but / and /loading with a token, session screens included, and opens it after /loading', async () => {
    const { context, page } = await signedIn();
    const passed: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) passed.push(new URL(frame.url()).pathname);
    });
    await page.goto(`${server.baseUrl}/alarms?tab=1#list`);
    await page.waitForURL(`${server.baseUrl}/alarms?tab=1#list`, { timeout: 30_000 });
    await page
      .getByRole('heading', { name: /alarms/i })
      .first()
      .waitFor({ timeout: 30_000 });

    await page.goto(`${server.baseUrl}/forgot-password`);
    await page.waitForURL(`${server.baseUrl}/forgot-password`, { timeout: 30_000 });
    await page.getByRole('button').first().waitFor();
    expect(passed).toContain('/loading');

    await page.goto(`${server.baseUrl}/signin`);
    await page.waitForURL(`${server.baseUrl}/signin`, { timeout: 30_000 });
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();

    // `/` itself is not remembered: the account is read and the user lands on the first device's dash.
    await page.goto(`${server.baseUrl}/`);
    await page.waitForURL(/\/dash\/[A-Z0-9-]+$/, { timeout: 30_000 });
    await context.close();
  });

  it('shows /privacy and /videos/* without sign-in handling, with a token too', async () => {
    const { context, page } = await signedIn();
    await page.goto(`${server.baseUrl}/privacy`);
    await page.getByRole('heading', { name: 'Privacy' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/privacy');
    await context.close();
  });

  it('says honestly that no videos are published while the library is empty', async () => {
    const page = await visitor();
    await page.goto(`${server.baseUrl}/videos/getting-started`);
    await page.getByRole('heading', { name: 'No videos yet' }).waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('video-player').count()).toBe(0);
    await page.close();
  });

  it('lists the videos of the configured directory and plays the chosen one', async () => {
    const page = await visitor();
    await page.goto(`${server.baseUrl}/privacy`);
    // A real two-second WebM, recorded by Chromium itself from a canvas.
    const recorded = await page.evaluate(async () => {
      const canvas = document.createElement('canvas');
      canvas.width = 320;
      canvas.height = 180;
      const context = canvas.getContext('2d')!;
      const recorder = new MediaRecorder(canvas.captureStream(25), { mimeType: 'video/webm' });
      const chunks: Blob[] = [];
      recorder.ondataavailable = (event) => chunks.push(event.data);
      const stopped = new Promise((resolve) => (recorder.onstop = resolve));
      recorder.start(100);
      // eslint-disable-next-line no-restricted-syntax -- the browser paints a two-second video to play (the world, not a wait)
      const started = performance.now();
      await new Promise<void>((resolve) => {
        const draw = () => {
          // eslint-disable-next-line no-restricted-syntax -- the browser paints a two-second video to play (the world, not a wait)
          const t = performance.now() - started;
          context.fillStyle = `hsl(${(t / 10) % 360} 70% 45%)`;
          context.fillRect(0, 0, 320, 180);
          if (t < 2000) requestAnimationFrame(draw);
          else resolve();
        };
        draw();
      });
      recorder.stop();
      await stopped;
      const bytes = new Uint8Array(await new Blob(chunks, { type: 'video/webm' }).arrayBuffer());
      let binary = '';
      for (const byte of bytes) binary += String.fromCharCode(byte);
      return btoa(binary);
    });
    fs.writeFileSync(path.join(videos, '01-getting-started.webm'), Buffer.from(recorded, 'base64'));
    fs.writeFileSync(path.join(videos, '02-live-dashboards.webm'), Buffer.from(recorded, 'base64'));

    await page.goto(`${server.baseUrl}/videos/`);
    await page.getByRole('link', { name: 'Getting started' }).waitFor({ timeout: 30_000 });
    await page.getByRole('link', { name: 'Live dashboards' }).waitFor();
    await page.getByRole('link', { name: 'Getting started' }).click();
    await page.waitForURL(/\/videos\/01-getting-started$/);
    await page.getByRole('heading', { name: 'Getting started' }).waitFor();
    const player = page.getByTestId('video-player');
    await page.waitForFunction(
      () => ((document.querySelector('[data-testid="video-player"]') as HTMLVideoElement | null)?.readyState ?? 0) >= 1,
      undefined,
      { timeout: 30_000 },
    );
    const state = await player.evaluate(async (element) => {
      const video = element as HTMLVideoElement;
      video.muted = true;
      await video.play();
      // Until the clock moves or the video fails (the test's timeout bounds it).
      await new Promise<void>((resolve) => {
        const settled = () => video.currentTime > 0 || video.error !== null;
        if (settled()) return resolve();
        const check = () => {
          if (!settled()) return;
          video.removeEventListener('timeupdate', check);
          video.removeEventListener('error', check);
          resolve();
        };
        video.addEventListener('timeupdate', check);
        video.addEventListener('error', check);
      });
      return { error: video.error?.code ?? null, time: video.currentTime, width: video.videoWidth };
    });
    expect(state.error).toBeNull();
    expect(state.width).toBe(320);
    expect(state.time).toBeGreaterThan(0);
    if (shots) await page.screenshot({ path: 'docs/screenshots/videos-1440.png' });
    await page.setViewportSize({ width: 390, height: 844 });
    if (shots) await page.screenshot({ path: 'docs/screenshots/videos-390.png', fullPage: true });
    await page.close();
  });
});
