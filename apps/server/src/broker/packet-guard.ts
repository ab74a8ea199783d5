import type { Duplex } from 'node:stream';
import { MAX_FRAME_BYTES } from '@fieldlink/api/device-frames';

/** MQTT's CONNECT, in the high nibble of a packet's first byte. */
const CONNECT = 1;
/** A CONNECT holds a client id, a user name, a password and a small will: a few hundred bytes. */
export const MAX_CONNECT_BYTES = 4 * 1024;
/** Any later packet: a PUBLISH of the largest frame with its topic, packet id and header to spare. */
export const MAX_PACKET_BYTES = MAX_FRAME_BYTES + 1024;

/**
 * Reads the fixed header of every MQTT packet on a connection as its bytes arrive, before the
 * broker's parser buffers the packet, and destroys the connection at once when the first packet is
 * not a CONNECT, a CONNECT announces more than {@link MAX_CONNECT_BYTES}, or any later packet more
 * than {@link MAX_PACKET_BYTES}. Without it, a CONNECT announcing 250 MB made the server buffer all
 * of it before authentication (SECURITY.md 13). Nothing is copied: the guard only counts.
 */
export function guardPacketSizes(stream: Duplex, onRefused: (reason: string) => void): void {
  let state: 'header' | 'length' | 'body' = 'header';
  let first = true;
  let length = 0;
  let multiplier = 1;
  let lengthBytes = 0;
  let remaining = 0;
  const refuse = (reason: string) => {
    state = 'body';
    remaining = Infinity;
    onRefused(reason);
    stream.destroy();
  };
  stream.on('data', (chunk: Buffer) => {
    let index = 0;
    while (index < chunk.length && remaining !== Infinity) {
      if (state === 'body') {
        const taken = Math.min(remaining, chunk.length - index);
        remaining -= taken;
        index += taken;
        if (remaining === 0) state = 'header';
        continue;
      }
      const byte = chunk[index++]!;
      if (state === 'header') {
        if (first && byte >> 4 !== CONNECT) return refuse('First packet is not CONNECT');
        state = 'length';
        length = 0;
        multiplier = 1;
        lengthBytes = 0;
        continue;
      }
      // The remaining length: up to four bytes, seven bits each, least significant first, so the
      // value only grows: past the limit part-way means past it in the end.
      length += (byte & 0x7f) * multiplier;
      multiplier *= 128;
      lengthBytes += 1;
      const limit = first ? MAX_CONNECT_BYTES : MAX_PACKET_BYTES;
      if (length > limit || (lengthBytes === 4 && byte & 0x80)) {
        return refuse(`${first ? 'CONNECT' : 'Packet'} larger than ${limit} bytes`);
      }
      if ((byte & 0x80) === 0) {
        first = false;
        remaining = length;
        state = remaining > 0 ? 'body' : 'header';
      }
    }
  });
}
