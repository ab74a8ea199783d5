import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import { deviceDownTopic, deviceUpTopic } from '@fieldlink/api/mqtt-topics';
import { REALTIME_PATH, type ServerAction } from '@fieldlink/api/realtime';
import type { DeviceCommand } from '@fieldlink/api/device-frames';
import {
  MAX_PENDING_COMMANDS_PER_DEVICE,
  MAX_PENDING_COMMANDS_PER_USER,
  MAX_PENDING_REQUESTS_PER_SOCKET,
  pendingLimitMessage,
} from '@fieldlink/domain/realtime-limits';
import { DIALECTS, baseUrl, signIn, startTestApp, type TestApp, letViewerOperate } from '../../testing/test-app';
import { TestSocket } from '../../testing/test-socket';
import { demoFleet } from '../seed/seed';
import { until } from '../../testing/until';
import { inBackground } from '../../testing/test-device';

/** Long enough that no command times out while a test looks at the ones waiting. */
const COMMAND_TIMEOUT_MS = 60_000;

type Reply = Extract<ServerAction, { type: 'server/reply' }>;

describe.each(DIALECTS)('limits on real-time commands waiting for their answer, on %s', (dialect) => {
  let t: TestApp;
  let wsUrl: string;
  let passwords: Map<string, string>;
  const closers: (() => unknown)[] = [];
  let counter = 0;

  /** A device that holds the commands it receives until told to answer them (OK, the value written). */
  const heldDevice = async (thingName: string) => {
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${t.app.broker!.port}`, {
      clientId: thingName,
      username: thingName,
      password: passwords.get(thingName),
      reconnectPeriod: 0,
    });
    closers.push(() => client.endAsync(true));
    const held: DeviceCommand[] = [];
    let answering = false;
    const answer = (command: DeviceCommand) =>
      inBackground(
        client,
        client.publishAsync(
          deviceUpTopic(thingName),
          JSON.stringify({ v: 4, type: 'reply', id: command.id, result: 'OK', value: 1 }),
          { qos: 1 },
        ),
      );
    client.on('message', (_topic, payload) => {
      const command = JSON.parse(payload.toString()) as DeviceCommand;
      if (answering) answer(command);
      else held.push(command);
    });
    await client.subscribeAsync(deviceDownTopic(thingName), { qos: 1 });
    await until(
      async () =>
        (
          await t.app.storage.db
            .selectFrom('devices')
            .select('is_connected')
            .where('thing_name', '=', thingName)
            .executeTakeFirstOrThrow()
        ).is_connected === 1,
    );
    return {
      held,
      /** Answers what it holds, and every later command at once. */
      answerAll: () => {
        answering = true;
        held.splice(0).forEach(answer);
      },
    };
  };
  const open = async (email: string) => {
    const socket = await TestSocket.open(wsUrl, await signIn(t.app, email), baseUrl(t.app));
    closers.push(() => socket.socket.close());
    return socket;
  };
  /** Sends a channel write without waiting for its reply; answers its id. */
  const write = (socket: TestSocket, thingName: string) => {
    const id = `w${++counter}`;
    socket.socket.send(JSON.stringify({ type: 'server/writeChannel', id, thingName, code: 'sp1', value: 1 }));
    return id;
  };
  const replyTo = (socket: TestSocket, id: string) =>
    socket.waitFor((action) => action.type === 'server/reply' && action.id === id, 20_000) as Promise<Reply>;
  const replied = (socket: TestSocket, ids: readonly string[]) =>
    socket.received.filter((action) => action.type === 'server/reply' && ids.includes(action.id));
  const expectRefusal = (reply: Reply, message: (seconds: number) => string) => {
    expect(reply.ok).toBe(false);
    expect(reply.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(reply.retryAfterSeconds).toBeLessThanOrEqual(COMMAND_TIMEOUT_MS / 1000);
    expect(reply.error).toBe(message(reply.retryAfterSeconds!));
  };

  beforeAll(async () => {
    t = await startTestApp(dialect, { mqtt: true, listen: true, commandTimeoutMs: COMMAND_TIMEOUT_MS });
    wsUrl = `${baseUrl(t.app).replace('http', 'ws')}${REALTIME_PATH}`;
    passwords = new Map((await demoFleet(t.app.storage.db)).map((entry) => [entry.thingName, entry.password]));
    await letViewerOperate(t.app.storage.db);
  });
  afterAll(async () => {
    for (const close of closers) await close();
    await t?.close();
  });

  it('answers a request past the waiting ones a socket may have at once, naming the limit; answered ones free their places', async () => {
    const device = await heldDevice('ACME-BLR01');
    const viewer = await open('viewer@fieldlink.test');
    const waiting = Array.from({ length: MAX_PENDING_REQUESTS_PER_SOCKET }, () => write(viewer, 'ACME-BLR01'));
    await until(() => device.held.length === MAX_PENDING_REQUESTS_PER_SOCKET);

    // Refused at once, with the limit and when to try again, while the others still wait.
    const over = write(viewer, 'ACME-BLR01');
    expectRefusal(await replyTo(viewer, over), (seconds) => pendingLimitMessage({ scope: 'socket' }, seconds));
    // A subscription counts too: the socket's queue is full whatever is in it.
    const subscribe = `s${++counter}`;
    viewer.socket.send(JSON.stringify({ type: 'server/subscribeDevices', id: subscribe, thingNames: ['ACME-BLR01'] }));
    expectRefusal(await replyTo(viewer, subscribe), (seconds) => pendingLimitMessage({ scope: 'socket' }, seconds));
    expect(replied(viewer, waiting)).toEqual([]);
    expect(device.held).toHaveLength(MAX_PENDING_REQUESTS_PER_SOCKET);

    device.answerAll();
    for (const id of waiting) expect((await replyTo(viewer, id)).ok).toBe(true);
    expect(
      await viewer.request({ type: 'server/writeChannel', thingName: 'ACME-BLR01', code: 'sp1', value: 2 }),
    ).toMatchObject({ ok: true });
  }, 90_000);

  it("caps a user's commands over all of the user's sockets, and a device's over all users", async () => {
    const boiler = await heldDevice('ACME-BLR02');
    const cold = await heldDevice('ACME-COLD01');
    const first = await open('viewer@fieldlink.test');
    const second = await open('viewer@fieldlink.test');
    const third = await open('viewer@fieldlink.test');
    const perSocket = MAX_PENDING_COMMANDS_PER_USER / 2;
    const waiting = [
      ...Array.from({ length: perSocket }, () => write(first, 'ACME-BLR02')),
      ...Array.from({ length: perSocket }, () => write(second, 'ACME-COLD01')),
    ];
    await until(() => boiler.held.length + cold.held.length === MAX_PENDING_COMMANDS_PER_USER);

    // The viewer's third socket is empty, but the viewer has as many commands waiting as allowed.
    expectRefusal(await replyTo(third, write(third, 'ACME-COLD01')), (seconds) =>
      pendingLimitMessage({ scope: 'user' }, seconds),
    );
    // Another user may still command, but not a device with as many commands waiting as allowed.
    expect(perSocket).toBe(MAX_PENDING_COMMANDS_PER_DEVICE);
    const ops = await open('ops@fieldlink.test');
    expectRefusal(await replyTo(ops, write(ops, 'ACME-BLR02')), (seconds) =>
      pendingLimitMessage({ scope: 'device', thingName: 'ACME-BLR02' }, seconds),
    );
    expect([...replied(first, waiting), ...replied(second, waiting)]).toEqual([]);

    boiler.answerAll();
    cold.answerAll();
    for (const id of waiting.slice(0, perSocket)) expect((await replyTo(first, id)).ok).toBe(true);
    for (const id of waiting.slice(perSocket)) expect((await replyTo(second, id)).ok).toBe(true);
    expect((await replyTo(ops, write(ops, 'ACME-BLR02'))).ok).toBe(true);
    expect((await replyTo(third, write(third, 'ACME-COLD01'))).ok).toBe(true);
  }, 90_000);
});
