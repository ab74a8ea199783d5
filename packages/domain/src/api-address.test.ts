import { describe, expect, it } from 'vitest';
import { apiBase, realtimeAddress, settingList, type ApiAddressConfig } from './api-address';

const configured: ApiAddressConfig = {
  productionHost: 'api.fieldlink.io',
  developmentHost: 'localhost:8080',
  nextSubdomains: ['next', 'Beta'],
};
const single: ApiAddressConfig = { productionHost: null, developmentHost: null, nextSubdomains: ['next'] };

describe('apiBase (core §7)', () => {
  it.each([
    { name: 'single install: same origin', config: single, subdomain: 'bp', development: false, base: '/api/v1' },
    { name: 'single install in development', config: single, subdomain: '', development: true, base: '/api/v1' },
    {
      name: 'production host',
      config: configured,
      subdomain: 'bp',
      development: false,
      base: 'https://api.fieldlink.io/api/v1',
    },
    {
      name: 'next. prefix chosen by the page subdomain',
      config: configured,
      subdomain: 'beta',
      development: false,
      base: 'https://next.api.fieldlink.io/api/v1',
    },
    {
      name: 'another subdomain keeps the host',
      config: configured,
      subdomain: 'nextgen',
      development: false,
      base: 'https://api.fieldlink.io/api/v1',
    },
    {
      name: 'local development host',
      config: configured,
      subdomain: 'localhost',
      development: true,
      base: 'https://localhost:8080/api/v1',
    },
    {
      name: 'a host already on next. is not prefixed twice',
      config: { ...configured, productionHost: 'next.api.fieldlink.io' },
      subdomain: 'next',
      development: false,
      base: 'https://next.api.fieldlink.io/api/v1',
    },
    {
      name: 'a blank host is the same origin',
      config: { ...configured, productionHost: '  ' },
      subdomain: 'next',
      development: false,
      base: '/api/v1',
    },
  ])('$name', ({ config, subdomain, development, base }) => {
    expect(apiBase(config, { protocol: 'https:', subdomain, development })).toBe(base);
  });

  it('follows the page scheme', () => {
    expect(apiBase(configured, { protocol: 'http:', subdomain: '', development: true })).toBe(
      'http://localhost:8080/api/v1',
    );
  });
});

describe('realtimeAddress', () => {
  it.each([
    { config: single, protocol: 'https:', subdomain: 'bp', url: 'wss://bp.fieldlink.io/api/v1/realtime' },
    { config: single, protocol: 'http:', subdomain: '', url: 'ws://bp.fieldlink.io/api/v1/realtime' },
    { config: configured, protocol: 'https:', subdomain: 'next', url: 'wss://next.api.fieldlink.io/api/v1/realtime' },
  ])('$protocol $subdomain -> $url', ({ config, protocol, subdomain, url }) => {
    expect(
      realtimeAddress(config, { protocol, subdomain, development: false, host: 'bp.fieldlink.io' }, '/api/v1/realtime'),
    ).toBe(url);
  });
});

describe('settingList', () => {
  it.each([
    [undefined, []],
    ['', []],
    ['next', ['next']],
    [' next, beta ,,', ['next', 'beta']],
  ])('%j -> %j', (value, list) => expect(settingList(value)).toEqual(list));
});
