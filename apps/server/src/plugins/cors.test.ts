import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing/test-app';

// Headers only, no storage: one dialect is enough.
const CONSOLE = 'https://console.example.com';

describe('cross-origin calls from a console on another host', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('sqlite', { env: { ALLOWED_ORIGINS: `${CONSOLE},https://other.example.com` } });
  });
  afterAll(() => t?.close());

  it('answers the preflight of an allowed origin with the headers the console sends', async () => {
    const answer = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/v1/self',
      headers: { origin: CONSOLE, 'access-control-request-method': 'GET' },
    });
    expect(answer.statusCode).toBe(204);
    expect(answer.headers['access-control-allow-origin']).toBe(CONSOLE);
    expect(answer.headers['access-control-allow-headers']).toBe(
      'authorization, content-type, x-client-type, x-client-version, x-subdomain',
    );
    expect(answer.headers['access-control-allow-methods']).toBe('GET, POST, PUT, DELETE');
  });

  it('marks the answers of an allowed origin, refusals included', async () => {
    const config = await t.app.inject({ method: 'GET', url: '/api/v1/client-config', headers: { origin: CONSOLE } });
    expect(config.statusCode).toBe(200);
    expect(config.headers['access-control-allow-origin']).toBe(CONSOLE);
    expect(config.headers.vary).toMatch(/Origin/);
    const refused = await t.app.inject({ method: 'GET', url: '/api/v1/self', headers: { origin: CONSOLE } });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['access-control-allow-origin']).toBe(CONSOLE);
  });

  it('gives another origin no CORS header', async () => {
    for (const method of ['GET', 'OPTIONS'] as const) {
      const answer = await t.app.inject({
        method,
        url: '/api/v1/client-config',
        headers: { origin: 'https://evil.example.com', 'access-control-request-method': 'GET' },
      });
      expect(answer.headers['access-control-allow-origin'], method).toBeUndefined();
    }
  });
});

describe('without ALLOWED_ORIGINS', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('sqlite');
  });
  afterAll(() => t?.close());

  it('sends no CORS header: the console calls its own origin', async () => {
    const answer = await t.app.inject({ method: 'GET', url: '/api/v1/client-config', headers: { origin: CONSOLE } });
    expect(answer.headers['access-control-allow-origin']).toBeUndefined();
  });
});
