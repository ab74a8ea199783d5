import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiFetch, apiGet } from '../lib/api-client';
import { queryClient } from '../lib/query-client';
import { sendFirstCalls } from './first-calls';
import { preloadForLoading } from './loading-preload';
import { preloadPage } from './router';

/** What reached the network: each call's path and the token it carried. */
let requested: { path: string; authorization: string | null; cache: RequestCache | undefined }[];
let token: string | null;

const at = (href: string) => {
  const url = new URL(href, 'https://bp.fieldlink.io');
  return { pathname: url.pathname, search: url.search, hash: url.hash } as Location;
};

beforeEach(() => {
  requested = [];
  token = 'jwt-1';
  vi.stubGlobal('localStorage', {
    getItem: (key: string) => (key === 'fieldlinkToken' ? token : null),
    setItem: () => {},
    removeItem: () => {},
  });
  vi.stubGlobal('location', { hostname: 'bp.fieldlink.io', protocol: 'https:' });
  vi.stubGlobal('fetch', (url: string, init: RequestInit) => {
    const path = url.split('?')[0]!;
    requested.push({ path, authorization: new Headers(init.headers).get('authorization'), cache: init.cache });
    return Promise.resolve(new Response(JSON.stringify({ path, count: requested.length }), { status: 200 }));
  });
});

afterEach(async () => {
  // Takes what a test sent and left: the early calls are kept for the module's life (a page's).
  token = 'jwt-1';
  const headers = { authorization: token };
  await Promise.allSettled([
    apiGet('/self'),
    apiGet('/account', { format: 'columns' }),
    apiFetch('/devices/table', { format: 'binary' }, { headers, cache: 'no-cache' }),
  ]);
  // The preload's background imports too (loading-preload.test.ts says why).
  await Promise.all([preloadPage('/accounts/list'), import('../features/device-table/model/prepare-table')]);
  queryClient.clear();
  vi.unstubAllGlobals();
});

describe('sendFirstCalls: the calls /loading waits for, before the console has loaded (issue 41 item 5)', () => {
  it('sends the user, the remembered device table and the account tree, with the token', () => {
    sendFirstCalls(at('/accounts/list?sort=name'));
    expect(requested).toEqual([
      { path: '/api/v1/self', authorization: 'jwt-1', cache: 'default' },
      { path: '/api/v1/devices/table', authorization: 'jwt-1', cache: 'no-cache' },
      { path: '/api/v1/account', authorization: 'jwt-1', cache: 'default' },
    ]);
  });

  it.each([
    ['/loading', ['/api/v1/self', '/api/v1/account']],
    ['/', ['/api/v1/self', '/api/v1/account']],
    ['/dash/ACME-BLR01', ['/api/v1/self', '/api/v1/account']],
    ['/privacy', []],
    ['/reset-password?token=x', []],
  ])('opened at %s: %j', (href, paths) => {
    sendFirstCalls(at(href));
    expect(requested.map((call) => call.path)).toEqual(paths);
  });

  it.each([
    ['without a stored token', null],
    // A demo's calls are answered in the browser: none may reach the network (e2e demo).
    ['in a demo', 'demo'],
  ])('sends nothing %s', (_, stored) => {
    token = stored;
    sendFirstCalls(at('/accounts/list'));
    expect(requested).toEqual([]);
  });

  it("is what /loading's preloads then read: no call goes twice", async () => {
    sendFirstCalls(at('/accounts/list'));
    await preloadForLoading('/accounts/list', () => Promise.resolve());
    await vi.waitFor(() => expect(queryClient.getQueryData(['self'])).toBeDefined());
    expect(queryClient.getQueryData(['self'])).toEqual({ path: '/api/v1/self', count: 1 });
    expect(requested.map((call) => call.path)).toEqual(['/api/v1/self', '/api/v1/devices/table', '/api/v1/account']);
  });

  it('an early response goes to the same call only, and once', async () => {
    sendFirstCalls(at('/loading'));
    // Another token, a conditional request or another method is not the call that was sent.
    token = 'jwt-2';
    await apiGet('/self');
    token = 'jwt-1';
    await apiFetch('/self', undefined, { headers: { authorization: 'jwt-1', 'if-none-match': 'W/"1"' } });
    await apiFetch('/self', undefined, { method: 'POST', headers: { authorization: 'jwt-1' } });
    expect(requested.map((call) => call.authorization)).toEqual(['jwt-1', 'jwt-1', 'jwt-2', 'jwt-1', 'jwt-1']);
    // The same call takes it (the first answer), and the next one asks again.
    expect(await apiGet('/self')).toEqual({ path: '/api/v1/self', count: 1 });
    expect(await apiGet('/self')).toEqual({ path: '/api/v1/self', count: 6 });
  });
});
