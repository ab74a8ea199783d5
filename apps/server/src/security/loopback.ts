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

/** Headers a reverse proxy adds for the client it forwards. */
const FORWARDING_HEADERS = ['forwarded', 'x-forwarded-for', 'x-real-ip'] as const;

/**
 * True when a request comes from this machine itself: its socket's peer is loopback and it names no
 * forwarded client. The socket's peer, not Fastify's `request.ip`, which follows `X-Forwarded-For`
 * under `TRUST_PROXY` and so is the caller's to choose; a request a reverse proxy on this machine
 * forwards arrives over loopback too, and its forwarding header says it is someone else's.
 */
export function isFromThisMachine(remoteAddress: string | undefined, headers: IncomingHttpHeaders): boolean {
  return isLoopbackAddress(remoteAddress) && FORWARDING_HEADERS.every((name) => headers[name] === undefined);
}
