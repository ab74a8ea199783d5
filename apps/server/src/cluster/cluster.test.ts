import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import mqtt, { type MqttClient } from 'mqtt';
import { REALTIME_CLOSE, REALTIME_PATH } from '@fieldlink/api/realtime';
import { pressureFromRaw } from '@fieldlink/domain/pressure-signal';
import type { DeviceCommand } from '@fieldlink/api/device-frames';
import { deviceDownTopic, deviceUpTopic } from '@fieldlink/api/mqtt-topics';
import { demoFleet } from '../seed/seed';
import { baseUrl, signIn, letViewerOperate } from '../../testing/test-app';
import { TestSocket } from '../../testing/test-socket';
import { IngestSession } from '../broker/ingest-session';
import { MosquittoDynsec } from '../broker/mosquitto-dynsec';
import { provisionDemoFleet } from './demo-fleet';
import { CLUSTER_TOPICS } from './cluster-transport';
import {
  clusterEnv,
  freshPostgres,
  prepareDatabase,
  startClusterApp,
  type TestDatabase,
} from '../../testing/cluster/cluster-apps';
import { startMosquitto, type TestMosquitto } from '../../testing/cluster/mosquitto';
import { moveInbox } from '../db/log-inbox';
import { inBackground } from '../../testing/test-device';
import { until } from '../../testing/until';

const quiet = { info: () => undefined, warn: () => undefined };

describe('two instances on Mosquitto 2 and PostgreSQL', () => {
  let mosquitto: TestMosquitto;
  let database: TestDatabase;
  let a: FastifyInstance;
  let b: FastifyInstance;
  let passwords: Map<string, string>;
  const closers: (() => unknown)[] = [];

  const device = async (thingName: string, options: mqtt.IClientOptions = {}): Promise<MqttClient> => {
    const client = await mqtt.connectAsync(mosquitto.url, {
      clientId: thingName,
      username: thingName,
      password: passwords.get(thingName),
      reconnectPeriod: 0,
      connectTimeout: 5000,
      ...options,
    });
    closers.push(() => client.endAsync(true));
    return client;
  };
  const row = (thingName: string) =>
    a.storage.db.selectFrom('devices').selectAll().where('thing_name', '=', thingName).executeTakeFirstOrThrow();
  const logRows = async (thingName: string) => {
    const { id } = await row(thingName);
    await moveInbox(a.storage.db, [id]);
    return a.storage.db.selectFrom('logs').selectAll().where('device_id', '=', id).execute();
  };
  const framesStored = () => a.ingest.counters.frames + b.ingest.counters.frames;

  beforeAll(async () => {
    mosquitto = await startMosquitto();
    database = await freshPostgres();
    await prepareDatabase(database.url);
    const env = { ...clusterEnv(mosquitto, database.url), MQTT_MAX_FRAMES_PER_SECOND: '20' };
    a = await startClusterApp({ ...env, FIELDLINK_INSTANCE_ID: 'test-a' }, { commandTimeoutMs: 3000 });
    b = await startClusterApp({ ...env, FIELDLINK_INSTANCE_ID: 'test-b' }, { commandTimeoutMs: 3000 });
    const fleet = await demoFleet(a.storage.db);
    passwords = new Map(fleet.map((entry) => [entry.thingName, entry.password]));
    await provisionDemoFleet(a.broker!, fleet);
    await letViewerOperate(a.storage.db);
  });
  afterAll(async () => {
    for (const close of closers) await close();
    await b?.close();
    await a?.close();
    await mosquitto?.close();
    await database?.drop();
  });

  it('provisions a device through the API into the broker: it signs in with its own credentials only', async () => {
    const jwt = await signIn(a, 'ops@fieldlink.test');
    const response = await a.inject({
      method: 'POST',
      url: '/api/v1/device',
      headers: { authorization: jwt },
      payload: { name: 'Cluster pump' },
    });
    expect(response.statusCode).toBe(200);
    const { thingName, password } = (response.json() as { credentials: { thingName: string; password: string } })
      .credentials;
    passwords.set(thingName, password);
    await expect(device(thingName)).resolves.toBeDefined();
    const refused = [
      { password: 'wrong-password' },
      { clientId: 'ACME-BLR01' }, // its user name with another device's client id
      { username: 'ACME-BLR01', password: passwords.get('ACME-BLR01') }, // another device's account, this client id
      { username: undefined, password: undefined },
    ];
    for (const options of refused) {
      await expect(device(thingName, options)).rejects.toThrow(/Not authorized|Bad username or password/i);
    }
  });

  it.each(['#', 'dev/+/down', 'dev/ACME-BLR02/down', 'dev/ACME-BLR01/up', 'fieldlink/#', '$SYS/#', '$CONTROL/#'])(
    'refuses a device’s subscription to %s',
    async (topic) => {
      const client = await device('ACME-BLR01');
      await expect(client.subscribeAsync(topic, { qos: 1 })).rejects.toThrow(/Subscribe error/);
      await expect(client.subscribeAsync(deviceDownTopic('ACME-BLR01'), { qos: 1 })).resolves.toEqual([
        expect.objectContaining({ qos: 1 }),
      ]);
    },
  );

  it('stores nothing a device publishes to another device’s topic or to the server topics', async () => {
    const socket = await TestSocket.open(
      `${baseUrl(b).replace('http', 'ws')}${REALTIME_PATH}`,
      await signIn(b, 'admin@fieldlink.test'),
    );
    closers.push(() => socket.socket.close());
    await socket.request({ type: 'server/subscribeDevices', thingNames: ['ACME-COLD01'] });
    const client = await device('ACME-BLR02');
    const forged = { v: 4, type: 'log', t: Date.now(), values: { c77: 1 } };
    await client.publishAsync(deviceUpTopic('ACME-COLD01'), JSON.stringify(forged), { qos: 1 });
    await client.publishAsync(
      CLUSTER_TOPICS.events,
      JSON.stringify({ from: 'x', events: [{ type: 'server/newRawLogs', thingName: 'ACME-COLD01', logs: {} }] }),
      { qos: 1 },
    );
    // A later frame of its own is stored: everything before it has been through the broker.
    await client.publishAsync(deviceUpTopic('ACME-BLR02'), JSON.stringify({ ...forged, values: { c78: 1 } }), {
      qos: 1,
    });
    await until(async () => (await logRows('ACME-BLR02')).some((log) => log.code === 'c78'));
    expect((await logRows('ACME-COLD01')).filter((log) => log.code === 'c77')).toHaveLength(0);
    expect(socket.received.filter((action) => action.type === 'server/newRawLogs')).toHaveLength(0);
  });

  it('stores each frame once across the share group, both instances taking part', async () => {
    const things = ['NGB-FV01', 'NGB-FV02', 'NGB-BT01', 'NGB-HLT01'];
    const before = { total: framesStored(), a: a.ingest.counters.frames };
    const t0 = Date.now() - 100_000;
    const clients = await Promise.all(
      things.map(async (thingName) => {
        const client = await device(thingName);
        for (let i = 0; i < 50; i += 1) {
          const frame = { v: 4, type: 'log', t: t0 + i, values: { c1: i, c2: -i } };
          await client.publishAsync(deviceUpTopic(thingName), JSON.stringify(frame), { qos: 1 });
        }
        return client;
      }),
    );
    const inWindow = async (thingName: string) =>
      (await logRows(thingName)).filter((log) => log.t >= t0 && log.t < t0 + 50);
    await until(() => framesStored() - before.total >= 200);
    // A frame is counted when it is read, and committed a batch later: wait for the rows too.
    await until(async () => (await Promise.all(things.map(inWindow))).every((logs) => logs.length >= 100));
    const byA = a.ingest.counters.frames - before.a;
    // No second copy of a frame is still on its way: the broker hands each instance its messages in
    // order, so an instance that has read a frame published after the 200 has read every copy given
    // to it before. Each later frame goes to one member of the share group: send them until both
    // instances have read one, then until every one is stored.
    const read = { a: a.ingest.counters.frames, b: b.ingest.counters.frames };
    const MARKER_T = t0 + 1000;
    let markers = 0;
    await until(async () => {
      const frame = { v: 4, type: 'log', t: MARKER_T + markers, values: { c1: markers } };
      const thing = markers % things.length;
      await clients[thing]!.publishAsync(deviceUpTopic(things[thing]!), JSON.stringify(frame), { qos: 1 });
      markers += 1;
      return a.ingest.counters.frames > read.a && b.ingest.counters.frames > read.b;
    });
    const markersStored = async () =>
      (await Promise.all(things.map(logRows))).flat().filter((log) => log.code === 'c1' && log.t >= MARKER_T).length;
    await until(async () => (await markersStored()) === markers);
    // Every frame and every marker read exactly once: a copy read anywhere would be counted here.
    expect(framesStored() - before.total).toBe(200 + markers);
    expect(byA).toBeGreaterThan(0);
    expect(byA).toBeLessThan(200);
    for (const thingName of things) {
      expect(await inWindow(thingName)).toHaveLength(100);
    }
  });

  it('shows a browser on instance B the values instance A stored', async () => {
    const socket = await TestSocket.open(
      `${baseUrl(b).replace('http', 'ws')}${REALTIME_PATH}`,
      await signIn(b, 'viewer@fieldlink.test'),
    );
    closers.push(() => socket.socket.close());
    expect((await socket.request({ type: 'server/subscribeDevices', thingNames: ['ACME-BLR01'] })).ok).toBe(true);
    const client = await device('ACME-BLR01');
    const storedByA = a.ingest.counters.frames;
    const values = [11, 12, 13, 14, 15, 16];
    for (const value of values) {
      const frame = { v: 4, type: 'log', t: Date.now(), values: { c5: value } };
      await client.publishAsync(deviceUpTopic('ACME-BLR01'), JSON.stringify(frame), { qos: 1 });
    }
    await until(() => {
      const seen = socket.received.flatMap((action) =>
        action.type === 'server/newRawLogs' ? (action.logs.c5 ?? []).map((sample) => sample.value) : [],
      );
      return values.every((value) => seen.includes(value));
    });
    expect(a.ingest.counters.frames).toBeGreaterThan(storedByA);
  });

  it('closes the sockets on instance B of a session signed out and of an API token revoked on instance A', async () => {
    const realtimeOnB = `${baseUrl(b).replace('http', 'ws')}${REALTIME_PATH}`;
    const closeCode = (socket: TestSocket) =>
      new Promise<number>((resolve) => socket.socket.once('close', (code) => resolve(code)));

    const jwt = await signIn(a, 'viewer@fieldlink.test');
    const signedIn = await TestSocket.open(realtimeOnB, jwt);
    closers.push(() => signedIn.socket.close());
    const signedInClosed = closeCode(signedIn);
    const signOut = await a.inject({ method: 'POST', url: '/api/v1/signout', headers: { authorization: jwt } });
    expect(signOut.statusCode, signOut.body).toBe(200);
    expect(await signedInClosed).toBe(REALTIME_CLOSE.unauthorized);

    const admin = await signIn(a, 'admin@fieldlink.test');
    const made = await a.inject({
      method: 'POST',
      url: '/api/v1/api-tokens',
      headers: { authorization: admin },
      payload: { name: 'Cluster integration' },
    });
    expect(made.statusCode, made.body).toBe(200);
    const { id, token } = made.json() as { id: string; token: string };
    const integration = await TestSocket.open(realtimeOnB, token);
    closers.push(() => integration.socket.close());
    expect((await integration.request({ type: 'server/subscribeDevices', thingNames: ['ACME-BLR01'] })).ok).toBe(true);
    const integrationClosed = closeCode(integration);
    const revoked = await a.inject({
      method: 'DELETE',
      url: `/api/v1/api-tokens?id=${id}`,
      headers: { authorization: admin },
    });
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(await integrationClosed).toBe(REALTIME_CLOSE.unauthorized);
  });

  it('reads a device’s channels again on B once A stored its config frame', async () => {
    const thingName = 'ACME-BLR02';
    const t0 = Date.now() - 30_000;
    const c33 = async () =>
      (await logRows(thingName))
        .filter((log) => log.code === 'c33')
        .sort((x, y) => Number(x.t) - Number(y.t))
        .map((log) => Number(log.value));
    const frame = (body: object) => Buffer.from(JSON.stringify({ v: 4, ...body }));
    // B reads the device into its directory with a frame of its own.
    await b.ingest.handle(thingName, frame({ type: 'log', t: t0, values: { c33: 12_000 } }));
    await until(async () => (await c33()).length === 1);
    const relayed = new Promise<void>((resolve) =>
      b.events.on((event, origin) => {
        if (event.type === 'server/deviceConfig' && event.thingName === thingName && origin === 'remote') resolve();
      }),
    );
    const channels = [{ code: 'c33', name: 'Line pressure', units: 'bar', config: { signal: 'raw', fullScale: 6 } }];
    await a.ingest.handle(thingName, frame({ type: 'config', subtype: 'input', channels }));
    await relayed;
    await b.ingest.handle(thingName, frame({ type: 'log', t: t0 + 1000, values: { c33: 3_000_000 } }));
    await until(async () => (await c33()).length === 2);
    expect(await c33()).toEqual([12_000, pressureFromRaw(3_000_000, 6)]);
  });

  it('runs a command from a browser on B and brings back the reply, whichever instance stores it', async () => {
    const client = await device('ACME-COLD02');
    await client.subscribeAsync(deviceDownTopic('ACME-COLD02'), { qos: 1 });
    client.on('message', (_topic, payload) => {
      const command = JSON.parse(payload.toString()) as DeviceCommand;
      const reply = { v: 4, type: 'reply', id: command.id, result: 'OK', value: 40 + Number(command.id.length % 1) };
      inBackground(client, client.publishAsync(deviceUpTopic('ACME-COLD02'), JSON.stringify(reply), { qos: 1 }));
    });
    await client.publishAsync(
      deviceUpTopic('ACME-COLD02'),
      JSON.stringify({ v: 4, type: 'conn', t: Date.now(), connected: true }),
      { qos: 1 },
    );
    await until(async () => (await row('ACME-COLD02')).is_connected === 1);
    const socket = await TestSocket.open(
      `${baseUrl(b).replace('http', 'ws')}${REALTIME_PATH}`,
      await signIn(b, 'viewer@fieldlink.test'),
    );
    closers.push(() => socket.socket.close());
    for (let i = 0; i < 4; i += 1) {
      const reply = await socket.request({ type: 'server/readChannel', thingName: 'ACME-COLD02', code: 'c1' });
      expect(reply).toMatchObject({ ok: true, value: 40 });
    }
  });

  it('shows browsers on both instances the setpoint status of a write run through instance A', async () => {
    const client = await device('ACME-COLD01');
    await client.subscribeAsync(deviceDownTopic('ACME-COLD01'), { qos: 1 });
    client.on('message', (_topic, payload) => {
      const command = JSON.parse(payload.toString()) as DeviceCommand;
      // The controller settles 1.5 above what it was asked for: each write's status names its own value.
      const value = (command as { value?: number }).value! + 1.5;
      const reply = { v: 4, type: 'reply', id: command.id, result: 'OK', value };
      inBackground(client, client.publishAsync(deviceUpTopic('ACME-COLD01'), JSON.stringify(reply), { qos: 1 }));
    });
    await client.publishAsync(
      deviceUpTopic('ACME-COLD01'),
      JSON.stringify({ v: 4, type: 'conn', t: Date.now(), connected: true }),
      { qos: 1 },
    );
    await until(async () => (await row('ACME-COLD01')).is_connected === 1);
    const open = async (app: FastifyInstance) => {
      const socket = await TestSocket.open(
        `${baseUrl(app).replace('http', 'ws')}${REALTIME_PATH}`,
        await signIn(app, 'viewer@fieldlink.test'),
      );
      closers.push(() => socket.socket.close());
      expect((await socket.request({ type: 'server/subscribeDevices', thingNames: ['ACME-COLD01'] })).ok).toBe(true);
      return socket;
    };
    const [onA, onB] = [await open(a), await open(b)];
    const reply = await onA.request({ type: 'server/writeChannel', thingName: 'ACME-COLD01', code: 'sp1', value: 20 });
    expect(reply).toMatchObject({ ok: true, value: 21.5 });
    const status = { type: 'server/setpointStatus', thingName: 'ACME-COLD01', code: 'sp1', state: 'on', value: 21.5 };
    await expect(onB.waitFor((action) => action.type === 'server/setpointStatus')).resolves.toEqual(status);
    // Once on each instance: the relay does not echo an instance's own events back to it. A later write
    // through the other instance is the proof that nothing more is coming: the broker hands each
    // instance the relay's messages in order, so an instance that has a later message from the other
    // has had any echo of its own earlier one (and any copy the other sent back).
    const statusOf = (value: number) => ({ ...status, value: value + 1.5 });
    expect(
      await onB.request({ type: 'server/writeChannel', thingName: 'ACME-COLD01', code: 'sp1', value: 22 }),
    ).toMatchObject({ ok: true, value: 23.5 });
    await onA.waitFor((action) => action.type === 'server/setpointStatus' && action.value === 23.5);
    expect(
      await onA.request({ type: 'server/writeChannel', thingName: 'ACME-COLD01', code: 'sp1', value: 24 }),
    ).toMatchObject({ ok: true, value: 25.5 });
    await onB.waitFor((action) => action.type === 'server/setpointStatus' && action.value === 25.5);
    for (const socket of [onA, onB]) {
      expect(socket.received.filter((action) => action.type === 'server/setpointStatus')).toEqual([
        status,
        statusOf(22),
        statusOf(24),
      ]);
    }
  });

  it('follows connection state from the device’s conn frame and its will', async () => {
    const will = { topic: deviceUpTopic('OSC-SPR01'), payload: Buffer.from('{"v":4,"type":"conn","connected":false}') };
    const client = await device('OSC-SPR01', { will: { ...will, qos: 1, retain: false } });
    await client.publishAsync(
      deviceUpTopic('OSC-SPR01'),
      JSON.stringify({ v: 4, type: 'conn', t: Date.now(), connected: true }),
      { qos: 1 },
    );
    await until(async () => (await row('OSC-SPR01')).is_connected === 1);
    client.stream.destroy(); // a lost link: the broker publishes the will
    await until(async () => (await row('OSC-SPR01')).is_connected === 0);
  });

  it('drops and counts frames over 16 KiB or over a device’s rate; the broker closes a device over its packet limit', async () => {
    const counters = () => ({
      oversized: a.ingest.counters.oversized + b.ingest.counters.oversized,
      rateLimited: a.ingest.counters.rateLimited + b.ingest.counters.rateLimited,
    });
    const before = counters();
    const client = await device('CRS-SHELF01');
    const topic = deviceUpTopic('CRS-SHELF01');
    await client.publishAsync(
      topic,
      JSON.stringify({ v: 4, type: 'log', t: Date.now(), values: {}, pad: 'x'.repeat(17_000) }),
      {
        qos: 1,
      },
    );
    await until(() => counters().oversized === before.oversized + 1);
    expect(client.connected).toBe(true);
    // 20 frames a second over 10 s, counted by each instance for the frames it receives.
    const t0 = Date.now() - 500_000;
    await Promise.all(
      Array.from({ length: 600 }, (_, i) =>
        client.publishAsync(topic, JSON.stringify({ v: 4, type: 'log', t: t0 + i, values: { c1: i } }), { qos: 1 }),
      ),
    );
    await until(() => counters().rateLimited > before.rateLimited + 100);
    const gone = new Promise<void>((resolve) => client.once('close', () => resolve()));
    client.publish(topic, 'x'.repeat(30_000), { qos: 1 }); // over Mosquitto's max_packet_size (20000)
    await gone;
  });

  it('exposes Prometheus metrics on every instance', async () => {
    const response = await b.inject({ method: 'GET', url: '/metrics' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/text\/plain/);
    expect(response.body).toMatch(/^fieldlink_ingest_frames_total \d+$/m);
    expect(response.body).toMatch(/^fieldlink_ingest_rejected_frames_total\{reason="oversized"\} \d+$/m);
    expect(response.body).toMatch(/^fieldlink_devices_connected \d+$/m);
    expect(response.body).toMatch(/^fieldlink_mqtt_connections 2$/m);
    expect(response.body).toMatch(/^fieldlink_cluster_messages_total\{direction="received"\} [1-9]\d*$/m);
    expect(response.body).toMatch(
      /^fieldlink_http_request_duration_seconds_count\{.*route="\/api\/v1\/signin".*\} \d+$/m,
    );
  });
});

describe('an ingest session on Mosquitto 2', () => {
  let mosquitto: TestMosquitto;
  const sessions: IngestSession[] = [];
  let admin: MqttClient;
  let publisher: MqttClient;

  beforeAll(async () => {
    mosquitto = await startMosquitto();
    admin = await mqtt.connectAsync(mosquitto.url, {
      username: mosquitto.adminUsername,
      password: mosquitto.adminPassword,
      protocolVersion: 5,
    });
    const dynsec = new MosquittoDynsec(admin, mosquitto.adminUsername);
    await dynsec.setUp();
    await dynsec.provision('ACME-X01', 'x01-secret');
    publisher = await mqtt.connectAsync(mosquitto.url, {
      clientId: 'ACME-X01',
      username: 'ACME-X01',
      password: 'x01-secret',
    });
  });
  afterAll(async () => {
    for (const session of sessions) await session.close();
    await publisher?.endAsync(true);
    await admin?.endAsync(true);
    await mosquitto?.close();
  });

  const session = (clientId: string, onMessage: (topic: string, payload: Buffer) => Promise<void>) => {
    const created = new IngestSession({
      url: new URL(mosquitto.url),
      clientId,
      username: mosquitto.adminUsername,
      password: mosquitto.adminPassword,
      filter: '$share/test-ingest/dev/+/up',
      receiveMaximum: 100,
      onMessage,
      logger: quiet,
    });
    sessions.push(created);
    return created;
  };

  it('keeps unacknowledged frames for the next holder of the client id, which drains and ends the session', async () => {
    const hung = session('ingest-x', () => new Promise<void>(() => undefined)); // never committed
    await hung.start();
    for (let i = 0; i < 30; i += 1) await publisher.publishAsync('dev/ACME-X01/up', `frame ${i}`, { qos: 1 });
    await until(() => hung.counters.received === 30);
    expect(hung.counters.acknowledged).toBe(0);
    await hung.close(); // as if the instance died: the session and its 30 frames stay at the broker

    // Offline members of a shared subscription still get their turn in Mosquitto: these queue too.
    for (let i = 30; i < 40; i += 1) await publisher.publishAsync('dev/ACME-X01/up', `frame ${i}`, { qos: 1 });

    const stored: string[] = [];
    const adopter = session('ingest-x', async (_topic, payload) => void stored.push(payload.toString()));
    await adopter.start({ subscribe: false });
    expect(await adopter.drainAndEnd({ quietMs: 300, timeoutMs: 10_000 })).toBe(true);
    expect(new Set(stored)).toEqual(new Set(Array.from({ length: 40 }, (_, i) => `frame ${i}`)));

    // The session is gone: the next connection with its client id finds none (CONNACK's session-present
    // flag, MQTT 5 §3.2.2.1.2), so a new holder of the id gets nothing more. (A 300 ms silence stood
    // here: with every frame drained it also passed when the session stayed.)
    const probe = mqtt.connect(mosquitto.url, {
      clientId: 'ingest-x',
      clean: false,
      protocolVersion: 5,
      username: mosquitto.adminUsername,
      password: mosquitto.adminPassword,
      // The probe leaves no session of its own behind.
      properties: { sessionExpiryInterval: 0 },
    });
    try {
      const connack = await new Promise<{ sessionPresent: boolean }>((resolve, reject) => {
        probe.once('connect', resolve);
        probe.once('error', reject);
      });
      expect(connack.sessionPresent).toBe(false);
    } finally {
      await probe.endAsync(true);
    }
  });

  it('acknowledges a frame only once it is stored, retrying while storing fails', async () => {
    let failures = 3;
    const stored: string[] = [];
    const flaky = session('ingest-y', async (_topic, payload) => {
      if (failures > 0) {
        failures -= 1;
        throw new Error('database away');
      }
      stored.push(payload.toString());
    });
    await flaky.start();
    await publisher.publishAsync('dev/ACME-X01/up', 'only frame', { qos: 1 });
    await until(() => flaky.counters.acknowledged === 1);
    expect(flaky.counters.retried).toBe(3);
    expect(stored).toEqual(['only frame']);
  });
});
