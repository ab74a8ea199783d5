/**
 * One unmasked WebSocket text frame (RFC 6455 §5.2) holding `text`, final, without extension bits:
 * the bytes ws writes for `socket.send(text)` on a server connection that negotiated no extension.
 * Built once for a message that goes to many sockets, it is written to each as it is, where
 * `socket.send` would measure and encode the text again for every socket and write it in two parts.
 */
export function textFrame(text: string): Buffer {
  const length = Buffer.byteLength(text);
  const header = length < 126 ? 2 : length < 65536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(header + length);
  frame[0] = 0x81; // FIN, opcode 1 (text)
  if (header === 2) frame[1] = length;
  else if (header === 4) {
    frame[1] = 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 127;
    frame.writeUInt32BE(0, 2);
    frame.writeUInt32BE(length, 6);
  }
  frame.write(text, header, 'utf8');
  return frame;
}
