import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt, { type MqttClient } from 'mqtt';
import { CONTACT_SUPPLIER_FOR_PLAN, type DeviceConfigAnswer } from '@fieldlink/api/device';
import type { DeviceCommand } from '@fieldlink/api/device-frames';
import { deviceDownTopic, deviceUpTopic } from '@fieldlink/api/mqtt-topics';
import { demoFleet } from '../../seed/seed';
import { DIALECTS, signIn, startTestApp, type TestApp, letViewerOperate } from '../../../testing/test-app';
import { inBackground } from '../../../testing/test-device';
import { until } from '../../../testing/until';

describe.each(DIALECTS)('device changes on %s', (dialect) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  let passwords: Map<string, string>;
  const clients: MqttClient[] = [];
  /** ACME-BLR02, once a test has connected it. */
  let boiler: MqttClient | undefined;

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, who: string, payload?: object) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: { authorization: tokens[who]! }, payload });
  const deviceRow = (thingName: string) =>
    t.app.storage.db.selectFrom('devices').selectAll().where('thing_name', '=', thingName).executeTakeFirstOrThrow();
  const messages = (deviceId: string) =>
    t.app.storage.db
      .selectFrom('device_messages')
      .selectAll()
      .where('device_id', '=', deviceId)
      .orderBy('created_at')
      .execute();

  /** A device that answers every command OK with the value it was given, recording what it got. */
  const connectDevice = async (thingName: string, received: DeviceCommand[] = []) => {
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${t.app.broker!.port}`, {
      clientId: thingName,
      username: thingName,
      password: passwords.get(thingName),
      reconnectPeriod: 0,
    });
    clients.push(client);
    await client.subscribeAsync(deviceDownTopic(thingName), { qos: 1 });
    client.on('message', (_topic, payload) => {
      const command = JSON.parse(payload.toString()) as DeviceCommand;
      received.push(command);
      const value = 'value' in command ? command.value : undefined;
      inBackground(
        client,
        client.publishAsync(
          deviceUpTopic(thingName),
          JSON.stringify({
            v: 4,
            type: 'reply',
            id: command.id,
            result: 'OK',
            ...(value === undefined ? {} : { value }),
          }),
          { qos: 1 },
        ),
      );
    });
    await client.publishAsync(
      deviceUpTopic(thingName),
      JSON.stringify({ v: 4, type: 'conn', t: Date.now(), connected: true }),
      {
        qos: 1,
      },
    );
    await until(async () => (await deviceRow(thingName)).is_connected === 1);
    return { client, received };
  };

  beforeAll(async () => {
    t = await startTestApp(dialect, { mqtt: true, commandTimeoutMs: 1000 });
    await letViewerOperate(t.app.storage.db);
    for (const who of ['ops', 'viewer', 'water', 'admin', 'brew'])
      tokens[who] = await signIn(t.app, `${who}@fieldlink.test`);
    passwords = new Map((await demoFleet(t.app.storage.db)).map((entry) => [entry.thingName, entry.password]));
  });
  afterAll(async () => {
    for (const client of clients) await client.endAsync(true);
    await t?.close();
  });

  it('applies name, site and location, and GET /device shows them', async () => {
    const { id } = await deviceRow('ACME-BLR02');
    const location = { lat: 32.123457, lng: -96.654321, address: '1 Main St, Dallas, TX' };
    const response = await call('POST', '/device-config', 'ops', {
      id,
      props: { name: ' Boiler two ', site: 'Basement', location },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json<DeviceConfigAnswer>().device).toMatchObject({
      name: 'Boiler two',
      site: 'Basement',
      location,
    });
    const read = (await call('GET', `/device?id=${id}`, 'viewer')).json();
    expect(read).toMatchObject({ name: 'Boiler two', site: 'Basement', location, muted: false });
  });

  it('mutes and unmutes for the caller only; the answer carries the stored muted list', async () => {
    const { id } = await deviceRow('ACME-COLD01');
    const muted = (
      await call('POST', '/device-config', 'viewer', { id, props: { muteDisconnection: true } })
    ).json<DeviceConfigAnswer>();
    expect(muted.mutedDevices).toEqual(['ACME-COLD01']);
    expect(muted.device.muted).toBe(true);
    expect((await call('GET', `/device?id=${id}`, 'ops')).json().muted).toBe(false);
    const again = (
      await call('POST', '/device-config', 'viewer', { id, props: { muteDisconnection: true } })
    ).json<DeviceConfigAnswer>();
    expect(again.mutedDevices).toEqual(['ACME-COLD01']);
    const unmuted = (
      await call('POST', '/device-config', 'viewer', { id, props: { muteDisconnection: false } })
    ).json<DeviceConfigAnswer>();
    expect(unmuted.mutedDevices).toEqual([]);
  });

  it.each([
    ['a viewer renaming (no permission)', 'viewer', { name: 'Hacked', muteDisconnection: true }, 403],
    ['another account’s user', 'water', { name: 'Hacked' }, 404],
    ['a field the caller must not set', 'ops', { name: 'X', plan: 'PREMIUM' }, 400],
    ['a location without lng', 'ops', { location: { lat: 1 } }, 400],
    ['a blank name', 'ops', { name: '   ' }, 400],
    ['a register that does not exist', 'ops', { settings: { registers: { '70000': 1 } } }, 400],
    ['a setpoint write to an input', 'ops', { settings: { setpoints: { c1: 4 } } }, 400],
    [
      'one channel twice',
      'ops',
      {
        settings: {
          channels: [
            { code: 'c1', name: 'A' },
            { code: 'c1', upload: false },
          ],
        },
      },
      400,
    ],
    ['an upload interval of 0', 'ops', { settings: { uploadInterval: 0 } }, 400],
    ['an unknown time zone', 'ops', { settings: { timeDate: { tzName: 'Mars/Olympus', tzRule: 'UTC0' } } }, 400],
    ['channel settings by a viewer', 'viewer', { settings: { channels: [{ code: 'c1', name: 'Hacked' }] } }, 403],
    ['custom attributes by a viewer', 'viewer', { customAttributes: { contract: 'hacked' } }, 403],
    ['a custom attribute without a name', 'ops', { customAttributes: { ' ': 'x' } }, 400],
  ])('refuses %s and changes nothing', async (_name, who, props, status) => {
    const before = await deviceRow('ACME-COLD02');
    const users = await t.app.storage.db
      .selectFrom('users')
      .select(['email', 'muted_devices'])
      .orderBy('email')
      .execute();
    const response = await call('POST', '/device-config', who, { id: before.id, props });
    expect(response.statusCode).toBe(status);
    expect(await deviceRow('ACME-COLD02')).toEqual(before);
    expect(
      await t.app.storage.db.selectFrom('users').select(['email', 'muted_devices']).orderBy('email').execute(),
    ).toEqual(users);
    expect(await messages(before.id)).toEqual([]);
  });

  it('queues settings for an offline device, answers them as unsent and delivers them on reconnect, latest first-come', async () => {
    const { id } = await deviceRow('ACME-COLD02');
    const first = (
      await call('POST', '/device-config', 'ops', { id, props: { settings: { registers: { '5405': 3 } } } })
    ).json<DeviceConfigAnswer>();
    expect(first.unsentMessages).toEqual([
      expect.objectContaining({
        deviceId: id,
        status: 'pending',
        message: { cmd: 'writeRegister', register: 5405, value: 3 },
      }),
    ]);
    const timeDate = { tzName: 'America/Chicago', tzRule: 'CST6CDT,M3.2.0,M11.1.0' };
    const second = (
      await call('POST', '/device-config', 'ops', { id, props: { settings: { registers: { '5405': -2 }, timeDate } } })
    ).json<DeviceConfigAnswer>();
    expect(second.unsentMessages?.map((m) => m.message.cmd)).toEqual(['writeRegister', 'timeDate']);
    expect((await messages(id)).map((m) => m.status)).toEqual(['replaced', 'pending', 'pending']);

    const { received } = await connectDevice('ACME-COLD02');
    await until(async () => (await messages(id)).every((m) => m.status !== 'pending'));
    expect((await messages(id)).map((m) => m.status)).toEqual(['replaced', 'delivered', 'delivered']);
    expect(received.map((c) => c.cmd)).toEqual(['writeRegister', 'timeDate']);
    expect(received[0]).toMatchObject({ register: 5405, value: -2 });
    expect(received[1]).toMatchObject(timeDate);
  });

  it('sends settings to an online device at once and answers its replies', async () => {
    const { id } = await deviceRow('ACME-COLD02');
    const answer = (
      await call('POST', '/device-config', 'ops', { id, props: { settings: { registers: { '7': 12 } } } })
    ).json<DeviceConfigAnswer>();
    expect(answer.unsentMessages).toBeUndefined();
    expect(answer.sentMessages).toEqual([
      { message: { cmd: 'writeRegister', register: 7, value: 12 }, result: 'OK', value: 12 },
    ]);
  });

  it('POST /message: writes to an online device, queues a write for an offline one, fails a LED flash at once', async () => {
    const online = await deviceRow('ACME-COLD02');
    const sent = (
      await call('POST', '/message', 'viewer', {
        deviceId: online.id,
        message: { cmd: 'writeChannel', code: 'sp1', value: 4 },
      })
    ).json();
    expect(sent).toEqual({
      status: 'sent',
      sent: { message: { cmd: 'writeChannel', code: 'sp1', value: 4 }, result: 'OK', value: 4 },
    });
    const offline = await deviceRow('ACME-BLR01');
    const queued = (
      await call('POST', '/message', 'viewer', {
        deviceId: offline.id,
        message: { cmd: 'writeChannel', code: 'sp1', value: 5 },
      })
    ).json();
    expect(queued).toMatchObject({ status: 'queued', queued: { status: 'pending' } });
    const flash = (
      await call('POST', '/message', 'viewer', {
        deviceId: offline.id,
        message: { cmd: 'system', command: 'FLASH LED' },
      })
    ).json();
    expect(flash).toEqual({
      status: 'sent',
      sent: { message: { cmd: 'system', command: 'FLASH LED' }, result: 'TIMEOUT' },
    });
    expect(
      (await call('POST', '/message', 'water', { deviceId: offline.id, message: { cmd: 'refreshMetadata' } }))
        .statusCode,
    ).toBe(404);
    expect(
      (
        await call('POST', '/message', 'viewer', {
          deviceId: offline.id,
          message: { cmd: 'writeRegister', register: 1, value: 1 },
        })
      ).statusCode,
    ).toBe(403);
  });

  it('sends channel settings, intervals, setpoints and registers to an online device in order', async () => {
    const { id } = await deviceRow('ACME-BLR02');
    const { client, received } = await connectDevice('ACME-BLR02');
    boiler = client;
    const answer = (
      await call('POST', '/device-config', 'ops', {
        id,
        props: {
          settings: {
            channels: [{ code: 'c1', name: 'Flow temperature', alarm: true }],
            uploadInterval: 5,
            logInterval: 30,
            setpoints: { sp1: 21.5 },
            registers: { '12': 3 },
          },
        },
      })
    ).json<DeviceConfigAnswer>();
    const writeConfig = {
      cmd: 'writeConfig',
      channels: [{ code: 'c1', name: 'Flow temperature', alarm: true }],
      uploadInterval: 5,
      logInterval: 30,
    };
    expect(answer.sentMessages).toEqual([
      { message: writeConfig, result: 'OK' },
      { message: { cmd: 'writeChannel', code: 'sp1', value: 21.5 }, result: 'OK', value: 21.5 },
      { message: { cmd: 'writeRegister', register: 12, value: 3 }, result: 'OK', value: 3 },
    ]);
    expect(answer.unsentMessages).toBeUndefined();
    expect(answer.device.settings).toEqual({ unsentMessages: [] });
    expect(received.map(({ v: _v, id: _id, exp: _exp, ...command }) => command)).toEqual([
      writeConfig,
      { cmd: 'writeChannel', code: 'sp1', value: 21.5 },
      { cmd: 'writeRegister', register: 12, value: 3 },
    ]);
  });

  it('queues channel settings for an offline device; the device answer lists them as its settings', async () => {
    const { id } = await deviceRow('ACME-COLD01');
    const answer = (
      await call('POST', '/device-config', 'ops', {
        id,
        props: { settings: { channels: [{ code: 'c1', name: 'Cold room' }], uploadInterval: 10 } },
      })
    ).json<DeviceConfigAnswer>();
    const queued = expect.objectContaining({
      deviceId: id,
      status: 'pending',
      message: { cmd: 'writeConfig', channels: [{ code: 'c1', name: 'Cold room' }], uploadInterval: 10 },
    });
    expect(answer.unsentMessages).toEqual([queued]);
    expect(answer.device.settings).toEqual({ unsentMessages: [queued] });
    expect((await call('GET', `/device?id=${id}`, 'viewer')).json().settings).toEqual({ unsentMessages: [queued] });
    // The time-zone write the console attempts after such an answer is queued beside it.
    const tz = (
      await call('POST', '/message', 'ops', {
        deviceId: id,
        message: { cmd: 'timeDate', tzName: 'Australia/Brisbane', tzRule: 'AEST-10' },
      })
    ).json();
    expect(tz).toMatchObject({ status: 'queued', queued: { message: { cmd: 'timeDate' } } });
    expect((await messages(id)).map((m) => [m.status, JSON.parse(m.message).cmd])).toEqual([
      ['pending', 'writeConfig'],
      ['pending', 'timeDate'],
    ]);
  });

  it('keeps custom attributes, and answers channels with their config, latest sample and recent samples', async () => {
    const { id, thing_name: thingName } = await deviceRow('ACME-BLR02');
    const attributes = { contract: 'C-1042', floor: '3', warranty: 'until 2028' };
    const saved = (
      await call('POST', '/device-config', 'ops', { id, props: { customAttributes: attributes } })
    ).json<DeviceConfigAnswer>();
    expect(saved.device.customAttributes).toEqual(attributes);
    const client = boiler ?? (await connectDevice('ACME-BLR02')).client;
    const now = Date.now();
    const publish = (frame: object) => client.publishAsync(deviceUpTopic(thingName), JSON.stringify(frame), { qos: 1 });
    await publish({
      v: 4,
      type: 'config',
      subtype: 'device',
      expandedIoMax: 16,
      channels: [{ code: 'c1', name: 'Flow temperature', config: { units: '°C', decimals: 1 } }],
    });
    await publish({ v: 4, type: 'log', t: now - 60_000, values: { c1: 60.5 } });
    await publish({ v: 4, type: 'log', t: now, values: { c1: 61.25 } });
    await until(async () => (await deviceRow('ACME-BLR02')).expanded_io_max === 16);
    const latest = async () => (await call('GET', `/device?id=${id}&logMinutes=5`, 'viewer')).json();
    await until(
      async () => (await latest()).channels.find((c: { code: string }) => c.code === 'c1')?.latestLog?.value === 61.25,
    );
    const device = await latest();
    expect(device).toMatchObject({ expandedIoMax: 16, customAttributes: attributes, settings: { unsentMessages: [] } });
    expect(device.channels.find((c: { code: string }) => c.code === 'c1')).toEqual({
      code: 'c1',
      name: 'Flow temperature',
      config: { units: '°C', decimals: 1 },
      // No alarm is set on the channel (core entity's alarmData).
      alarmData: null,
      latestLog: { value: 61.25, t: now },
      logs: [
        { t: now - 60_000, value: 60.5 },
        { t: now, value: 61.25 },
      ],
    });
    // Without logMinutes, no samples are read.
    expect((await call('GET', `/device?id=${id}`, 'viewer')).json().channels[0].logs).toBeUndefined();
    expect((await call('GET', `/device?id=${id}&logMinutes=61`, 'viewer')).statusCode).toBe(400);
  });

  it('answers each group with its simulation flag', async () => {
    const { accounts } = (await call('GET', '/account', 'ops')).json();
    expect(accounts[0].rootGroup.simulation).toBe(false);
  });

  it('keeps the connection log, newest first', async () => {
    const { id } = await deviceRow('ACME-COLD02');
    const answer = (await call('GET', `/device/connections?deviceId=${id}`, 'viewer')).json();
    expect(answer.connections[0]).toMatchObject({ connected: true });
    expect((await call('GET', `/device/connections?deviceId=${id}`, 'water')).statusCode).toBe(404);
  });

  it('adds, changes and removes tags; a viewer may not', async () => {
    const { id } = await deviceRow('ACME-BLR01');
    const added = (await call('PUT', '/device/tag', 'ops', { deviceId: id, key: 'zone', value: 'north' })).json();
    expect(added.tags).toEqual([{ id: expect.any(String), key: 'zone', value: 'north' }]);
    const tagId = added.tags[0].id;
    const changed = (
      await call('PUT', '/device/tag', 'ops', { deviceId: id, tagId, key: 'zone', value: 'south' })
    ).json();
    expect(changed.tags).toEqual([{ id: tagId, key: 'zone', value: 'south' }]);
    expect((await call('PUT', '/device/tag', 'viewer', { deviceId: id, key: 'x', value: 'y' })).statusCode).toBe(403);
    expect((await call('PUT', '/device/tag', 'water', { deviceId: id, key: 'x', value: 'y' })).statusCode).toBe(404);
    expect((await call('GET', `/device?id=${id}`, 'viewer')).json().tags).toEqual(changed.tags);
    expect((await call('DELETE', '/device/tag', 'ops', { deviceId: id, tagId })).json()).toEqual({ tags: [] });
  });

  it('changes a plan only for the supplier’s administrator; a customer administrator is told to contact the supplier', async () => {
    const { id, plan } = await deviceRow('NGB-FV01');
    const other = plan === 'PREMIUM' ? 'FREE' : 'PREMIUM';
    const refused = await call('PUT', '/device/plan', 'brew', { id, plan: other });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(CONTACT_SUPPLIER_FOR_PLAN);
    expect((await deviceRow('NGB-FV01')).plan).toBe(plan);
    expect((await call('PUT', '/device/plan', 'ops', { id, plan: other })).statusCode).toBe(404);
    const changed = await call('PUT', '/device/plan', 'admin', { id, plan: other });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().plan).toBe(other);
  });
});
