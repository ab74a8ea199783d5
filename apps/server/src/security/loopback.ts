import net from 'node:net';
import type { IncomingHttpHeaders } from 'node:http';

/**
 * True for an address of this machine's loopback interface: 127.0.0.0/8, ::1 and the IPv4-mapped
 * 127.x, and the name `localhost` (a listen address may be given by name).
 */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const bare = address.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost' || bare === '::1') return true;
  const ipv4 = bare.startsWith('::ffff:') ? bare.slice('::ffff:'.length) : bare;
  return net.isIPv4(ipv4) && ipv4.startsWith('127.');
}

/**
 * Headers by which a proxy names the client it forwards: `Forwarded`, `X-Forwarded-*`, `X-Real-IP`,
 * `X-Client-IP`, `CF-Connecting-IP`, `True-Client-IP`, `Fastly-Client-IP`, `X-Cluster-Client-IP`,
 * `Via` and the like. Matched by pattern, so a vendor's header not listed here is caught too.
 */
const FORWARDING_HEADER = /forwarded|client-?ip|connecting-ip|real-ip|user-ip|^via$/i;
/** What a trusted proxy (`TRUST_PROXY`) adds and Fastify reads: the client (through the trust), scheme, host, port. */
const TRUSTED_PROXY_HEADER = /^x-forwarded-(for|proto|host|port)$/i;

/** What {@link isFromThisMachine} reads of a request (a Fastify request has it). */
export interface RequestOrigin {
  socket: { remoteAddress?: string };
  /** From the socket's peer to the client as the trusted proxies name it; undefined when no proxy is trusted. */
  ips?: string[];
  headers: IncomingHttpHeaders;
}

/**
 * True when a request comes from this machine itself: its socket's peer is loopback, every address the
 * configured proxies vouch for (`request.ips`, from the peer to the client) is loopback, and it carries
 * no other header naming a forwarded client. A request a reverse proxy on this machine forwards arrives
 * over loopback too: a proxy that is not configured as trusted may not forward at all (any forwarding
 * header refuses it), and a trusted one only a client on this machine.
 */
export function isFromThisMachine(request: RequestOrigin): boolean {
  const peer = request.socket.remoteAddress;
  if (!isLoopbackAddress(peer)) return false;
  const chain = request.ips ?? [peer];
  if (!chain.every(isLoopbackAddress)) return false;
  const vouched = chain.length > 1;
  return Object.keys(request.headers).every(
    (name) => !FORWARDING_HEADER.test(name) || (vouched && TRUSTED_PROXY_HEADER.test(name)),
  );
}
