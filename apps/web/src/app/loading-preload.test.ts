import { describe, expect, it } from 'vitest';
import { pagePreloadOf } from './loading-preload';

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
