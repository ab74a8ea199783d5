import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { LookupFunction } from 'node:net';

/**
 * Server-side request forgery guard for every call the server makes to an address a user gave
 * (webhooks, Web Push endpoints). A URL is refused when any address its host resolves to lies inside:
 * loopback, private (RFC 1918), shared (RFC 6598), link-local (with the cloud metadata address),
 * unique-local IPv6, unspecified, multicast, broadcast, reserved and documentation ranges, and the same
 * IPv4 ranges written as IPv6 (IPv4-mapped, IPv4-compatible, NAT64 and 6to4 forms). The check runs when
 * the URL is saved ({@link checkOutboundUrl}) and again on every connection ({@link sendOutbound} pins
 * the socket to an address it checked, so a DNS answer that changes between the two cannot reach
 * inside). Redirects are never followed. `FIELDLINK_WEBHOOK_ALLOW_PRIVATE=1` lifts the address rule for
 * on-premise installations whose receivers live on the private network, and for the tests.
 */

/** Why an address may not be called, in words for the refusal; ranges in the order checked. */
const REFUSED_IPV4: ReadonlyArray<[string, number, string]> = [
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'private'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'],
  ['192.0.2.0', 24, 'reserved'],
  ['192.88.99.0', 24, 'reserved'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'reserved'],
  ['198.51.100.0', 24, 'reserved'],
  ['203.0.113.0', 24, 'reserved'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];

const REFUSED_IPV6: ReadonlyArray<[string, number, string]> = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['100::', 64, 'reserved'],
  ['2001:db8::', 32, 'reserved'],
  ['fc00::', 7, 'unique-local'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'private'],
  ['ff00::', 8, 'multicast'],
];

function blockList(ranges: ReadonlyArray<[string, number, string]>, family: 'ipv4' | 'ipv6') {
  return ranges.map(([network, prefix, kind]) => {
    const list = new net.BlockList();
    list.addSubnet(network, prefix, family);
    return { list, kind };
  });
}

const IPV4_RULES = blockList(REFUSED_IPV4, 'ipv4');
const IPV6_RULES = blockList(REFUSED_IPV6, 'ipv6');

/** The 16 bytes of an IPv6 address (valid per `net.isIPv6`), with a trailing dotted IPv4 part. */
function ipv6Bytes(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split('.').map(Number) as [number, number, number, number];
    text = text.slice(0, dotted.index) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const zeros = tail === undefined ? [] : Array(8 - headGroups.length - tailGroups.length).fill('0');
  return [...headGroups, ...zeros, ...tailGroups].flatMap((group) => {
    const value = parseInt(group, 16);
    return [value >> 8, value & 0xff];
  });
}

/** The IPv4 address an IPv6 address carries (mapped, compatible, NAT64, 6to4), or null. */
function embeddedIpv4(address: string): string | null {
  const bytes = ipv6Bytes(address);
  const quad = (from: number) => bytes.slice(from, from + 4).join('.');
  const allZero = (from: number, to: number) => bytes.slice(from, to).every((byte) => byte === 0);
  // ::ffff:a.b.c.d (mapped) and ::a.b.c.d (compatible; :: and ::1 match IPv6's own rules first).
  if (allZero(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return quad(12);
  if (allZero(0, 12)) return quad(12);
  // 64:ff9b::a.b.c.d (NAT64, RFC 6052) and 64:ff9b:1::/48 (local-use NAT64, RFC 8215).
  if (bytes[0] === 0 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b) return quad(12);
  // 2002:aabb:ccdd::/48 (6to4).
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return quad(2);
  return null;
}

/**
 * Why the server may not call this IP address ('loopback', 'private', 'link-local', 'unique-local',
 * 'unspecified', 'multicast', 'reserved'), or null when it is a public address. Anything that is not an
 * IP address at all is refused as 'unspecified'.
 */
export function refusedAddressKind(address: string): string | null {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (net.isIPv4(bare)) {
    if (bare === '255.255.255.255') return 'broadcast';
    return IPV4_RULES.find((rule) => rule.list.check(bare, 'ipv4'))?.kind ?? null;
  }
  if (net.isIPv6(bare)) {
    const own = IPV6_RULES.find((rule) => rule.list.check(bare, 'ipv6'))?.kind;
    if (own) return own;
    const inner = embeddedIpv4(bare);
    return inner === null ? null : refusedAddressKind(inner);
  }
  return 'unspecified';
}

/** Whether addresses inside are allowed (`FIELDLINK_WEBHOOK_ALLOW_PRIVATE=1`), and how names resolve. */
export interface OutboundPolicy {
  allowPrivate: boolean;
  /** Resolves a host name to all its addresses; default `dns.lookup` with `all: true`. Tests inject it. */
  resolve?: (host: string) => Promise<string[]>;
}

async function resolveAll(host: string): Promise<string[]> {
  const answers = await dns.promises.lookup(host, { all: true, verbatim: true });
  return answers.map((answer) => answer.address);
}

/** A URL the server may call, or why not (a sentence for a 400 answer). */
export type OutboundUrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

/** Longest URL accepted. */
export const OUTBOUND_URL_MAX_LENGTH = 2048;

function refuseAddresses(host: string, addresses: string[], policy: OutboundPolicy): string | null {
  if (addresses.length === 0) return `The host ${host} does not resolve to any address.`;
  if (policy.allowPrivate) return null;
  for (const address of addresses) {
    const kind = refusedAddressKind(address);
    if (kind !== null) {
      return `The host ${host} resolves to ${address}, a ${kind} address; the server does not call addresses inside a network.`;
    }
  }
  return null;
}

/**
 * Checks a URL the server is asked to call: http or https only, no user name or password in it, and
 * every address its host resolves to outside the refused ranges (unless the policy allows them).
 */
export async function checkOutboundUrl(text: string, policy: OutboundPolicy): Promise<OutboundUrlCheck> {
  if (text.length > OUTBOUND_URL_MAX_LENGTH) {
    return { ok: false, reason: `The URL is longer than ${OUTBOUND_URL_MAX_LENGTH} characters.` };
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, reason: 'The URL is not a valid absolute URL.' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { ok: false, reason: 'The URL must begin with https:// or http://.' };
  }
  if (url.username || url.password) {
    return { ok: false, reason: 'The URL may not carry a user name or password.' };
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = net.isIP(host) ? [host] : await (policy.resolve ?? resolveAll)(host);
  } catch {
    return { ok: false, reason: `The host ${host} could not be resolved.` };
  }
  const reason = refuseAddresses(host, addresses, policy);
  return reason === null ? { ok: true, url } : { ok: false, reason };
}

/** A `lookup` for `http.request` that resolves like `dns.lookup` and refuses addresses inside. */
function guardedLookup(policy: OutboundPolicy): LookupFunction {
  return (hostname, options, callback) => {
    const resolve = policy.resolve ?? resolveAll;
    resolve(hostname).then(
      (addresses) => {
        const reason = refuseAddresses(hostname, addresses, policy);
        if (reason !== null) {
          callback(new OutboundRefusedError(reason), '', 4);
          return;
        }
        const family = (address: string) => (net.isIPv6(address) ? 6 : 4);
        if (options.all) {
          callback(
            null,
            addresses.map((address) => ({ address, family: family(address) })),
          );
        } else {
          callback(null, addresses[0]!, family(addresses[0]!));
        }
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 4),
    );
  };
}

/** The call went to an address the guard refuses (a DNS answer changed since the URL was saved). */
export class OutboundRefusedError extends Error {
  readonly code = 'EOUTBOUNDREFUSED';
}

/** What came back from an outbound call. */
export interface OutboundResponse {
  status: number;
  /** The first {@link OUTBOUND_EXCERPT_BYTES} bytes of the answer's body as text. */
  excerpt: string;
  /** The answer's `Retry-After` header, when it has one (a 429 or 503 saying when to come back). */
  retryAfter?: string;
}

/** How much of a receiver's answer is kept (the rest is read and dropped). */
export const OUTBOUND_EXCERPT_BYTES = 512;

/** One outbound request. */
export interface OutboundRequest {
  url: string;
  method?: 'POST' | 'PUT';
  headers: Record<string, string>;
  /** The exact bytes sent (a signature covers them). */
  body: Buffer;
  /** Milliseconds for the whole exchange, connection to the answer's last byte. */
  timeoutMs: number;
  policy: OutboundPolicy;
  /** Bytes of the answer kept; default {@link OUTBOUND_EXCERPT_BYTES}. */
  excerptBytes?: number;
}

/**
 * Sends one request to a user-given URL: checks the URL, connects only to an address the guard allows
 * (checked again here, on the address actually used), follows no redirect (a 3xx is the answer), gives
 * up after `timeoutMs`, and keeps only a short excerpt of the answer. Rejects with
 * {@link OutboundRefusedError} when the URL or its address is refused, or with the network's error.
 */
export async function sendOutbound(request: OutboundRequest): Promise<OutboundResponse> {
  const check = await checkOutboundUrl(request.url, request.policy);
  if (!check.ok) throw new OutboundRefusedError(check.reason);
  const { url } = check;
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise<OutboundResponse>((resolve, reject) => {
    const outgoing = transport.request(
      url,
      {
        method: request.method ?? 'POST',
        headers: { ...request.headers, 'content-length': String(request.body.length) },
        lookup: net.isIP(url.hostname.replace(/^\[|\]$/g, '')) ? undefined : guardedLookup(request.policy),
        agent: false,
        timeout: request.timeoutMs,
      },
      (response) => {
        const chunks: Buffer[] = [];
        const keep = request.excerptBytes ?? OUTBOUND_EXCERPT_BYTES;
        let kept = 0;
        response.on('data', (chunk: Buffer) => {
          if (kept >= keep) return;
          const part = chunk.subarray(0, keep - kept);
          chunks.push(part);
          kept += part.length;
        });
        response.on('end', () => {
          clearTimeout(deadline);
          const retryAfter = response.headers['retry-after'];
          resolve({
            status: response.statusCode ?? 0,
            excerpt: Buffer.concat(chunks).toString('utf8'),
            ...(retryAfter !== undefined && { retryAfter }),
          });
        });
        response.on('error', (error) => {
          clearTimeout(deadline);
          reject(error);
        });
      },
    );
    // `timeout` above covers an idle socket; this covers a receiver that trickles bytes.
    const deadline = setTimeout(() => {
      outgoing.destroy(new Error(`No answer within ${request.timeoutMs} ms.`));
    }, request.timeoutMs);
    outgoing.on('timeout', () => outgoing.destroy(new Error(`No answer within ${request.timeoutMs} ms.`)));
    outgoing.on('error', (error) => {
      clearTimeout(deadline);
      reject(error);
    });
    outgoing.end(request.body);
  });
}
