import proxyAddr from '@fastify/proxy-addr';

/**
 * Which reverse proxies in front of the server are believed when they name the client in
 * `X-Forwarded-For` (`TRUST_PROXY`): none (`false`), the nearest N hops (a count), or the proxies at
 * these addresses or ranges (`10.0.0.5`, `10.0.0.0/8`, `loopback`, `uniquelocal`), Fastify's own forms.
 * Each trusted hop's word moves the client one entry to the left in the header; the first untrusted
 * one is the client, so an entry the client wrote itself is never taken.
 */
export type TrustProxy = false | number | readonly string[];

/** `TRUST_PROXY`: unset or `0` (no proxy), a hop count, or comma-separated proxy addresses or ranges. */
export function parseTrustProxy(value: string | undefined): TrustProxy {
  const text = (value ?? '').trim();
  if (text === '' || ['0', 'false', 'no', 'off'].includes(text.toLowerCase())) return false;
  if (/^\d+$/.test(text)) return Number(text);
  if (['true', 'yes', 'on', 'all'].includes(text.toLowerCase())) {
    // Fastify's `true` trusts every hop: the client's own left-most X-Forwarded-For entry becomes its address.
    throw new Error(
      `TRUST_PROXY=${text} would believe any X-Forwarded-For a client writes; give the number of proxies in front of the server (1) or their addresses`,
    );
  }
  const proxies = text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  try {
    proxyAddr.compile(proxies);
  } catch (error) {
    throw new Error(
      `TRUST_PROXY must be a hop count or comma-separated proxy addresses or ranges: ${(error as Error).message}`,
    );
  }
  return proxies;
}

/**
 * The trust function handed to Fastify (`trustProxy`): whether the hop at `address`, `hop` steps from
 * the server (0: the socket's peer), is a proxy whose word is believed. A count is applied here, not by
 * Fastify, whose numeric form since 5.x believes no hop at all.
 */
export function proxyTrust(setting: TrustProxy): false | ((address: string, hop: number) => boolean) {
  if (setting === false || setting === 0) return false;
  if (typeof setting === 'number') return (_address, hop) => hop < setting;
  return proxyAddr.compile([...setting]);
}
