import net from 'node:net';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt, { type MqttClient } from 'mqtt';
import mqttPacket from 'mqtt-packet';
import { sql } from 'kysely';
import { deviceDownTopic } from '@fieldlink/api/mqtt-topics';
import { demoFleet } from '../seed/seed';
import { ManualTimers } from '../../testing/manual-timers';
import { DIALECTS, startTestApp, type TestApp } from '../../testing/test-app';
import { until } from '../../testing/until';
import { MAX_CONNECT_BYTES, MAX_PACKET_BYTES } from './packet-guard';

/** The drain timeout of the unauthenticated-cost app; it runs on timers the test moves, not the wall clock. */
const DRAIN_TIMEOUT_MS = 10_000;

/** A raw TCP connection to the broker from a given loopback address. */
function rawSocket(port: number, localAddress = '127.0.0.1'): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.createConnection({ port, host: '127.0.0.1', localAddress }, () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Resolves once the socket is closed (the test's own timeout fails a socket left open). */
const closed = (socket: net.Socket) =>
  new Promise<void>((resolve) => {
    if (socket.destroyed) return resolve();
    socket.once('close', () => resolve());
  });

/** The fixed header of a packet of this type announcing this remaining length. */
function fixedHeader(type: number, length: number): Buffer {
  const bytes = [type << 4];
  do {
    let byte = length % 128;
    length = Math.floor(length / 128);
    if (length > 0) byte |= 0x80;
    bytes.push(byte);
  } while (length > 0);
  return Buffer.from(bytes);
}

describe.each(DIALECTS)('MQTT limits before and after authentication on %s', (dialect) => {
  let t: TestApp;
  let port: number;
  let passwords: Map<string, string>;
  const clients: MqttClient[] = [];

  /** An MQTT client of a device, from a chosen loopback address. */
  const connect = (thingName: string, options: mqtt.IClientOptions = {}, localAddress = '127.0.0.1') =>
    new Promise<MqttClient>((resolve, reject) => {
      const client = new mqtt.MqttClient(() => net.createConnection({ port, host: '127.0.0.1', localAddress }), {
        protocolVersion: 4,
        clientId: thingName,
        username: thingName,
        password: passwords.get(thingName),
        reconnectPeriod: 0,
        connectTimeout: 3000,
        ...options,
      });
      clients.push(client);
      client.once('connect', () => resolve(client));
      client.once('error', reject);
      client.once('close', () => reject(new Error('closed')));
    });

  beforeAll(async () => {
    t = await startTestApp(dialect, { mqtt: true });
    port = t.app.broker!.port;
    passwords = new Map((await demoFleet(t.app.storage.db)).map((device) => [device.thingName, device.password]));
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.endAsync(true)));
    await t?.close();
  });

  it('does not let anyone who knows a thing name lock the device out: failures count per address', async () => {
    const outcomes: string[] = [];
    for (let i = 0; i < 25; i += 1) {
      outcomes.push(
        await connect('MTW-PUMP01', { password: 'guessed' }, '127.0.0.2').then(
          () => 'connected',
          (error: Error) => (/Bad username or password|Not authorized/i.test(error.message) ? 'refused' : 'closed'),
        ),
      );
    }
    // The first 20 are checked and refused; the address is then turned away unanswered.
    expect(outcomes.slice(0, 20)).toEqual(Array(20).fill('refused'));
    expect(outcomes.slice(20)).toEqual(Array(5).fill('closed'));
    // The real device, with its password, from its own address, gets in.
    const device = await connect('MTW-PUMP01');
    expect(device.connected).toBe(true);
  });

  it('fails closed: an error in the credential store refuses the connection', async () => {
    const db = t.app.storage.db;
    await sql`alter table devices rename to devices_away`.execute(db);
    try {
      await expect(connect('ACME-COLD01')).rejects.toThrow(/Not authorized|Server unavailable/i);
    } finally {
      await sql`alter table devices_away rename to devices`.execute(db);
    }
    expect((await connect('ACME-COLD01')).connected).toBe(true);
  });

  it('never delivers a command whose expiry passed while the device was away; a live one still arrives', async () => {
    const thingName = 'ACME-BLR02';
    const session = { clean: false, clientId: thingName };
    const first = await connect(thingName, session);
    await first.subscribeAsync(deviceDownTopic(thingName), { qos: 1 });
    await first.endAsync();
    const broker = t.app.broker!;
    const command = (id: string, exp: number) =>
      ({ v: 4, id, exp, cmd: 'refreshMetadata' }) as Parameters<typeof broker.sendCommand>[1];
    // Queued for the away device unchecked (the broker keeps an offline session's messages as they
    // come); its expiry, already passed, is read when the restored session delivers them.
    await broker.sendCommand(thingName, command('expired-while-away', Date.now() - 1));
    await broker.sendCommand(thingName, command('still-live', Date.now() + 60_000));
    const received: string[] = [];
    const again = new mqtt.MqttClient(() => net.createConnection({ port, host: '127.0.0.1' }), {
      protocolVersion: 4,
      ...session,
      username: thingName,
      password: passwords.get(thingName),
      reconnectPeriod: 0,
    });
    clients.push(again);
    again.on('message', (_topic, payload) => received.push((JSON.parse(payload.toString()) as { id: string }).id));
    await new Promise((resolve) => again.once('connect', resolve));
    // The session's queue is delivered in order: once the later command has arrived, the expired one
    // would have come before it.
    await until(() => received.includes('still-live'), 5000);
    expect(received).toEqual(['still-live']);
  });
});

describe('MQTT before authentication costs almost nothing', () => {
  let t: TestApp;
  let port: number;
  let passwords: Map<string, string>;
  const logLines: string[] = [];
  /**
   * Why the packet guard refused each connection it closed, in order. A close the guard made, not the
   * broker's CONNECT timeout (10 s) nor the keep-alive: each test checks the reason it expects.
   */
  const refusals = () =>
    logLines
      .map((line) => JSON.parse(line) as { msg: string; reason?: string })
      .filter((entry) => entry.msg === 'MQTT connection refused')
      .map((entry) => entry.reason);
  // The broker's drain timeout (and the app's other timed parts, which no test here waits on) on a clock
  // the test moves: the stalled device's drop waited 10 s of wall clock before.
  const timers = new ManualTimers();
  beforeAll(async () => {
    t = await startTestApp('sqlite', {
      mqtt: true,
      logLines,
      env: { MQTT_DRAIN_TIMEOUT_MS: String(DRAIN_TIMEOUT_MS) },
      timers,
    });
    port = t.app.broker!.port;
    passwords = new Map((await demoFleet(t.app.storage.db)).map((device) => [device.thingName, device.password]));
  });
  afterAll(() => t?.close());

  /** A raw connection of an authenticated device (CONNACK 0 checked), to send hand-made packets on. */
  async function connectedDevice(thingName: string): Promise<net.Socket> {
    const socket = await rawSocket(port);
    socket.on('error', () => undefined);
    const connack = new Promise<Buffer>((resolve) => socket.once('data', resolve));
    socket.write(
      mqttPacket.generate({
        cmd: 'connect',
        protocolId: 'MQTT',
        protocolVersion: 4,
        clean: true,
        keepalive: 0,
        clientId: thingName,
        username: thingName,
        password: Buffer.from(passwords.get(thingName)!),
      }),
    );
    expect((await connack)[3]).toBe(0);
    return socket;
  }

  it('closes 50 connections announcing a 250 MB CONNECT at once; memory stays flat', async () => {
    const junk = Buffer.alloc(1024 * 1024, 0x41);
    const before = process.memoryUsage().rss;
    const refusedBefore = refusals().length;
    const sockets = await Promise.all(Array.from({ length: 50 }, () => rawSocket(port)));
    await Promise.all(
      sockets.map(async (socket) => {
        socket.on('error', () => undefined);
        const whenClosed = closed(socket);
        socket.write(fixedHeader(1, 250 * 1024 * 1024));
        // Keep sending, as the attack did: 4 MiB per connection, 200 MiB in all.
        for (let i = 0; i < 4 && !socket.destroyed; i += 1) socket.write(junk);
        return whenClosed;
      }),
    );
    // Each refused on its CONNECT's fixed header, before anything after it was buffered.
    expect(refusals().slice(refusedBefore)).toEqual(Array(50).fill(`CONNECT larger than ${MAX_CONNECT_BYTES} bytes`));
    // The process hands back the socket buffers it freed: wait for rss to come back within 20 MB of
    // where it was (a server holding the 200 MiB never does). Before: five such connections took the
    // server from 368 MB to 1.4 GB.
    await until(() => process.memoryUsage().rss - before < 20 * 1024 * 1024, 15_000, {
      what: 'rss within 20 MB of its level before the 50 connections',
    });
  });

  it.each([
    ['a first packet that is not CONNECT', fixedHeader(3, 10), 'First packet is not CONNECT'],
    [
      `a CONNECT over ${MAX_CONNECT_BYTES} bytes`,
      fixedHeader(1, MAX_CONNECT_BYTES + 1),
      `CONNECT larger than ${MAX_CONNECT_BYTES} bytes`,
    ],
    [
      'a remaining length of five bytes',
      Buffer.from([0x10, 0xff, 0xff, 0xff, 0xff, 0x01]),
      `CONNECT larger than ${MAX_CONNECT_BYTES} bytes`,
    ],
  ])('closes a connection sending %s', async (_name, bytes, reason) => {
    const refusedBefore = refusals().length;
    const socket = await rawSocket(port);
    socket.on('error', () => undefined);
    socket.write(bytes);
    await closed(socket);
    expect(refusals().slice(refusedBefore)).toEqual([reason]);
  });

  it('speaks MQTT 3.1.1 and refuses MQTT 5, as docs/device-protocol.md says', async () => {
    const connectWith = (protocolVersion: 4 | 5) =>
      mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, {
        protocolVersion,
        clientId: 'ACME-COLD02',
        username: 'ACME-COLD02',
        password: passwords.get('ACME-COLD02'),
        reconnectPeriod: 0,
        connectTimeout: 3000,
      });
    await expect(connectWith(5)).rejects.toThrow(/protocol|version|closed/i);
    const client = await connectWith(4);
    expect(client.connected).toBe(true);
    await client.endAsync();
  });

  it(`closes an authenticated device announcing a PUBLISH over ${MAX_PACKET_BYTES} bytes`, async () => {
    const socket = await connectedDevice('ACME-COLD02');
    const refusedBefore = refusals().length;
    const whenClosed = closed(socket);
    socket.write(fixedHeader(3, MAX_PACKET_BYTES + 1));
    await whenClosed;
    expect(refusals().slice(refusedBefore)).toEqual([`Packet larger than ${MAX_PACKET_BYTES} bytes`]);
  });

  it('drops a device that never reads its command topic instead of buffering for it', async () => {
    const thingName = 'ACME-BLR01';
    const socket = await connectedDevice(thingName);
    const suback = new Promise((resolve) => socket.once('data', resolve));
    socket.write(
      mqttPacket.generate({
        cmd: 'subscribe',
        messageId: 1,
        subscriptions: [{ topic: deviceDownTopic(thingName), qos: 0 }],
      }),
    );
    await suback;
    // From now on it reads nothing: it will not see the broker close it either, so ask the broker.
    socket.pause();
    const broker = t.app.broker!;
    const connected = broker.connectedClients();
    const timersBefore = timers.waiting();
    const big = 'x'.repeat(16 * 1024);
    for (let i = 0; i < 1500 && broker.connectedClients() === connected; i += 1) {
      void broker
        .sendCommand(thingName, {
          v: 4,
          id: `c${i}`,
          exp: Date.now() + 60_000,
          cmd: 'otaUpdate',
          updateId: big,
          updateCommand: 'x',
        } as never)
        .catch(() => undefined);
      // A turn of the event loop now and then (no time), so the broker writes while commands queue.
      if (i % 100 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    // The socket is full once its drain timer runs; at the timeout the device is dropped.
    await until(() => timers.waiting() > timersBefore, 30_000);
    expect(broker.connectedClients()).toBe(connected);
    timers.advance(DRAIN_TIMEOUT_MS);
    await until(() => broker.connectedClients() !== connected, 30_000);
    expect(broker.connectedClients()).toBe(connected - 1);
    socket.destroy();
  }, 60_000);
});

describe('docs/device-protocol.md says which MQTT versions the embedded broker speaks', () => {
  it('states 3.1.1 only for the embedded broker and MQTT 5 only through an external one', () => {
    const doc = readFileSync(new URL('../../../../docs/device-protocol.md', import.meta.url), 'utf8');
    expect(doc).toContain('**MQTT 3.1 and 3.1.1 only**');
    expect(doc).toContain('refuses an MQTT 5 CONNECT as an unsupported protocol version (0x84)');
  });
});
