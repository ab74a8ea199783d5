import type net from 'node:net';

/** The 12 bytes every PROXY protocol version 2 header begins with. */
const SIGNATURE = Buffer.from([0x0d, 0x0a, 0x0d, 0x0a, 0x00, 0x0d, 0x0a, 0x51, 0x55, 0x49, 0x54, 0x0a]);
const FIXED_BYTES = 16;
/** A header longer than this (addresses and TLVs) is refused: HAProxy sends well under 300. */
const MAX_HEADER_BYTES = 1024;

/**
 * What a PROXY protocol v2 header says: `source` is the client's address as the proxy saw it, or null
 * for the proxy's own connections (LOCAL: health checks) and families without an address.
 */
export type ProxyHeader = { length: number; source: string | null };

/**
 * Reads a PROXY protocol version 2 header (haproxy.org/download/2.6/doc/proxy-protocol.txt, §2.2) at
 * the start of `data`: the header, `'incomplete'` while more bytes are needed, or an Error for
 * anything else (version 1's text, no header at all, a bad command or length).
 */
export function parseProxyHeader(data: Buffer): ProxyHeader | 'incomplete' | Error {
  const signature = data.subarray(0, SIGNATURE.length);
  if (!SIGNATURE.subarray(0, signature.length).equals(signature)) return new Error('No PROXY protocol v2 header');
  if (data.length < FIXED_BYTES) return 'incomplete';
  const versionCommand = data[12]!;
  if (versionCommand >> 4 !== 2) return new Error('Not PROXY protocol version 2');
  const command = versionCommand & 0x0f;
  if (command > 1) return new Error('Unknown PROXY protocol command');
  const length = FIXED_BYTES + data.readUInt16BE(14);
  if (length > MAX_HEADER_BYTES) return new Error('PROXY protocol header too long');
  if (data.length < length) return 'incomplete';
  if (command === 0) return { length, source: null };
  const family = data[13]! >> 4;
  const addresses = data.subarray(FIXED_BYTES, length);
  if (family === 1 && addresses.length >= 12) return { length, source: [...addresses.subarray(0, 4)].join('.') };
  if (family === 2 && addresses.length >= 36) {
    // Eight groups in full (`2001:db8:0:0:0:0:0:1`): one spelling per address, which the limits count by.
    const groups = Array.from({ length: 8 }, (_, i) => addresses.readUInt16BE(i * 2).toString(16));
    return { length, source: groups.join(':') };
  }
  return { length, source: null };
}

/**
 * Reads the PROXY protocol header of a connection from a load balancer, then hands the connection on
 * with the bytes after the header still to be read and the client's address as the proxy gave it
 * (the proxy's own for LOCAL). A connection without a valid header within `timeoutMs` is closed:
 * with `MQTT_PROXY_PROTOCOL=1` every connection must come through the proxy.
 */
export function acceptProxied(
  socket: net.Socket,
  timeoutMs: number,
  onAccepted: (socket: net.Socket, source: string) => void,
  onRefused: (reason: string) => void,
): void {
  let received = Buffer.alloc(0);
  const refuse = (reason: string) => {
    cleanUp();
    onRefused(reason);
    socket.destroy();
  };
  const timer = setTimeout(() => refuse('No PROXY protocol header in time'), timeoutMs);
  const onData = (chunk: Buffer) => {
    received = Buffer.concat([received, chunk]);
    const header = parseProxyHeader(received);
    if (header === 'incomplete') return;
    if (header instanceof Error) return refuse(header.message);
    cleanUp();
    socket.pause();
    const rest = received.subarray(header.length);
    if (rest.length > 0) socket.unshift(rest);
    onAccepted(socket, header.source ?? socket.remoteAddress ?? 'unknown');
  };
  const cleanUp = () => {
    clearTimeout(timer);
    socket.removeListener('data', onData);
  };
  socket.on('data', onData);
  socket.once('close', () => clearTimeout(timer));
}
