import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt, { type MqttClient } from 'mqtt';
import { deviceUpTopic } from '@fieldlink/api/mqtt-topics';
import { DIALECTS, startTestApp, type TestApp } from '../../testing/test-app';
import { demoFleet } from '../seed/seed';
import { moveInbox } from '../db/log-inbox';
import { until } from '../../testing/until';

describe.each(DIALECTS)('embedded broker and ingest on %s', (dialect) => {
  let t: TestApp;
  let url: string;
  let passwords: Map<string, string>;
  const clients: MqttClient[] = [];

  const connect = async (thingName: string, options: mqtt.IClientOptions = {}) => {
    const client = await mqtt.connectAsync(url, {
      clientId: thingName,
      username: thingName,
      password: passwords.get(thingName),
      reconnectPeriod: 0,
      connectTimeout: 3000,
      ...options,
    });
    clients.push(client);
    return client;
  };
  const deviceRow = (thingName: string) =>
    t.app.storage.db.selectFrom('devices').selectAll().where('thing_name', '=', thingName).executeTakeFirstOrThrow();
  const latest = async (thingName: string) => {
    const device = await deviceRow(thingName);
    // SQLite's inbox stands for the latest values of the samples it holds: read as readers read.
    await moveInbox(t.app.storage.db, [device.id]);
    return t.app.storage.db.selectFrom('latest_values').selectAll().where('device_id', '=', device.id).execute();
  };

  beforeAll(async () => {
    t = await startTestApp(dialect, { mqtt: true });
    url = `mqtt://127.0.0.1:${t.app.broker!.port}`;
    passwords = new Map((await demoFleet(t.app.storage.db)).map((device) => [device.thingName, device.password]));
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.endAsync(true)));
    await t?.close();
  });

  it.each([
    ['a wrong password', { password: 'wrong-password' }],
    ['no password', { password: undefined }],
    ['a user name other than the client id', { username: 'ACME-BLR02' }],
    ['an unknown device', { clientId: 'NOPE-0001', username: 'NOPE-0001' }],
    ['a wildcard client id', { clientId: 'ACME-#', username: 'ACME-#' }],
  ])('refuses %s', async (_name, options) => {
    await expect(connect('ACME-BLR01', options)).rejects.toThrow(
      /Bad username or password|Not authorized|Identifier rejected/i,
    );
  });

  it('limits failed connects per source address', async () => {
    /** One connect attempt from an address of its own: refused with a CONNACK code, or closed before any answer. */
    const attempt = () =>
      new Promise<'refused' | 'closed'>((resolve) => {
        const { port } = new URL(url);
        const stream = () => net.createConnection({ port: Number(port), host: '127.0.0.1', localAddress: '127.0.0.3' });
        const client = new mqtt.MqttClient(stream, {
          protocolVersion: 4,
          clientId: 'MTW-PUMP01',
          username: 'MTW-PUMP01',
          password: 'wrong',
          reconnectPeriod: 0,
        });
        client.once('error', () => resolve('refused'));
        client.once('close', () => resolve('closed'));
        clients.push(client);
      });
    const results: string[] = [];
    for (let i = 0; i < 21; i += 1) results.push(await attempt());
    // The first 20 are answered (refused for the wrong password); the 21st is dropped before any check.
    expect(results.slice(0, 20)).toEqual(Array(20).fill('refused'));
    expect(results[20]).toBe('closed');
  });

  it('acknowledges a QoS 1 log frame only once its values are stored', async () => {
    const client = await connect('ACME-BLR01');
    const t0 = Date.now();
    await client.publishAsync(
      deviceUpTopic('ACME-BLR01'),
      JSON.stringify({ v: 4, type: 'log', t: t0, values: { c1: 21.5, c2: 3 } }),
      { qos: 1 },
    );
    // No waiting: the PUBACK itself means stored.
    const rows = await latest('ACME-BLR01');
    expect(rows.find((row) => row.code === 'c1')).toMatchObject({ value: 21.5, t: t0 });
    // Committed into SQLite's inbox: moved into `logs` as any reader moves it (db/log-inbox.ts).
    await moveInbox(t.app.storage.db);
    const logs = await t.app.storage.db
      .selectFrom('logs')
      .selectAll()
      .where('device_id', '=', rows[0]!.device_id)
      .execute();
    expect(logs.filter((row) => row.t === t0)).toHaveLength(2);
  });

  it('keeps the newer latest value when an older sample arrives; the log skips a duplicate timestamp', async () => {
    const client = await connect('ACME-BLR02');
    const topic = deviceUpTopic('ACME-BLR02');
    const newer = Date.now();
    await client.publishAsync(topic, JSON.stringify({ v: 4, type: 'log', t: newer, values: { c1: 30 } }), { qos: 1 });
    await client.publishAsync(topic, JSON.stringify({ v: 4, type: 'log', t: newer - 60_000, values: { c1: 10 } }), {
      qos: 1,
    });
    await client.publishAsync(topic, JSON.stringify({ v: 4, type: 'log', t: newer, values: { c1: 99 } }), { qos: 1 });
    const c1 = (await latest('ACME-BLR02')).find((row) => row.code === 'c1');
    // The older sample did not replace it; a sample of equal time does (shouldReplaceLatest: "not older").
    expect(c1?.value).toBe(99);
    const device = await deviceRow('ACME-BLR02');
    await moveInbox(t.app.storage.db);
    const logs = await t.app.storage.db
      .selectFrom('logs')
      .select(['t', 'value'])
      .where('device_id', '=', device.id)
      .where('code', '=', 'c1')
      .orderBy('t')
      .execute();
    expect(logs).toEqual([
      { t: newer - 60_000, value: 10 },
      { t: newer, value: 30 },
    ]);
  });

  it('upgrades a version 1 frame (seconds, value pairs) to version 4', async () => {
    const client = await connect('ACME-COLD01');
    const seconds = Math.floor(Date.now() / 1000);
    await client.publishAsync(
      deviceUpTopic('ACME-COLD01'),
      JSON.stringify({ ver: 1, type: 'log', ts: seconds, values: [{ code: 'st1', value: 4.1, tempSp: 4, diff: 0.5 }] }),
      { qos: 1 },
    );
    const st1 = (await latest('ACME-COLD01')).find((row) => row.code === 'st1');
    expect(st1).toMatchObject({ value: 4.1, t: seconds * 1000 });
    expect(JSON.parse(st1!.extra!)).toEqual({ tempSp: 4, diff: 0.5 });
  });

  it('drops samples more than 900 s in the future', async () => {
    const client = await connect('ACME-COLD02');
    await client.publishAsync(
      deviceUpTopic('ACME-COLD02'),
      JSON.stringify({ v: 4, type: 'log', t: Date.now() + 901_000, values: { c4: 1 } }),
      { qos: 1 },
    );
    expect((await latest('ACME-COLD02')).find((row) => row.code === 'c4')).toBeUndefined();
  });

  it('rejects and counts malformed frames, changing nothing and keeping the connection', async () => {
    const client = await connect('NGB-FV01');
    const before = await latest('NGB-FV01');
    const rejected = t.app.ingest.counters.rejected;
    const bad = [
      'not json',
      '{"v":9,"type":"log","t":1,"values":{"c1":1}}',
      '{"v":4,"type":"log","t":1,"values":{"c1":"x"}}',
      '[]',
      'null',
    ];
    for (const payload of bad) await client.publishAsync(deviceUpTopic('NGB-FV01'), payload, { qos: 1 });
    expect(t.app.ingest.counters.rejected - rejected).toBe(bad.length);
    expect(await latest('NGB-FV01')).toEqual(before);
    expect(client.connected).toBe(true);
  });

  it('closes a device that publishes to another device’s topic, storing nothing', async () => {
    const client = await connect('NGB-FV02');
    const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
    client.publish(deviceUpTopic('NGB-BT01'), JSON.stringify({ v: 4, type: 'log', t: Date.now(), values: { c9: 1 } }), {
      qos: 1,
    });
    await closed;
    expect((await latest('NGB-BT01')).find((row) => row.code === 'c9')).toBeUndefined();
  });

  it.each(['#', '+/+/down', 'dev/+/down', 'dev/NGB-BT01/down', '$SYS/#', 'dev/NGB-HLT01/up'])(
    'refuses a subscription to %s',
    async (topic) => {
      const client = await connect('NGB-HLT01');
      // SUBACK 0x80 (failure): mqtt.js turns it into this error; the connection stays up.
      await expect(client.subscribeAsync(topic, { qos: 1 })).rejects.toThrow(/Subscribe error/);
      expect(client.connected).toBe(true);
      await expect(client.subscribeAsync('dev/NGB-HLT01/down', { qos: 1 })).resolves.toEqual([
        expect.objectContaining({ qos: 1 }),
      ]);
    },
  );

  it('follows connects and disconnects, graceful and ungraceful, with a connections log', async () => {
    const client = await connect('OSC-SPR01');
    await until(async () => (await deviceRow('OSC-SPR01')).is_connected === 1);
    await client.endAsync();
    await until(async () => (await deviceRow('OSC-SPR01')).is_connected === 0);

    const again = await connect('OSC-SPR01', {
      will: {
        topic: deviceUpTopic('OSC-SPR01'),
        payload: Buffer.from('{"v":4,"type":"conn","connected":false}'),
        qos: 1,
        retain: false,
      },
    });
    await until(async () => (await deviceRow('OSC-SPR01')).is_connected === 1);
    again.stream.destroy(); // a lost link, no DISCONNECT packet
    await until(async () => (await deviceRow('OSC-SPR01')).is_connected === 0);
    const device = await deviceRow('OSC-SPR01');
    expect(device.last_connection).not.toBeNull();
    expect(device.last_disconnection).toBeGreaterThanOrEqual(device.last_connection!);
    const log = await t.app.storage.db
      .selectFrom('connections')
      .select('connected')
      .where('device_id', '=', device.id)
      .orderBy('t')
      .execute();
    expect(log.map((row) => row.connected)).toEqual([1, 0, 1, 0]);
  });
});
