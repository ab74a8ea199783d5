import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, DIALECTS, startTestApp, type TestApp } from '../../testing/test-app';
import { parseTrustProxy, proxyTrust } from './client-address';

describe('TRUST_PROXY', () => {
  it.each([
    { value: undefined, trust: false },
    { value: '', trust: false },
    { value: '0', trust: false },
    { value: 'off', trust: false },
    { value: '1', trust: 1 },
    { value: '2', trust: 2 },
    { value: '10.0.0.7', trust: ['10.0.0.7'] },
    { value: ' loopback , 10.0.0.0/8,fd00::/8 ', trust: ['loopback', '10.0.0.0/8', 'fd00::/8'] },
  ])('reads $value as $trust', ({ value, trust }) => {
    expect(parseTrustProxy(value)).toEqual(trust);
  });

  it.each(['true', 'all', '10.0.0.300', 'proxy.internal', '10.0.0.0/99'])(
    'refuses %s with a clear message',
    (value) => {
      expect(() => parseTrustProxy(value)).toThrow(/TRUST_PROXY/);
    },
  );

  it.each([
    { setting: 1, address: '203.0.113.7', hop: 0, trusted: true },
    { setting: 1, address: '127.0.0.1', hop: 1, trusted: false },
    { setting: 2, address: '203.0.113.7', hop: 1, trusted: true },
    { setting: 2, address: '10.0.0.2', hop: 2, trusted: false },
    { setting: ['10.0.0.0/8'], address: '10.1.2.3', hop: 3, trusted: true },
    { setting: ['10.0.0.0/8'], address: '203.0.113.7', hop: 0, trusted: false },
    { setting: ['loopback'], address: '::1', hop: 0, trusted: true },
  ])('with $setting, believes the hop $hop at $address: $trusted', ({ setting, address, hop, trusted }) => {
    const trust = proxyTrust(setting);
    expect(trust && trust(address, hop)).toBe(trusted);
  });

  it('trusts nobody when unset', () => {
    expect(proxyTrust(false)).toBe(false);
  });
});

const FORGED = ['198.51.100.1', '198.51.100.2', '127.0.0.1'];

/**
 * SECURITY.md 22: behind a proxy, a per-address limit counts the address the trusted proxy saw (the
 * right-most entries it and its trusted peers added), not the left-most entry the client wrote. The
 * crash report's limit (30 a minute per address) is the probe: no password work, so every form is cheap.
 */
describe.each([
  // One proxy on this machine: it appends the address it saw.
  { form: '1', peer: '127.0.0.1', forwardedFor: (client: string, i: number) => `${FORGED[i % 3]}, ${client}` },
  // A CDN in front of a load balancer: two hops, the CDN's entry names the client.
  {
    form: '2',
    peer: '10.0.0.5',
    forwardedFor: (client: string, i: number) => `${FORGED[i % 3]}, ${client}, 10.0.0.2`,
  },
  // Proxies named by address and range.
  {
    form: '10.0.0.5,loopback,172.16.0.0/12',
    peer: '10.0.0.5',
    forwardedFor: (client: string, i: number) => `${FORGED[i % 3]}, ${client}, 172.16.4.1`,
  },
])('TRUST_PROXY=$form', ({ form, peer, forwardedFor }) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('sqlite', { env: { TRUST_PROXY: form } });
  });
  afterAll(() => t?.close());

  const report = (remoteAddress: string, headers: Record<string, string>) =>
    t.app.inject({ method: 'POST', url: '/api/v1/event-log', payload: { error: 'boom' }, remoteAddress, headers });

  it('counts a client by the address the trusted proxy saw, whatever it writes itself', async () => {
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => report(peer, { 'x-forwarded-for': forwardedFor('203.0.113.9', i) })),
    );
    const codes = answers.map((answer) => answer.statusCode);
    expect(codes.filter((code) => code === 200)).toHaveLength(30);
    expect(codes.filter((code) => code === 429)).toHaveLength(10);
    // Another client behind the same proxy has its own allowance.
    const other = await report(peer, { 'x-forwarded-for': forwardedFor('203.0.113.10', 0) });
    expect(other.statusCode).toBe(200);
  });
});

// A hop count believes whatever peer reaches the server (docs/operations.md: reachable only through the
// proxy); addresses believe only the proxies they name.
describe('TRUST_PROXY naming the proxies', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('sqlite', { env: { TRUST_PROXY: '10.0.0.5' } });
  });
  afterAll(() => t?.close());

  const report = (remoteAddress: string, headers: Record<string, string>) =>
    t.app.inject({ method: 'POST', url: '/api/v1/event-log', payload: { error: 'boom' }, remoteAddress, headers });

  it('does not believe a peer that is not one of them', async () => {
    const viaProxy = await Promise.all(
      Array.from({ length: 31 }, () => report('10.0.0.5', { 'x-forwarded-for': '203.0.113.9' })),
    );
    expect(viaProxy.filter((answer) => answer.statusCode === 429)).toHaveLength(1);
    // An outsider naming 203.0.113.9 is counted as itself: its own 30.
    const outsider = await Promise.all(
      Array.from({ length: 31 }, () => report('192.0.2.44', { 'x-forwarded-for': '203.0.113.9' })),
    );
    expect(outsider.filter((answer) => answer.statusCode === 429)).toHaveLength(1);
  });
});

/**
 * The measurement: 120 parallel bad sign-ins whose forged left-most entries differed were all
 * evaluated, and a real sign-in behind the same proxy waited 88.8 s. With the trusted hop's word, the
 * burst is one address: the password gate runs two and queues four of it, the rest are refused at once.
 */
describe.each(DIALECTS)('sign-in behind a proxy on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect, { env: { TRUST_PROXY: '1' } });
  });
  afterAll(() => t?.close());

  const signIn = (email: string, password: string, forwardedFor: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/signin',
      payload: { email, password },
      remoteAddress: '127.0.0.1',
      headers: { 'x-forwarded-for': forwardedFor },
    });

  it(
    'evaluates a few of 120 forged-address bad sign-ins and lets a real one through',
    { timeout: 120_000 },
    async () => {
      const burst = Promise.all(
        Array.from({ length: 120 }, (_, i) =>
          signIn(`nobody-${i}@burst.test`, 'wrong-password', `198.51.${Math.floor(i / 250)}.${i % 250}, 203.0.113.66`),
        ),
      );
      const real = await signIn('spray@fieldlink.test', DEMO_PASSWORD, '127.0.0.1, 203.0.113.77');
      expect(real.statusCode).toBe(200);
      const codes = (await burst).map((answer) => answer.statusCode);
      expect(codes.filter((code) => code === 401).length).toBeLessThanOrEqual(6);
      expect(codes.filter((code) => code === 429).length).toBeGreaterThanOrEqual(114);
    },
  );
});
