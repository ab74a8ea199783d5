import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PALETTES } from '@fieldlink/domain/themes';
import { startTestApp, type TestApp } from '../../testing/test-app';

/** Width and height of a PNG, from its IHDR chunk. */
function pngSize(file: URL): [number, number] {
  const bytes = readFileSync(file);
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  return [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
}

// The manifest reads no table: one storage is enough.
describe('the web app manifest', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('sqlite', { env: { PRODUCT_NAME: 'Acme Field', DEFAULT_THEME: 'GREY' } });
  });
  afterAll(() => t?.close());

  it('names the product, opens standalone, and lists the 192 and 512 px icons the console ships', async () => {
    const answer = await t.app.inject({ method: 'GET', url: '/manifest.webmanifest' });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^application\/manifest\+json/);
    const manifest = answer.json();
    expect(manifest).toMatchObject({
      name: 'Acme Field',
      short_name: 'Acme Field',
      start_url: '/',
      scope: '/',
      display: 'standalone',
      // The installation's theme when the console names none.
      theme_color: PALETTES.GREY.topBar,
      background_color: PALETTES.GREY.background,
    });
    expect(manifest.icons).toEqual([
      { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
    ]);
    for (const size of [192, 512]) {
      expect(pngSize(new URL(`../../../web/public/icons/icon-${size}.png`, import.meta.url))).toEqual([size, size]);
    }
  });

  it.each([
    ['DARK', PALETTES.DARK.topBar],
    ['dark', PALETTES.DARK.topBar],
    ['bp', PALETTES.bp.topBar],
    ['NO-SUCH-THEME', PALETTES.GREY.topBar],
  ])('takes the colour of the theme in use (%s)', async (theme, colour) => {
    const answer = await t.app.inject({ method: 'GET', url: '/manifest.webmanifest', query: { theme } });
    expect(answer.json().theme_color).toBe(colour);
  });
});
