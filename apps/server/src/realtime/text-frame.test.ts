import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { textFrame } from './text-frame';

/** Texts at each of the frame's three length encodings and their edges, multi-byte characters included. */
const TEXTS = [
  '',
  '{"type":"server/newRawLogs"}',
  'x'.repeat(125),
  'x'.repeat(126),
  'é'.repeat(63), // 126 bytes in 63 characters
  'x'.repeat(65_535),
  'x'.repeat(65_536),
  `{"name":"Tankstelle Süd ✓ ${'ü'.repeat(40_000)}"}`,
];

describe('textFrame', () => {
  let server: WebSocketServer;
  let url: string;
  beforeAll(async () => {
    server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise((resolve) => server.once('listening', resolve));
    url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // Each text alternately as a frame written to the connection and through ws itself: the order holds.
    server.on('connection', (socket, request) => {
      TEXTS.forEach((text, index) => {
        if (index % 2 === 0) request.socket.write(textFrame(text));
        else socket.send(text);
      });
      for (const text of TEXTS) request.socket.write(textFrame(text));
    });
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('is read by a WebSocket client as the text, at every length, in order with ws’s own frames', async () => {
    const client = new WebSocket(url);
    const received: string[] = [];
    const errors: Error[] = [];
    client.on('error', (error) => errors.push(error));
    await new Promise<void>((resolve) => {
      client.on('message', (data, isBinary) => {
        expect(isBinary).toBe(false);
        received.push(data.toString());
        if (received.length === TEXTS.length * 2) resolve();
      });
    });
    client.close();
    expect(errors).toEqual([]);
    expect(received).toEqual([...TEXTS, ...TEXTS]);
  });

  it('has the header ws writes for a text message', () => {
    expect([...textFrame('ab')]).toEqual([0x81, 2, 0x61, 0x62]);
    expect([...textFrame('x'.repeat(300)).subarray(0, 4)]).toEqual([0x81, 126, 1, 44]);
    expect([...textFrame('x'.repeat(70_000)).subarray(0, 10)]).toEqual([0x81, 127, 0, 0, 0, 0, 0, 1, 0x11, 0x70]);
  });
});
