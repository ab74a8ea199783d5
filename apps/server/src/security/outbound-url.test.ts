import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkOutboundUrl,
  OUTBOUND_EXCERPT_BYTES,
  OutboundRefusedError,
  refusedAddressKind,
  sendOutbound,
  type OutboundPolicy,
} from './outbound-url';

describe('refusedAddressKind', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['169.254.0.1', 'link-local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456:789a::1', 'unique-local'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['ff02::1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.10', 'reserved'],
    ['2001:db8::1', 'reserved'],
    // IPv4 inside IPv6: mapped, in both spellings, compatible, NAT64 and 6to4.
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::FFFF:10.1.2.3', 'private'],
    ['::ffff:a9fe:a9fe', 'link-local'],
    ['::ffff:0.0.0.0', 'unspecified'],
    ['::127.0.0.1', 'loopback'],
    ['::0.0.0.2', 'unspecified'],
    ['64:ff9b::192.168.0.1', 'private'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['2002:7f00:1::', 'loopback'],
    ['2002:a00:1::1', 'private'],
    // Not an address at all.
    ['localhost', 'unspecified'],
    ['', 'unspecified'],
  ])('refuses %s as %s', (address, kind) => {
    expect(refusedAddressKind(address)).toBe(kind);
  });

  it.each([
    '93.184.215.14',
    '8.8.8.8',
    '172.15.255.255',
    '172.32.0.1',
    '100.128.0.1',
    '169.253.255.255',
    '11.0.0.1',
    '2606:4700:4700::1111',
    '2a00:1450:4001:80b::200e',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
    '2620:0:2d0:200::7',
  ])('allows the public address %s', (address) => {
    expect(refusedAddressKind(address)).toBeNull();
  });
});

/** A resolver with fixed answers, as DNS would give them. */
function answers(table: Record<string, string[]>): OutboundPolicy['resolve'] {
  return async (host) => {
    const found = table[host];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return found;
  };
}

describe('checkOutboundUrl', () => {
  const resolve = answers({
    'hooks.example.com': ['93.184.215.14'],
    'both.example.com': ['93.184.215.14', '10.0.0.5'],
    'inside.example.com': ['192.168.0.20'],
    'v6.example.com': ['2606:4700:4700::1111'],
    'v6inside.example.com': ['fd00::7'],
    'none.example.com': [],
  });
  const strict: OutboundPolicy = { allowPrivate: false, resolve };
  const open: OutboundPolicy = { allowPrivate: true, resolve };

  it.each([
    ['https://hooks.example.com/in', strict],
    ['http://hooks.example.com:8080/in?x=1', strict],
    ['https://v6.example.com/', strict],
    ['https://[2606:4700:4700::1111]/', strict],
    ['https://inside.example.com/in', open],
    ['http://127.0.0.1:9999/in', open],
    ['http://[::1]:9999/in', open],
  ])('accepts %s', async (url, policy) => {
    const check = await checkOutboundUrl(url, policy);
    expect(check.ok).toBe(true);
  });

  it.each([
    ['http://127.0.0.1/', /127\.0\.0\.1, a loopback address/],
    ['http://localhost:8080/', /not resolve|could not be resolved|loopback/],
    ['http://2130706433/', /127\.0\.0\.1, a loopback address/],
    ['http://0x7f.1/', /127\.0\.0\.1, a loopback address/],
    ['http://[::1]/', /::1, a loopback address/],
    ['http://[::ffff:127.0.0.1]/', /loopback/],
    ['http://[fe80::1]/', /link-local/],
    ['http://169.254.169.254/latest/meta-data/', /link-local/],
    ['http://0.0.0.0:8080/', /unspecified/],
    ['https://inside.example.com/', /192\.168\.0\.20, a private address/],
    ['https://both.example.com/', /10\.0\.0\.5, a private address/],
    ['https://v6inside.example.com/', /fd00::7, a unique-local address/],
    ['https://none.example.com/', /does not resolve to any address/],
    ['https://unknown.example.com/', /could not be resolved/],
    ['ftp://hooks.example.com/', /https:\/\/ or http:\/\//],
    ['file:///etc/passwd', /https:\/\/ or http:\/\//],
    ['javascript:alert(1)', /https:\/\/ or http:\/\//],
    ['https://user:pass@hooks.example.com/', /user name or password/],
    ['hooks.example.com/in', /not a valid absolute URL/],
    [`https://hooks.example.com/${'a'.repeat(2100)}`, /longer than 2048/],
  ])('refuses %s', async (url, reason) => {
    const check = await checkOutboundUrl(url, { allowPrivate: false, resolve });
    expect(check.ok).toBe(false);
    expect(check.ok === false && check.reason).toMatch(reason);
  });
});

describe('sendOutbound', () => {
  const received: { method?: string; path?: string; body: string; headers: http.IncomingHttpHeaders }[] = [];
  let server: http.Server;
  let port = 0;

  beforeAll(async () => {
    server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push({
          method: request.method,
          path: request.url,
          body: Buffer.concat(chunks).toString('utf8'),
          headers: request.headers,
        });
        if (request.url === '/redirect') {
          response.writeHead(302, { location: '/target' }).end();
        } else if (request.url === '/big') {
          response.writeHead(200).end('x'.repeat(100_000));
        } else if (request.url === '/silent') {
          // Never answers: the sender's deadline ends the exchange.
        } else {
          response.writeHead(204).end();
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const body = Buffer.from('{"event":"test"}');

  it('sends the exact bytes and headers to an allowed receiver', async () => {
    const before = received.length;
    const answer = await sendOutbound({
      url: `http://receiver.test:${port}/in`,
      headers: { 'content-type': 'application/json', 'x-test': '1' },
      body,
      timeoutMs: 5_000,
      policy: { allowPrivate: true, resolve: answers({ 'receiver.test': ['127.0.0.1'] }) },
    });
    expect(answer.status).toBe(204);
    expect(received.slice(before)).toEqual([
      expect.objectContaining({ method: 'POST', path: '/in', body: '{"event":"test"}' }),
    ]);
    expect(received.at(-1)!.headers['x-test']).toBe('1');
  });

  it('refuses a receiver on loopback unless private addresses are allowed', async () => {
    const before = received.length;
    await expect(
      sendOutbound({
        url: `http://127.0.0.1:${port}/in`,
        headers: {},
        body,
        timeoutMs: 5_000,
        policy: { allowPrivate: false },
      }),
    ).rejects.toBeInstanceOf(OutboundRefusedError);
    expect(received.length).toBe(before);
  });

  it('checks the address again when it connects (DNS rebinding)', async () => {
    const before = received.length;
    let lookups = 0;
    // The first answer (the URL check) is public, every later one (the connection) is loopback.
    const rebinding: OutboundPolicy['resolve'] = async () => (lookups++ === 0 ? ['93.184.215.14'] : ['127.0.0.1']);
    await expect(
      sendOutbound({
        url: `http://rebind.test:${port}/in`,
        headers: {},
        body,
        timeoutMs: 5_000,
        policy: { allowPrivate: false, resolve: rebinding },
      }),
    ).rejects.toThrow(/127\.0\.0\.1, a loopback address/);
    expect(lookups).toBe(2);
    expect(received.length).toBe(before);
  });

  it('follows no redirect: the 3xx is the answer', async () => {
    const before = received.length;
    const answer = await sendOutbound({
      url: `http://127.0.0.1:${port}/redirect`,
      headers: {},
      body,
      timeoutMs: 5_000,
      policy: { allowPrivate: true },
    });
    expect(answer.status).toBe(302);
    expect(received.slice(before).map((request) => request.path)).toEqual(['/redirect']);
  });

  it('keeps only a short excerpt of the answer', async () => {
    const answer = await sendOutbound({
      url: `http://127.0.0.1:${port}/big`,
      headers: {},
      body,
      timeoutMs: 5_000,
      policy: { allowPrivate: true },
    });
    expect(answer.status).toBe(200);
    expect(answer.excerpt).toBe('x'.repeat(OUTBOUND_EXCERPT_BYTES));
  });

  it('gives up on a receiver that does not answer in time', async () => {
    await expect(
      sendOutbound({
        url: `http://127.0.0.1:${port}/silent`,
        headers: {},
        body,
        timeoutMs: 300,
        policy: { allowPrivate: true },
      }),
    ).rejects.toThrow(/No answer within 300 ms/);
  });
});
