import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import mqtt, { type MqttClient } from 'mqtt';
import { deviceDownTopic, deviceUpTopic } from '@fieldlink/api/mqtt-topics';
import { Value } from '@sinclair/typebox/value';
import { REALTIME_CLOSE, REALTIME_PATH, ServerAction } from '@fieldlink/api/realtime';
import type { DeviceCommand } from '@fieldlink/api/device-frames';
import { DIALECTS, baseUrl, signIn, startTestApp, type TestApp, letViewerOperate } from '../../testing/test-app';
import { TestSocket } from '../../testing/test-socket';
import { until } from '../../testing/until';
import { demoFleet } from '../seed/seed';
import { inBackground } from '../../testing/test-device';
import { openTokenIds } from '../security/open-tokens';

describe.each(DIALECTS)('real-time channel on %s', (dialect) => {
  let t: TestApp;
  let wsUrl: string;
  let origin: string;
  let passwords: Map<string, string>;
  const closers: (() => unknown)[] = [];

  /** A simulated device that answers commands: OK with the written value, FAIL for code c99. */
  const device = async (thingName: string, answer = true): Promise<MqttClient> => {
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${t.app.broker!.port}`, {
      clientId: thingName,
      username: thingName,
      password: passwords.get(thingName),
      reconnectPeriod: 0,
    });
    closers.push(() => client.endAsync(true));
    await client.subscribeAsync(deviceDownTopic(thingName), { qos: 1 });
    client.on('message', (_topic, payload) => {
      const command = JSON.parse(payload.toString()) as DeviceCommand;
      if (!answer) return;
      const failed = 'code' in command && command.code === 'c99';
      const value = 'value' in command ? command.value : 7;
      inBackground(
        client,
        client.publishAsync(
          deviceUpTopic(thingName),
          JSON.stringify({ v: 4, type: 'reply', id: command.id, result: failed ? 'FAIL' : 'OK', value }),
          { qos: 1 },
        ),
      );
    });
    return client;
  };
  const open = async (email: string) => {
    const socket = await TestSocket.open(wsUrl, await signIn(t.app, email), origin);
    closers.push(() => socket.socket.close());
    return socket;
  };
  const connected = (thingName: string) => async () =>
    (
      await t.app.storage.db
        .selectFrom('devices')
        .select('is_connected')
        .where('thing_name', '=', thingName)
        .executeTakeFirstOrThrow()
    ).is_connected === 1;

  beforeAll(async () => {
    t = await startTestApp(dialect, { mqtt: true, listen: true, commandTimeoutMs: 500 });
    origin = baseUrl(t.app);
    wsUrl = `${origin.replace('http', 'ws')}${REALTIME_PATH}`;
    passwords = new Map((await demoFleet(t.app.storage.db)).map((entry) => [entry.thingName, entry.password]));
    await letViewerOperate(t.app.storage.db);
  });
  afterAll(async () => {
    for (const close of closers) await close();
    await t?.close();
  });

  // The Origin is the server's own but for one part: scheme, host or port (SECURITY.md 4).
  const otherPort = (own: string) => {
    const url = new URL(own);
    url.port = String(Number(url.port) === 65535 ? 1 : Number(url.port) + 1);
    return url.origin;
  };
  it.each([
    ['no token', null, (own: string) => own, 'HTTP 401'],
    ['a forged token', 'abc.def.ghi', (own: string) => own, 'HTTP 401'],
    ['a foreign Origin', 'valid', () => 'https://evil.example', 'HTTP 403'],
    ['its own host on another port', 'valid', otherPort, 'HTTP 403'],
    ['its own host and port over another scheme', 'valid', (own: string) => own.replace('http:', 'https:'), 'HTTP 403'],
    ['an opaque Origin (sandboxed frame, file)', 'valid', () => 'null', 'HTTP 403'],
  ])('refuses the handshake with %s', async (_name, token, originFor, error) => {
    const jwt = token === 'valid' ? await signIn(t.app, 'viewer@fieldlink.test') : token;
    await expect(TestSocket.open(wsUrl, jwt, originFor(origin))).rejects.toThrow(error);
  });

  it('accepts its own origin and PUBLIC_URL, the console behind a TLS proxy', async () => {
    const jwt = await signIn(t.app, 'viewer@fieldlink.test');
    for (const allowed of [origin, t.config.publicUrl]) {
      const socket = await TestSocket.open(wsUrl, jwt, allowed);
      socket.socket.close();
    }
  });

  it('delivers a device value to a subscribed browser, and only to it', async () => {
    const viewer = await open('viewer@fieldlink.test');
    const other = await open('water@fieldlink.test');
    expect((await viewer.request({ type: 'server/subscribeDevices', thingNames: ['ACME-BLR01'] })).ok).toBe(true);
    const client = await device('ACME-BLR01');
    await client.publishAsync(
      deviceUpTopic('ACME-BLR01'),
      JSON.stringify({ v: 4, type: 'log', t: Date.now(), values: { c1: 42.5 } }),
      { qos: 1 },
    );
    const logs = await viewer.waitFor((action) => action.type === 'server/newRawLogs');
    expect(logs).toMatchObject({ thingName: 'ACME-BLR01', logs: { c1: [{ value: 42.5 }] } });
    expect(other.received.filter((action) => action.type === 'server/newRawLogs')).toHaveLength(0);
  });

  it('refuses a subscription to another account’s device with an error and sends it nothing', async () => {
    const water = await open('water@fieldlink.test');
    const reply = await water.request({ type: 'server/subscribeDevices', thingNames: ['ACME-COLD01'] });
    expect(reply).toMatchObject({ ok: false, error: 'Device not found.' });
    // The device's own account watches it: once that browser has the value, the hub has sent it to all.
    const owner = await open('ops@fieldlink.test');
    expect((await owner.request({ type: 'server/subscribeDevices', thingNames: ['ACME-COLD01'] })).ok).toBe(true);
    const client = await device('ACME-COLD01');
    await client.publishAsync(
      deviceUpTopic('ACME-COLD01'),
      JSON.stringify({ v: 4, type: 'log', t: Date.now(), values: { c1: 1 } }),
      { qos: 1 },
    );
    await owner.waitFor((action) => action.type === 'server/newRawLogs' && action.thingName === 'ACME-COLD01');
    await water.settle();
    expect(water.received.filter((action) => action.type !== 'server/reply')).toHaveLength(0);
  });

  // A browser keeps a device's live state after it stops watching it: watched again, the state must
  // be renewed, or a device that dropped meanwhile shows online until it changes again.
  it('sends the current state of each newly watched device before the subscription’s reply', async () => {
    const water = await open('water@fieldlink.test');
    const thingName = 'FTW-BORE01';
    const client = await device(thingName);
    await until(connected(thingName));
    /** The actions a subscription sent before its reply, and the reply. */
    const subscribe = async (socket: TestSocket, thingNames: string[]) => {
      const from = socket.received.length;
      const reply = await socket.request({ type: 'server/subscribeDevices', thingNames });
      return { reply, before: socket.received.slice(from, socket.received.indexOf(reply)) };
    };
    const first = await subscribe(water, [thingName]);
    expect(first.reply).toMatchObject({ ok: true });
    expect(first.before).toContainEqual(
      expect.objectContaining({ type: 'server/connectionState', thingName, isConnected: true }),
    );
    // Every part in the contract's shape, or the browser would ignore it.
    for (const action of first.before) expect(Value.Check(ServerAction, action)).toBe(true);
    expect(first.before.map((action) => action.type)).toEqual(
      expect.arrayContaining(['server/connectionState', 'server/deviceConfig']),
    );
    // Watched twice: nothing again.
    expect((await subscribe(water, [thingName])).before).toEqual([]);

    expect((await water.request({ type: 'server/unsubscribeDevices', thingNames: [thingName] })).ok).toBe(true);
    await client.endAsync(true);
    await until(async () => !(await connected(thingName)()));
    const again = await subscribe(water, [thingName]);
    expect(again.before).toContainEqual(
      expect.objectContaining({ type: 'server/connectionState', thingName, isConnected: false }),
    );
    // A device the caller may not see: refused, and nothing of it sent.
    const refused = await subscribe(water, ['FTW-TANK01', 'ACME-COLD02']);
    expect(refused.reply).toMatchObject({ ok: false, error: 'Device not found.' });
    expect(refused.before).toEqual([]);
  });

  it('answers an invalid message with a clear error, and keeps the socket', async () => {
    const viewer = await open('viewer@fieldlink.test');
    const reply = await viewer.request({ type: 'server/writeChannel', thingName: 'ACME-BLR01', code: 'sp1' });
    expect(reply.ok).toBe(false);
    expect(reply.error).toMatch(/Invalid message/);
    viewer.socket.send('not json');
    await viewer.waitFor((action) => action.type === 'server/error');
    expect(viewer.socket.readyState).toBe(WebSocket.OPEN);
  });

  // One schema for the time-zone command and its REST twin (issue 34 item 11): what `POST /message`
  // refuses, the socket refuses too, before any device is looked up.
  it('refuses a time-zone command its REST twin refuses', async () => {
    const token = await signIn(t.app, 'admin@fieldlink.test');
    const admin = await TestSocket.open(wsUrl, token, origin);
    closers.push(() => admin.socket.close());
    for (const [tzName, tzRule] of [
      ['\u0000', 'UTC0'],
      ['Europe/Berlin\u0000', 'CET-1'],
      ['Not a zone!', 'UTC0'],
      ['Europe/Berlin', '\u0000'],
      ['Europe/Berlin', ''],
    ]) {
      const rest = await t.app.inject({
        method: 'POST',
        url: '/api/v1/message',
        headers: { authorization: token },
        payload: { deviceId: 'any-device', message: { cmd: 'timeDate', tzName, tzRule } },
      });
      expect(rest.statusCode, JSON.stringify({ tzName, tzRule })).toBe(400);
      const reply = await admin.request({ type: 'server/timeDate', thingName: 'ACME-BLR01', tzName, tzRule });
      expect(reply, JSON.stringify({ tzName, tzRule })).toMatchObject({
        ok: false,
        error: expect.stringMatching(/^Invalid message/),
      });
    }
  });

  // The zone is one the console offers (isKnownTimeZone), not only one made of the right characters.
  it('refuses a time zone nobody knows, over the socket as over REST', async () => {
    const token = await signIn(t.app, 'admin@fieldlink.test');
    const admin = await TestSocket.open(wsUrl, token, origin);
    closers.push(() => admin.socket.close());
    const [tzName, tzRule] = ['Mars/Olympus_Mons', 'UTC0'];
    const rest = await t.app.inject({
      method: 'POST',
      url: '/api/v1/message',
      headers: { authorization: token },
      payload: { deviceId: 'any-device', message: { cmd: 'timeDate', tzName, tzRule } },
    });
    expect(rest.statusCode).toBe(400);
    expect(rest.json()).toMatchObject({ message: 'timeZone: Choose a time zone.' });
    expect(await admin.request({ type: 'server/timeDate', thingName: 'ACME-BLR01', tzName, tzRule })).toMatchObject({
      ok: false,
      error: 'timeZone: Choose a time zone.',
    });
  });

  it('writes a channel through the device and reports its answer, "Command Failed." and the timeout', async () => {
    await device('ACME-BLR02');
    await until(connected('ACME-BLR02'));
    const viewer = await open('viewer@fieldlink.test');
    await viewer.request({ type: 'server/subscribeDevices', thingNames: ['ACME-BLR02'] });
    expect(
      await viewer.request({ type: 'server/writeChannel', thingName: 'ACME-BLR02', code: 'sp1', value: 55 }),
    ).toMatchObject({ ok: true, value: 55 });
    expect(await viewer.waitFor((action) => action.type === 'server/setpointStatus')).toMatchObject({
      code: 'sp1',
      state: 'on',
      value: 55,
    });
    expect(
      await viewer.request({ type: 'server/writeChannel', thingName: 'ACME-BLR02', code: 'c99', value: 1 }),
    ).toMatchObject({
      ok: false,
      error: 'Command Failed.',
    });
    await device('ACME-COLD02', false);
    await until(connected('ACME-COLD02'));
    expect(
      await viewer.request({ type: 'server/systemCommand', thingName: 'ACME-COLD02', command: 'FLASH LED' }),
    ).toMatchObject({
      ok: false,
      error: 'Timeout when waiting for response.',
    });
  });

  it('fails a command to an offline device at once with the timeout message', async () => {
    const viewer = await open('viewer@fieldlink.test');
    const brew = await open('brew@fieldlink.test');
    expect(
      await viewer
        .request({ type: 'server/readChannel', thingName: 'ACME-BLR02', code: 'c1' })
        .then((reply) => reply.ok),
    ).toBeDefined();
    const offline = await viewer.request({ type: 'server/writeChannel', thingName: 'NGB-FV01', code: 'sp1', value: 1 });
    // NGB-FV01 is another account's device for the viewer: not found, not "offline".
    expect(offline).toMatchObject({ ok: false, error: 'Device not found.' });
    expect(
      await brew.request({ type: 'server/writeChannel', thingName: 'NGB-FV01', code: 'sp1', value: 1 }),
    ).toMatchObject({
      ok: false,
      error: 'Timeout when waiting for response.',
    });
    // At once: refused before it was sent, so no answer was waited for. A command that is sent is in
    // the audit trail before it is published (CommandService.send): one to a device online is, the
    // one to the offline device is not.
    await device('NGB-FV02');
    await until(connected('NGB-FV02'));
    expect(
      await brew.request({ type: 'server/writeChannel', thingName: 'NGB-FV02', code: 'sp1', value: 1 }),
    ).toMatchObject({ ok: true });
    const commandsTo = async (thingName: string) =>
      (
        await t.app.storage.db
          .selectFrom('audit_log')
          .innerJoin('devices', 'devices.id', 'audit_log.device_id')
          .select('audit_log.id')
          .where('audit_log.action', '=', 'device.command')
          .where('devices.thing_name', '=', thingName)
          .execute()
      ).length;
    expect(await commandsTo('NGB-FV02')).toBe(1);
    expect(await commandsTo('NGB-FV01')).toBe(0);
  });

  it('closes the sockets of a token that signs out', async () => {
    const jwt = await signIn(t.app, 'viewer@fieldlink.test');
    const socket = await TestSocket.open(wsUrl, jwt, origin);
    const closed = new Promise<number>((resolve) => socket.socket.once('close', (code) => resolve(code)));
    await t.app.inject({ method: 'POST', url: '/api/v1/signout', headers: { authorization: jwt } });
    expect(await closed).toBe(4401);
  });

  it('closes, at its next session check, a socket whose session ended or API token went unseen by it', async () => {
    const hub = t.app.hub;
    const db = t.app.storage.db;
    const jwt = await signIn(t.app, 'viewer@fieldlink.test');
    const jti = (JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as { jti: string }).jti;
    const made = await t.app.inject({
      method: 'POST',
      url: '/api/v1/api-tokens',
      headers: { authorization: jwt },
      payload: { name: 'wall display' },
    });
    expect(made.statusCode, made.body).toBe(200);
    const apiToken = made.json<{ id: string; token: string }>();
    const bySession = await open('viewer@fieldlink.test');
    const withJwt = await TestSocket.open(wsUrl, jwt, origin);
    const withApiToken = await TestSocket.open(wsUrl, apiToken.token, origin);
    closers.push(
      () => withJwt.socket.close(),
      () => withApiToken.socket.close(),
    );
    const closeCode = (socket: TestSocket) =>
      new Promise<number>((resolve) => socket.socket.once('close', (code) => resolve(code)));
    const closed = [closeCode(withJwt), closeCode(withApiToken)];
    // Nothing changed: the check closes nothing.
    expect(await hub.checkSessions()).toEqual({ closed: 0, dropped: 0 });
    // As if the cluster's access messages were lost: the rows change, no message comes.
    await db.updateTable('sessions').set({ ended_at: Date.now() }).where('id', '=', jti).execute();
    await db.deleteFrom('api_tokens').where('id', '=', apiToken.id).execute();
    expect(await hub.checkSessions()).toEqual({ closed: 2, dropped: 0 });
    expect(await Promise.all(closed)).toEqual([4401, 4401]);
    expect(bySession.socket.readyState).toBe(WebSocket.OPEN);
    // A token past its expiry is no longer open, whatever its session says.
    const claims = { userId: 'u', jti: 'j', tokenVersion: 0, expiresAt: 1_000 };
    expect(await openTokenIds(db, [{ claims, apiToken: false }], 1_000)).toEqual(new Set());
  });

  it('closes, at its next check, a socket whose user’s access changed unseen, and stops a watch on a device moved away', async () => {
    const hub = t.app.hub;
    const db = t.app.storage.db;
    const owner = await open('ops@fieldlink.test');
    expect(
      (await owner.request({ type: 'server/subscribeDevices', thingNames: ['ACME-COLD01', 'ACME-COLD02'] })).ok,
    ).toBe(true);
    const water = await open('water@fieldlink.test');
    const waterClosed = new Promise<number>((resolve) => water.socket.once('close', (code) => resolve(code)));
    const userId = async (email: string) =>
      (await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
    const waterPoint = await db
      .selectFrom('attachment_points')
      .selectAll()
      .where('user_id', '=', await userId('water@fieldlink.test'))
      .orderBy('ordinal')
      .executeTakeFirstOrThrow();
    const waterGroup = await db
      .selectFrom('groups')
      .select('id')
      .where('path', '=', waterPoint.path)
      .executeTakeFirstOrThrow();
    const cold = await db
      .selectFrom('devices')
      .select(['id', 'group_id'])
      .where('thing_name', '=', 'ACME-COLD01')
      .executeTakeFirstOrThrow();
    // As if the cluster's access messages were lost: the rows change, no message comes.
    await db.updateTable('devices').set({ group_id: waterGroup.id }).where('id', '=', cold.id).execute();
    await db
      .updateTable('attachment_points')
      .set({ permissions: JSON.stringify([]) })
      .where('user_id', '=', waterPoint.user_id)
      .where('ordinal', '=', waterPoint.ordinal)
      .execute();
    try {
      // Sockets of the tests before may be among them (water@'s, watchers of ACME-COLD01).
      const first = await hub.checkSessions();
      expect(first.closed).toBeGreaterThanOrEqual(1);
      expect(first.dropped).toBeGreaterThanOrEqual(1);
      expect(await waterClosed).toBe(REALTIME_CLOSE.accessChanged);
      const gone = (thingName: string) => (action: ServerAction) =>
        action.type === 'server/error' && action.message === `Device ${thingName} is no longer available.`;
      expect(await owner.waitFor(gone('ACME-COLD01'))).toBeDefined();
      // The owner's socket stays, and so does its watch on the device that did not move.
      await hub.checkSessions();
      await owner.settle();
      expect(owner.socket.readyState).toBe(WebSocket.OPEN);
      expect(owner.received.filter(gone('ACME-COLD02'))).toHaveLength(0);
      expect(owner.received.filter(gone('ACME-COLD01'))).toHaveLength(1);
    } finally {
      await db.updateTable('devices').set({ group_id: cold.group_id }).where('id', '=', cold.id).execute();
      await db
        .updateTable('attachment_points')
        .set({ permissions: waterPoint.permissions })
        .where('user_id', '=', waterPoint.user_id)
        .where('ordinal', '=', waterPoint.ordinal)
        .execute();
    }
  });
});
