import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { REALTIME_CLOSE } from '@fieldlink/api/realtime';
import type { DeviceEvent } from '../events';
import type { DeviceService } from '../features/devices/service';
import type { UserContext } from '../features/session/user-context';
import type { CommandService } from './commands';
import { RealtimeHub } from './hub';

const THING = 'HUB-TEST01';
const VIEWER: UserContext = {
  id: 'u1',
  email: 'viewer@hub.test',
  firstName: 'Vic',
  lastName: 'Viewer',
  theme: null,
  claims: { userId: 'u1', jti: 't1', tokenVersion: 1, expiresAt: Number.MAX_SAFE_INTEGER },
  attachmentPoints: [
    { accountId: 'a1', path: '/a1', permissions: ['VIEW_DASH'], secretPermissions: [], appType: 'default' },
  ],
  userVariant: null,
  monitorOnly: true,
  clock: { timeZone: null, hourCycle: null, dateOrder: null },
};
// The hub's device lookups, as far as a subscription to a device in scope needs them.
const devices = {
  visibleDevice: async () => ({}),
  requireVisibleDevices: async () => undefined,
  visibleDevices: async () => [],
  groupPaths: async () => new Map(),
} as unknown as DeviceService;
const commands = { timeoutMs: 1000 } as unknown as CommandService;
const logger = { warn: () => undefined };

const sample = (value: number): DeviceEvent => ({
  type: 'server/newRawLogs',
  thingName: THING,
  logs: { c1: [{ value, t: 1_700_000_000_000 + value }] },
});

describe('RealtimeHub: device events written as frames built once', () => {
  let server: WebSocketServer;
  let hub: RealtimeHub;
  let url: string;
  const serverSockets: WebSocket[] = [];
  beforeAll(async () => {
    hub = new RealtimeHub(devices, commands, logger, 1000);
    server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise((resolve) => server.once('listening', resolve));
    url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
    server.on('connection', (socket, request) => {
      serverSockets.push(socket);
      hub.attach(socket, VIEWER, request.socket);
    });
  });
  afterAll(async () => {
    await hub.closeAll();
    await new Promise((resolve) => server.close(resolve));
  });

  /** A client subscribed to the device; `received` resolves with the next `count` texts it receives. */
  const subscribedClient = async (count: number) => {
    const client = new WebSocket(url);
    const texts: string[] = [];
    let replied: () => void = () => undefined;
    let arrived: () => void = () => undefined;
    const reply = new Promise<void>((resolve) => (replied = resolve));
    const all = new Promise<void>((resolve) => (arrived = resolve));
    client.on('message', (data) => {
      texts.push(data.toString());
      if (texts.length === 1) replied();
      if (texts.length === count + 1) arrived();
    });
    await new Promise((resolve) => client.once('open', resolve));
    client.send(JSON.stringify({ type: 'server/subscribeDevices', thingNames: [THING], id: '1' }));
    await reply;
    expect(JSON.parse(texts[0]!)).toEqual({ type: 'server/reply', id: '1', ok: true });
    return { client, received: all.then(() => texts.slice(1)) };
  };

  it('delivers each event whole and in order', async () => {
    const { client, received } = await subscribedClient(3);
    for (const value of [1, 2, 3]) hub.publish(sample(value));
    expect((await received).map((text) => JSON.parse(text))).toEqual([sample(1), sample(2), sample(3)]);
    client.close();
  });

  it('does not let an event overtake a message ws still holds in its own queue', async () => {
    const { client, received } = await subscribedClient(3);
    const socket = serverSockets.at(-1)!;
    // ws reads a Blob before it writes it, and queues what is sent meanwhile.
    socket.send(new Blob([JSON.stringify(sample(1))]));
    expect(socket.bufferedAmount).toBeGreaterThan(0);
    hub.publish(sample(2));
    hub.publish(sample(3));
    expect((await received).map((text) => JSON.parse(text))).toEqual([sample(1), sample(2), sample(3)]);
    client.close();
  });
});

describe('RealtimeHub: the current state of a newly watched device', () => {
  let server: WebSocketServer;
  let url: string;
  afterAll(() => new Promise((resolve) => server.close(resolve)));
  beforeAll(async () => {
    server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise((resolve) => server.once('listening', resolve));
    url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  it('goes before the reply, and an event that races its read goes after it', async () => {
    let recordRead: () => void = () => undefined;
    let answerRead: () => void = () => undefined;
    const asked = new Promise<void>((resolve) => (recordRead = resolve));
    const answered = new Promise<void>((resolve) => (answerRead = resolve));
    // The device's record as it was read: offline. It connects while the read is on its way.
    const record = {
      id: 'd1',
      thing_name: THING,
      path: '/a1/g1',
      is_connected: 0,
      last_connection: 1_700_000_000_000,
      last_disconnection: 1_700_000_100_000,
      status: null,
      health: null,
      ota_update: null,
      ota_pending_submitted_at: null,
      time_date: null,
      channels: '[]',
      registers: '{}',
      ports: null,
    };
    const slowDevices = {
      ...devices,
      visibleDevices: async () => {
        recordRead();
        await answered;
        return [record];
      },
    } as unknown as DeviceService;
    const hub = new RealtimeHub(slowDevices, commands, logger, 1000);
    server.removeAllListeners('connection');
    server.on('connection', (socket, request) => hub.attach(socket, VIEWER, request.socket));
    const client = new WebSocket(url);
    const received: Record<string, unknown>[] = [];
    const replied = new Promise<void>((resolve) =>
      client.on('message', (data) => {
        const action = JSON.parse(data.toString()) as Record<string, unknown>;
        received.push(action);
        if (action.type === 'server/reply') resolve();
      }),
    );
    await new Promise((resolve) => client.once('open', resolve));
    client.send(JSON.stringify({ type: 'server/subscribeDevices', thingNames: [THING], id: '1' }));
    await asked;
    const online: DeviceEvent = {
      type: 'server/connectionState',
      thingName: THING,
      isConnected: true,
      lastConnection: 1_700_000_200_000,
      lastDisconnection: 1_700_000_100_000,
    };
    hub.publish(online);
    answerRead();
    await replied;
    expect(received.map((action) => [action.type, action.isConnected])).toEqual([
      ['server/connectionState', false],
      ['server/deviceConfig', undefined],
      ['server/connectionState', true],
      ['server/reply', undefined],
    ]);
    client.close();
    await hub.closeAll();
  });

  it('closes a socket whose held events pass the slow-consumer limit while its states wait', async () => {
    let answerRead: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => (answerRead = resolve));
    let recordRead: () => void = () => undefined;
    const asked = new Promise<void>((resolve) => (recordRead = resolve));
    const stuckDevices = {
      ...devices,
      visibleDevices: async () => {
        recordRead();
        await answered;
        return [];
      },
    } as unknown as DeviceService;
    const hub = new RealtimeHub(stuckDevices, commands, logger, 1000);
    server.removeAllListeners('connection');
    server.on('connection', (socket, request) => hub.attach(socket, VIEWER, request.socket));
    const client = new WebSocket(url);
    let closedWith: number | null = null;
    client.on('close', (code) => (closedWith = code));
    await new Promise((resolve) => client.once('open', resolve));
    client.send(JSON.stringify({ type: 'server/subscribeDevices', thingNames: [THING], id: '1' }));
    await asked;
    // Events of about 64 KiB while the state read does not end: held, not sent, so they count.
    const big: DeviceEvent = {
      type: 'server/newRawLogs',
      thingName: THING,
      logs: { c1: Array.from({ length: 2_500 }, (_, i) => ({ value: i, t: 1_700_000_000_000 + i })) },
    };
    for (let i = 0; i < 80; i += 1) hub.publish(big);
    await vi.waitFor(() => expect(closedWith).toBe(REALTIME_CLOSE.tooSlow));
    answerRead();
    await hub.closeAll();
  });
});
