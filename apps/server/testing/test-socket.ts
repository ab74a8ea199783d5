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
  /** The first action received that matches, as soon as it arrives (no polling); fails after the timeout. */
  async waitFor(match: (action: ServerAction) => boolean, timeoutMs = 5000): Promise<ServerAction> {
    const found = this.received.find(match);
    if (found) return found;
    return new Promise((resolve, reject) => {
      const onMessage = () => {
        const action = this.received.at(-1)!;
        if (!match(action)) return;
        clearTimeout(deadline);
        this.socket.off('message', onMessage);
        resolve(action);
      };
      // A deadline that fails the test, not a wait: the answer resolves as soon as it arrives.
      const deadline = setTimeout(() => {
        this.socket.off('message', onMessage);
        reject(new Error('No matching message'));
      }, timeoutMs);
      // Registered after the constructor's listener, so the action is in `received` when this runs.
      this.socket.on('message', onMessage);
    });
  }

  /**
   * Waits until every action the server sent this socket before now has arrived, and answers the one
   * reply that came after them: a request the server answers without changing anything (a device
   * that does not exist). The socket is ordered, so "nothing more arrived" is a condition, not a time.
   */
  async settle(): Promise<Extract<ServerAction, { type: 'server/reply' }>> {
    const reply = await this.request({ type: 'server/subscribeDevices', thingNames: ['NO-SUCH-DEVICE-0'] });
    if (reply.ok || reply.error !== 'Device not found.')
      throw new Error(`Unexpected settle reply ${JSON.stringify(reply)}`);
    return reply;
  }
}
