import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../lib/query-client';
import { preloadForLoading } from './loading-preload';
import { pagePreloadOf } from './page-preload';
import { preloadPage } from './router';

describe('pagePreloadOf: the remembered pages whose first call starts while /loading reads the account', () => {
  it.each([
    ['/inv/cig/overview/acc-1/region-7', { page: 'overview', accountId: 'acc-1', groupId: 'region-7' }],
    ['/inv/cig/overview/acc-1/region-7/?x=1#top', { page: 'overview', accountId: 'acc-1', groupId: 'region-7' }],
    ['/inv/cig/overview/acc%201/g%2F1', { page: 'overview', accountId: 'acc 1', groupId: 'g/1' }],
    ['/accounts/list', { page: 'deviceTable' }],
    ['/accounts/list?sort=name', { page: 'deviceTable' }],
    ['/inv/cig/overview/acc-1', null],
    ['/inv/cig/store/acc-1/store-1', null],
    ['/inv/cig/overview/%E0%A4%A/g', null],
    ['/accounts/treeview', null],
    ['/dash/ACME-BLR01', null],
    [null, null],
  ])('%j -> %j', (path, preload) => {
    expect(pagePreloadOf(path)).toEqual(preload);
  });
});

describe('preloadForLoading: the calls /loading waits for go before any code (issue 41 item 5)', () => {
  /** What reached the network, in order: call paths, and the first page's code. */
  let requested: string[];

  beforeEach(() => {
    requested = [];
    vi.stubGlobal('localStorage', {
      getItem: (key: string) => (key === 'fieldlinkToken' ? 'jwt-1' : null),
      setItem: () => {},
      removeItem: () => {},
    });
    vi.stubGlobal('location', { hostname: 'bp.fieldlink.io' });
    // Answers nothing: what matters is the order in which the calls leave.
    vi.stubGlobal('fetch', (url: string) => {
      requested.push(url.split('?')[0]!);
      return new Promise<never>(() => undefined);
    });
  });

  afterEach(async () => {
    // What the preload loads in the background (pages' code, the device list's order) is awaited here:
    // the web files share a worker, and an import still on its way when the file ends failed the run
    // (EnvironmentTeardownError, full run at load 8).
    await Promise.all([
      preloadPage('/accounts/list'),
      import('./shell/app-shell'),
      import('../features/device-table/model/prepare-table'),
    ]);
    queryClient.clear();
    vi.unstubAllGlobals();
  });

  it('asks for the user, the remembered device table and the account tree before the first page code', async () => {
    const firstPage = preloadForLoading('/accounts/list', () => {
      requested.push('first page code');
      return Promise.resolve();
    });
    await firstPage;
    // A browser holds six connections to the server: scripts asked for first held all of them while
    // the 8.5 MB table waited for one.
    expect(requested.slice(0, 4)).toEqual([
      '/api/v1/self',
      '/api/v1/devices/table',
      '/api/v1/account',
      'first page code',
    ]);
  });

  it('without a remembered page, asks for the user and the account tree first', async () => {
    await preloadForLoading(null, () => {
      requested.push('first page code');
      return Promise.resolve();
    });
    expect(requested.slice(0, 3)).toEqual(['/api/v1/self', '/api/v1/account', 'first page code']);
  });
});
