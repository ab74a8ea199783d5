import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { REALTIME_CLOSE, REALTIME_PROTOCOL } from '@fieldlink/api/realtime';
import { RealtimeClient, type ConnectionSnapshot, type SocketLike } from './realtime-client';

class FakeSocket implements SocketLike {
  readyState = 0;
  sent: string[] = [];
  onopen: ((event: Event) => void) | null = null;
  onclose: ((event: CloseEvent) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  constructor(
    readonly url: string,
    readonly protocols: string[],
  ) {}
  send(data: string) {
    this.sent.push(data);
  }
  close() {
    this.readyState = 3;
  }
  open() {
    this.readyState = 1;
    this.onopen?.(new Event('open'));
  }
  drop(code = 1006) {
    this.readyState = 3;
    this.onclose?.({ code } as CloseEvent);
  }
  receive(message: unknown) {
    this.onmessage?.({ data: JSON.stringify(message) } as MessageEvent);
  }
  lastRequest(): { id: string; type: string } {
    return JSON.parse(this.sent.at(-1) ?? '{}') as { id: string; type: string };
  }
}

function setup() {
  const sockets: FakeSocket[] = [];
  const statuses: ConnectionSnapshot[] = [];
  const actions: unknown[] = [];
  const onUnauthorized = vi.fn();
  const onOpen = vi.fn();
  const client = new RealtimeClient({
    url: 'ws://localhost/api/v1/realtime',
    token: 'jwt-token',
    createSocket: (url, protocols) => {
      const socket = new FakeSocket(url, protocols);
      sockets.push(socket);
      return socket;
    },
    onAction: (action) => actions.push(action),
    onConnection: (snapshot) => statuses.push(snapshot),
    onOpen,
    onUnauthorized,
    random: () => 0,
  });
  const socket = () => sockets.at(-1) as FakeSocket;
  return { client, sockets, socket, statuses, actions, onUnauthorized, onOpen };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('RealtimeClient', () => {
  it('offers the protocol and the token, and counts connections', () => {
    const { client, socket, statuses, onOpen } = setup();
    expect(client.connection.status).toBe('DISCONNECTED');
    client.start();
    expect(socket().protocols).toEqual([REALTIME_PROTOCOL, 'jwt-token']);
    expect(statuses.at(-1)?.status).toBe('CONNECTING');
    socket().open();
    expect(statuses.at(-1)).toEqual({ status: 'CONNECTED', reconnectAttempt: 0, connectionCount: 1 });
    expect(onOpen).toHaveBeenCalledWith(1);
  });

  it('reconnects with growing delays and counts the reconnect', () => {
    const { client, sockets, socket, statuses, onOpen } = setup();
    client.start();
    socket().open();
    socket().drop();
    expect(statuses.at(-1)).toMatchObject({ status: 'RECONNECTING', reconnectAttempt: 1 });
    vi.advanceTimersByTime(499);
    expect(sockets).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(2);
    socket().drop();
    expect(statuses.at(-1)).toMatchObject({ status: 'RECONNECTING', reconnectAttempt: 2 });
    vi.advanceTimersByTime(999);
    expect(sockets).toHaveLength(2);
    vi.advanceTimersByTime(1);
    socket().open();
    expect(statuses.at(-1)).toEqual({ status: 'CONNECTED', reconnectAttempt: 0, connectionCount: 2 });
    expect(onOpen).toHaveBeenLastCalledWith(2);
  });

  it('stops and reports when the token is refused', () => {
    const { client, sockets, socket, statuses, onUnauthorized } = setup();
    client.start();
    socket().drop(REALTIME_CLOSE.unauthorized);
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(1);
    expect(statuses.at(-1)?.status).toBe('DISCONNECTED');
    expect(onUnauthorized).toHaveBeenCalledOnce();
  });

  it('resolves a reply by id', async () => {
    const { client, socket } = setup();
    client.start();
    socket().open();
    const reply = client.request({ type: 'server/readChannel', thingName: 'PUMP_1', code: 'c1' });
    const { id, type } = socket().lastRequest();
    expect(type).toBe('server/readChannel');
    socket().receive({ type: 'server/reply', id, ok: true, value: 12.5 });
    await expect(reply).resolves.toBe(12.5);
  });

  it('rejects a failed command with its error, else "Command Failed."', async () => {
    const { client, socket } = setup();
    client.start();
    socket().open();
    const first = client.request({ type: 'server/writeChannel', thingName: 'PUMP_1', code: 'do1', value: 1 });
    socket().receive({ type: 'server/reply', id: socket().lastRequest().id, ok: false, error: 'Device offline.' });
    await expect(first).rejects.toThrow('Device offline.');
    const second = client.request({ type: 'server/writeChannel', thingName: 'PUMP_1', code: 'do1', value: 1 });
    socket().receive({ type: 'server/reply', id: socket().lastRequest().id, ok: false });
    await expect(second).rejects.toThrow('Command Failed.');
  });

  it('times out after 10 s with the specification message', async () => {
    const { client, socket } = setup();
    client.start();
    socket().open();
    const reply = client.request({ type: 'server/systemCommand', thingName: 'PUMP_1', command: 'FLASH LED' });
    const assertion = expect(reply).rejects.toThrow('Timeout when waiting for response.');
    vi.advanceTimersByTime(10_000);
    await assertion;
  });

  it('sends a request made while down once the socket opens', () => {
    const { client, socket } = setup();
    client.start();
    void client.request({ type: 'server/subscribeDevices', thingNames: ['PUMP_1'] }).catch(() => {});
    expect(socket().sent).toHaveLength(0);
    socket().open();
    expect(socket().lastRequest().type).toBe('server/subscribeDevices');
  });

  it('passes valid actions on and ignores unknown ones', () => {
    const { client, socket, actions } = setup();
    client.start();
    socket().open();
    socket().receive({ type: 'server/unknown', thingName: 'PUMP_1' });
    socket().receive({ type: 'server/health', thingName: 'PUMP_1', health: { signal: -60 } });
    expect(actions).toEqual([{ type: 'server/health', thingName: 'PUMP_1', health: { signal: -60 } }]);
  });

  it('does not reconnect after stop', () => {
    const { client, sockets, socket, statuses } = setup();
    client.start();
    socket().open();
    client.stop();
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(1);
    expect(statuses.at(-1)?.status).toBe('DISCONNECTED');
  });
});
