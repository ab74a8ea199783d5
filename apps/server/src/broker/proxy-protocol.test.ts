import { describe, expect, it } from 'vitest';
import { parseProxyHeader } from './proxy-protocol';

const SIGNATURE = [0x0d, 0x0a, 0x0d, 0x0a, 0x00, 0x0d, 0x0a, 0x51, 0x55, 0x49, 0x54, 0x0a];

/** A version 2 header: command (0 LOCAL, 1 PROXY), family byte, then the address block. */
function header(command: number, family: number, addresses: number[]): Buffer {
  const length = Buffer.alloc(2);
  length.writeUInt16BE(addresses.length);
  return Buffer.from([...SIGNATURE, 0x20 | command, family, ...length, ...addresses]);
}
const TCP4 = header(1, 0x11, [203, 0, 113, 7, 10, 0, 0, 1, 0xc3, 0x50, 0x07, 0x5b]);
const TCP6 = header(1, 0x21, [
  ...[0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01],
  ...Array.from({ length: 16 }, () => 0),
  ...[0xc3, 0x50, 0x07, 0x5b],
]);

describe('reading a PROXY protocol v2 header', () => {
  it.each([
    ['TCP over IPv4: the client address', TCP4, { length: 28, source: '203.0.113.7' }],
    ['TCP over IPv6: eight groups in full', TCP6, { length: 52, source: '2001:db8:0:0:0:0:0:1' }],
    ['LOCAL (the balancer’s health check): no client address', header(0, 0x00, []), { length: 16, source: null }],
    [
      'TLVs after the addresses are skipped with them',
      header(1, 0x11, [203, 0, 113, 7, 10, 0, 0, 1, 0xc3, 0x50, 0x07, 0x5b, 0x04, 0x00, 0x01, 0x00]),
      { length: 32, source: '203.0.113.7' },
    ],
    ['part of the signature', TCP4.subarray(0, 5), 'incomplete'],
    ['the fixed part without its addresses', TCP4.subarray(0, 20), 'incomplete'],
  ])('%s', (_name, data, expected) => expect(parseProxyHeader(data)).toEqual(expected));

  it.each([
    ['an MQTT CONNECT (no header at all)', Buffer.from([0x10, 0x10, 0x00, 0x04, 0x4d, 0x51, 0x54, 0x54])],
    ['version 1, the text form', Buffer.from('PROXY TCP4 203.0.113.7 10.0.0.1 50000 1883\r\n')],
    ['version 3', Buffer.from([...SIGNATURE, 0x31, 0x11, 0, 0])],
    ['an unknown command', Buffer.from([...SIGNATURE, 0x22, 0x11, 0, 0])],
    ['a header longer than 1 KiB', Buffer.from([...SIGNATURE, 0x21, 0x11, 0x10, 0x00])],
  ])('refuses %s', (_name, data) => expect(parseProxyHeader(data)).toBeInstanceOf(Error));
});
