import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { startTestApp, type TestApp } from '../../testing/test-app';
import { contentSecurityDirectives } from './content-security-policy';

/** The policy's directives by name. */
function directives(policy: string): Record<string, string[]> {
  return Object.fromEntries(
    policy.split(';').map((part) => {
      const [name, ...values] = part.trim().split(/\s+/);
      return [name!, values];
    }),
  );
}

describe('the Content-Security-Policy', () => {
  it('allows scripts only from the console itself, no inline script, eval, plug-in or foreign frame', () => {
    const policy = contentSecurityDirectives(loadConfig({}));
    expect(policy['script-src']).toEqual(["'self'"]);
    expect(policy['script-src-attr']).toEqual(["'none'"]);
    expect(policy['default-src']).toEqual(["'self'"]);
    expect(policy['object-src']).toEqual(["'none'"]);
    expect(policy['frame-ancestors']).toEqual(["'self'"]);
    expect(policy['base-uri']).toEqual(["'self'"]);
    expect(policy['form-action']).toEqual(["'self'"]);
    expect(policy['img-src']).toEqual(["'self'", 'data:', 'blob:']);
    expect(policy['connect-src']).toEqual(["'self'"]);
    expect(policy['media-src']).toEqual(["'self'"]);
  });

  it.each([
    {
      name: 'map tiles on subdomains',
      env: { MAP_TILE_URL: 'https://{s}.tile.example.com/{z}/{x}/{y}.png?key={key}' },
      directive: 'img-src',
      source: 'https://*.tile.example.com',
    },
    {
      name: 'map tiles on a port',
      env: { MAP_TILE_URL: 'http://127.0.0.1:8099/tiles/{z}/{x}/{y}.png' },
      directive: 'img-src',
      source: 'http://127.0.0.1:8099',
    },
    {
      name: 'a geocoder',
      env: { GEOCODER_URL: 'https://Nominatim.Example.org/search' },
      directive: 'connect-src',
      source: 'https://nominatim.example.org',
    },
    {
      name: 'videos hosted elsewhere',
      env: { VIDEO_URLS: 'Intro|https://cdn.example.com/intro.mp4,https://media.example.net/a/b.webm' },
      directive: 'media-src',
      source: 'https://media.example.net',
    },
    {
      name: 'the API host the console is built for',
      env: { FIELDLINK_API_HOST: 'api.example.com', FIELDLINK_API_NEXT_SUBDOMAINS: 'beta' },
      directive: 'connect-src',
      source: 'wss://next.api.example.com',
    },
  ])('lets the console reach $name, and that only where it is needed', ({ env, directive, source }) => {
    const policy = contentSecurityDirectives(loadConfig(env));
    expect(policy[directive]).toContain(source);
    expect(policy['script-src']).toEqual(["'self'"]);
    for (const [name, values] of Object.entries(policy)) if (name !== directive) expect(values).not.toContain(source);
  });
});

describe('the policy on every answer', () => {
  let t: TestApp;
  let dist: string;
  beforeAll(async () => {
    dist = mkdtempSync(path.join(os.tmpdir(), 'fieldlink-dist-'));
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Fieldlink</title>');
    writeFileSync(path.join(dist, 'assets', 'app-abc123.js'), 'console.log(1)');
    t = await startTestApp('sqlite', { env: { WEB_DIST: dist } });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it.each([
    ['GET', '/'],
    ['GET', '/dash/ACME-BLR01'],
    ['GET', '/assets/app-abc123.js'],
    ['GET', '/assets/gone-123.js'],
    ['GET', '/api/v1/health'],
    ['GET', '/api/v1/self'],
    ['POST', '/api/v1/signin'],
    ['GET', '/api/v1/docs/static/index.html'],
    ['GET', '/api/v1/realtime'],
    ['GET', '/metrics'],
  ])('%s %s carries it', async (method, url) => {
    const answer = await t.app.inject({
      method: method as 'GET' | 'POST',
      url,
      payload: method === 'POST' ? {} : undefined,
    });
    expect(directives(String(answer.headers['content-security-policy']))).toEqual(contentSecurityDirectives(t.config));
    expect(answer.headers).toMatchObject({
      'x-frame-options': 'SAMEORIGIN',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'strict-origin-when-cross-origin',
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-site',
      'x-permitted-cross-domain-policies': 'none',
    });
    // Plain HTTP: a browser ignores Strict-Transport-Security here, so none is claimed.
    expect(answer.headers['strict-transport-security']).toBeUndefined();
  });
});
