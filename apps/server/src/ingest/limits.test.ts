import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt, { type MqttClient } from 'mqtt';
import { deviceUpTopic } from '@fieldlink/api/mqtt-topics';
import { REALTIME_PATH } from '@fieldlink/api/realtime';
import { demoFleet } from '../seed/seed';
import { DIALECTS, baseUrl, signIn, startTestApp, type TestApp } from '../../testing/test-app';
import { TestSocket } from '../../testing/test-socket';
import { until } from '../../testing/until';
import { moveInbox } from '../db/log-inbox';

/** Limits of SECURITY.md 13 and 18 on the embedded broker and the API. */
describe.each(DIALECTS)('limits on %s', (dialect) => {
  let t: TestApp;
  let passwords: Map<string, string>;
  const clients: MqttClient[] = [];

  const device = async (thingName: string) => {
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${t.app.broker!.port}`, {
      clientId: thingName,
      username: thingName,
      password: passwords.get(thingName),
      reconnectPeriod: 0,
    });
    clients.push(client);
    return client;
  };
  const closed = (client: MqttClient) => new Promise<void>((resolve) => client.once('close', () => resolve()));

  beforeAll(async () => {
    t = await startTestApp(dialect, { mqtt: true, listen: true, env: { MQTT_MAX_FRAMES_PER_SECOND: '50' } });
    passwords = new Map((await demoFleet(t.app.storage.db)).map((entry) => [entry.thingName, entry.password]));
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.endAsync(true)));
    await t?.close();
  });

  it('closes a device that sends a frame over 16 KiB, storing nothing of it', async () => {
    const client = await device('ACME-BLR01');
    const oversized = t.app.ingest.counters.oversized;
    const values = Object.fromEntries(Array.from({ length: 256 }, (_, i) => [`c${i + 1}`, 123456.789 + i]));
    const frame = JSON.stringify({
      v: 4,
      type: 'log',
      t: Date.now(),
      values,
      extra: { st1: { tempSp: 'x'.repeat(12_000) } },
    });
    expect(Buffer.byteLength(frame)).toBeGreaterThan(16 * 1024);
    const gone = closed(client);
    client.publish(deviceUpTopic('ACME-BLR01'), frame, { qos: 1 });
    await gone;
    expect(t.app.ingest.counters.oversized - oversized).toBe(1);
  });

  it('closes a device over its publish rate, after storing what was within it', async () => {
    const client = await device('ACME-BLR02');
    const limited = t.app.ingest.counters.rateLimited;
    const gone = closed(client);
    const t0 = Date.now() - 1_000_000;
    // 50 frames a second averaged over 10 s: the 501st frame in the window is refused.
    for (let i = 0; i < 520 && client.connected; i += 1) {
      client.publish(deviceUpTopic('ACME-BLR02'), JSON.stringify({ v: 4, type: 'log', t: t0 + i, values: { c1: i } }), {
        qos: 0,
      });
    }
    await gone;
    expect(t.app.ingest.counters.rateLimited - limited).toBe(1);
  });

  it('refuses a frame whose text holds a NUL, keeping the device connected and the frames beside it', async () => {
    // PostgreSQL cannot store U+0000: such a frame failed its whole batch, dropped the device and
    // lost the neighbour's frame written in the same transaction.
    const sender = await device('NGB-FV01');
    const neighbour = await device('NGB-FV02');
    const rejected = t.app.ingest.counters.rejected;
    const at = Date.now() - 5_000;
    const garbled = {
      v: 4,
      type: 'config',
      subtype: 'device',
      sn: 'SN\u0000X',
      channels: [{ code: 'c1', name: 'A\u0000' }],
    };
    await Promise.all([
      sender.publishAsync(deviceUpTopic('NGB-FV01'), JSON.stringify(garbled), { qos: 1 }),
      sender.publishAsync(deviceUpTopic('NGB-FV01'), JSON.stringify({ v: 4, type: 'log', t: at, values: { c97: 3 } }), {
        qos: 1,
      }),
      neighbour.publishAsync(
        deviceUpTopic('NGB-FV02'),
        JSON.stringify({ v: 4, type: 'log', t: at, values: { c97: 7 } }),
        { qos: 1 },
      ),
    ]);
    expect(t.app.ingest.counters.rejected - rejected).toBe(1);
    expect(sender.connected).toBe(true);
    await moveInbox(t.app.storage.db);
    const stored = await t.app.storage.db
      .selectFrom('logs')
      .innerJoin('devices', 'devices.id', 'logs.device_id')
      .select(['devices.thing_name as thingName', 'logs.value'])
      .where('logs.code', '=', 'c97')
      .where('logs.t', '=', at)
      .orderBy('devices.thing_name')
      .execute();
    expect(stored).toEqual([
      { thingName: 'NGB-FV01', value: 3 },
      { thingName: 'NGB-FV02', value: 7 },
    ]);
    const senderRow = await t.app.storage.db
      .selectFrom('devices')
      .select(['sn', 'channels'])
      .where('thing_name', '=', 'NGB-FV01')
      .executeTakeFirstOrThrow();
    expect(senderRow.sn).not.toContain('\u0000');
    expect(senderRow.channels).not.toContain('A\\u0000');
  });

  it('refuses a frame stamped at a time no clock holds, keeping the device connected and the frames beside it', async () => {
    // PostgreSQL's bigint refuses such a time: the frame failed its batch, again at every retry.
    const sender = await device('NGB-FV01');
    const neighbour = await device('NGB-FV02');
    const rejected = t.app.ingest.counters.rejected;
    const at = Date.now() - 6_000;
    const log = (value: number, time = at) => JSON.stringify({ v: 4, type: 'log', t: time, values: { c96: value } });
    await Promise.all([
      sender.publishAsync(deviceUpTopic('NGB-FV01'), log(1, -2.15e122), { qos: 1 }),
      sender.publishAsync(deviceUpTopic('NGB-FV01'), log(2, 1e300), { qos: 1 }),
      sender.publishAsync(deviceUpTopic('NGB-FV01'), log(3), { qos: 1 }),
      neighbour.publishAsync(deviceUpTopic('NGB-FV02'), log(7), { qos: 1 }),
    ]);
    expect(t.app.ingest.counters.rejected - rejected).toBe(2);
    expect(sender.connected).toBe(true);
    await moveInbox(t.app.storage.db);
    const stored = await t.app.storage.db
      .selectFrom('logs')
      .innerJoin('devices', 'devices.id', 'logs.device_id')
      .select(['devices.thing_name as thingName', 'logs.t', 'logs.value'])
      .where('logs.code', '=', 'c96')
      .orderBy('devices.thing_name')
      .execute();
    expect(stored.map((row) => ({ ...row, t: Number(row.t) }))).toEqual([
      { thingName: 'NGB-FV01', t: at, value: 3 },
      { thingName: 'NGB-FV02', t: at, value: 7 },
    ]);
  });

  it('answers 413 to a request body over the limit', async () => {
    const jwt = await signIn(t.app, 'ops@fieldlink.test');
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/device',
      headers: { authorization: jwt, 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ statusCode: 413 });
  });

  it('drops a browser socket that does not read (slow consumer)', async () => {
    const origin = baseUrl(t.app);
    const things = ['ACME-BLR01', 'ACME-BLR02', 'ACME-COLD01', 'ACME-COLD02'];
    const socket = await TestSocket.open(
      `${origin.replace('http', 'ws')}${REALTIME_PATH}`,
      await signIn(t.app, 'viewer@fieldlink.test'),
      origin,
    );
    expect((await socket.request({ type: 'server/subscribeDevices', thingNames: things })).ok).toBe(true);
    const before = t.app.hub.socketCount;
    // Stop reading: once the kernel's buffers are full, the server's send buffer grows past 4 MiB.
    (socket.socket as unknown as { _socket: { pause(): void } })._socket.pause();
    const values = Object.fromEntries(Array.from({ length: 256 }, (_, i) => [`c${i + 1}`, 1000.123456 + i]));
    const t0 = Date.now() - 1_000_000;
    await Promise.all(
      things.map(async (thingName) => {
        const client = await device(thingName);
        // Within the device's rate (50 a second over 10 s): about 4 MB of events per device.
        for (let i = 0; i < 450 && t.app.hub.socketCount >= before; i += 25) {
          await Promise.all(
            Array.from({ length: 25 }, (_, j) =>
              client.publishAsync(
                deviceUpTopic(thingName),
                JSON.stringify({ v: 4, type: 'log', t: t0 + i + j, values }),
                { qos: 1 },
              ),
            ),
          );
        }
      }),
    );
    await until(() => t.app.hub.socketCount < before);
    socket.socket.terminate();
  });
});
