import WebSocket from 'ws';
import { REALTIME_PROTOCOL, type ServerAction } from '@fieldlink/api/realtime';

/** A browser-like socket that records every action it receives. */
export class TestSocket {
  readonly received: ServerAction[] = [];
  private counter = 0;
  constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => this.received.push(JSON.parse(data.toString()) as ServerAction));
  }
  static open(url: string, token: string | null, origin?: string): Promise<TestSocket> {
    const socket = new WebSocket(
      url,
      token ? [REALTIME_PROTOCOL, token] : [REALTIME_PROTOCOL],
      origin ? { origin } : {},
    );
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(new TestSocket(socket)));
      socket.once('unexpected-response', (_request, response) => reject(new Error(`HTTP ${response.statusCode}`)));
      socket.once('error', reject);
    });
  }
  async request(
    action: Record<string, unknown>,
    timeoutMs?: number,
  ): Promise<Extract<ServerAction, { type: 'server/reply' }>> {
    const id = `r${++this.counter}`;
    this.socket.send(JSON.stringify({ ...action, id }));
    return this.waitFor((message) => message.type === 'server/reply' && message.id === id, timeoutMs) as Promise<
      Extract<ServerAction, { type: 'server/reply' }>
    >;
  }
  async waitFor(match: (action: ServerAction) => boolean, timeoutMs = 5000): Promise<ServerAction> {
    const end = Date.now() + timeoutMs;
    while (Date.now() < end) {
      const found = this.received.find(match);
      if (found) return found;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error('No matching message');
  }
}
