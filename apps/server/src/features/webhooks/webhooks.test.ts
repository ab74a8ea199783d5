import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt, { type MqttClient } from 'mqtt';
import { deviceUpTopic } from '@fieldlink/api/mqtt-topics';
import type { AlarmRecord } from '@fieldlink/api/alarms';
import type { AuditLogAnswer } from '@fieldlink/api/audit';
import type {
  CreatedWebhook,
  Webhook,
  WebhookDeliveriesAnswer,
  WebhookDelivery,
  WebhookListAnswer,
} from '@fieldlink/api/webhooks';
import { WEBHOOK_RETRY_WINDOW_MS } from '@fieldlink/domain/webhooks';
import { demoFleet } from '../../seed/seed';
import { DIALECTS, signIn, startTestApp, type TestApp } from '../../../testing/test-app';
import { until } from '../../../testing/until';
import { connectTestDevice } from '../../../testing/test-device';
import { startWebhookReceiver, type WebhookReceiver } from '../../../testing/webhook-receiver';

describe.each(DIALECTS)('webhooks on %s', (dialect) => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  // The app's clock runs with real time (a device's disconnection is stamped with it), moved on by `skip`.
  let skip = 0;
  const now = () => Date.now() + skip;
  /** Moves the app's clock on to `at` at least. */
  const moveTo = (at: number) => {
    skip += Math.max(0, at - now());
  };
  let passwords: Map<string, string>;
  let pumpId: string;
  let sprayAccount: string;
  let waterAccount: string;
  const clients: MqttClient[] = [];
  const tokens = new Map<string, string>();
  const base = Date.now() - 60_000;

  const call = async (
    method: 'GET' | 'PUT' | 'POST' | 'DELETE',
    url: string,
    who: string,
    options: { body?: object; query?: Record<string, string> } = {},
  ) => {
    if (!tokens.has(who)) tokens.set(who, await signIn(t.app, `${who}@fieldlink.test`));
    return t.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: { authorization: tokens.get(who)! },
      ...(options.query && { query: options.query }),
      ...(options.body && { payload: options.body }),
    });
  };
  const webhookRows = () => t.app.storage.db.selectFrom('webhooks').selectAll().orderBy('id').execute();
  const accountOfDevice = async (thingName: string) =>
    (
      await t.app.storage.db
        .selectFrom('devices')
        .select(['id', 'account_id'])
        .where('thing_name', '=', thingName)
        .executeTakeFirstOrThrow()
    ).account_id;
  const connect = async (thingName: string) => {
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${t.app.broker!.port}`, {
      clientId: thingName,
      username: thingName,
      password: passwords.get(thingName),
      reconnectPeriod: 0,
    });
    clients.push(client);
    return client;
  };
  const publish = async (client: MqttClient, samples: [number, number][]) => {
    for (const [seconds, value] of samples) {
      const frame = { v: 4, type: 'log', t: base + seconds * 1000, values: { c1: value } };
      await client.publishAsync(deviceUpTopic('OSC-PUMP01'), JSON.stringify(frame), { qos: 1 });
      await t.app.alarms.idle();
    }
  };
  const create = async (path: string, events: string[], who = 'admin', accountId = sprayAccount) => {
    const response = await call('POST', '/webhooks', who, { body: { accountId, url: receiver.url(path), events } });
    expect(response.statusCode, response.body).toBe(200);
    const created = response.json() as CreatedWebhook;
    receiver.expectSecret(path, created.secret);
    return created;
  };
  const deliveriesOf = async (id: string) => {
    const response = await call('GET', '/webhooks/deliveries', 'admin', { query: { id } });
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as WebhookDeliveriesAnswer).deliveries;
  };

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    t = await startTestApp(dialect, {
      mqtt: true,
      now,
      env: { FIELDLINK_WEBHOOK_ALLOW_PRIVATE: '1', FIELDLINK_DISCONNECT_ALERT_SECONDS: '0' },
    });
    passwords = new Map((await demoFleet(t.app.storage.db)).map((device) => [device.thingName, device.password]));
    sprayAccount = await accountOfDevice('OSC-PUMP01');
    pumpId = (
      await t.app.storage.db
        .selectFrom('devices')
        .select('id')
        .where('thing_name', '=', 'OSC-PUMP01')
        .executeTakeFirstOrThrow()
    ).id;
    waterAccount = (
      await t.app.storage.db
        .selectFrom('attachment_points')
        .innerJoin('users', 'users.id', 'attachment_points.user_id')
        .select('attachment_points.account_id')
        .where('users.email', '=', 'water@fieldlink.test')
        .executeTakeFirstOrThrow()
    ).account_id;
  }, 180_000);
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.endAsync(true).catch(() => undefined)));
    await t?.close();
    await receiver?.close();
  });

  it('adds, lists, changes and deletes a webhook, showing the secret once and auditing each change', async () => {
    const created = await create('/hook/crud', ['alarm.raised']);
    expect(created).toMatchObject({ accountId: sprayAccount, events: ['alarm.raised'], format: 'json' });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);

    const listed = (await call('GET', '/webhooks', 'admin', { query: { accountId: sprayAccount } })).json();
    const { secret: _secret, ...shown } = created;
    expect((listed as WebhookListAnswer).webhooks).toEqual([shown]);
    expect(JSON.stringify(listed)).not.toContain(created.secret);

    skip += 1000;
    const put = await call('PUT', '/webhooks', 'admin', {
      query: { id: created.id },
      body: { events: ['alarm.raised', 'alarm.cleared'], format: 'slack' },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json() as Webhook).toMatchObject({ events: ['alarm.raised', 'alarm.cleared'], format: 'slack' });
    expect((put.json() as Webhook).updatedAt).toBeGreaterThan(created.createdAt);

    const removed = await call('DELETE', '/webhooks', 'admin', { query: { id: created.id } });
    expect(removed.statusCode).toBe(200);
    expect((await webhookRows()).map((row) => row.id)).not.toContain(created.id);
    expect((await call('DELETE', '/webhooks', 'admin', { query: { id: created.id } })).statusCode).toBe(404);

    const trail = (
      await call('GET', '/audit-log', 'admin', { query: { accountId: sprayAccount, action: 'webhook.add' } })
    ).json() as AuditLogAnswer;
    expect(trail.entries.map((entry) => entry.target?.id)).toContain(created.id);
    for (const action of ['webhook.add', 'webhook.update', 'webhook.delete']) {
      const entries = (
        (
          await call('GET', '/audit-log', 'admin', { query: { accountId: sprayAccount, action } })
        ).json() as AuditLogAnswer
      ).entries.filter((entry) => entry.target?.id === created.id);
      expect(entries, action).toHaveLength(1);
      expect(JSON.stringify(entries)).not.toContain(created.secret);
    }
  });

  it('refuses callers without the right, other accounts and bad input, changing nothing', async () => {
    const kept = await create('/hook/kept', ['alarm.raised']);
    const before = await webhookRows();
    const body = { accountId: sprayAccount, url: receiver.url('/hook/x'), events: ['alarm.raised'] };
    const cases: [
      string,
      'POST' | 'PUT' | 'DELETE' | 'GET',
      string,
      object | undefined,
      Record<string, string> | undefined,
      number,
      RegExp,
    ][] = [
      ['spray', 'POST', '/webhooks', body, undefined, 403, /permission/],
      ['water', 'POST', '/webhooks', body, undefined, 404, /Account not found/],
      ['water', 'GET', '/webhooks', undefined, { accountId: sprayAccount }, 404, /Account not found/],
      ['water', 'PUT', '/webhooks', { events: ['alarm.cleared'] }, { id: kept.id }, 404, /Webhook not found/],
      ['water', 'DELETE', '/webhooks', undefined, { id: kept.id }, 404, /Webhook not found/],
      ['water', 'POST', '/webhooks/test', undefined, { id: kept.id }, 404, /Webhook not found/],
      ['water', 'GET', '/webhooks/deliveries', undefined, { id: kept.id }, 404, /Webhook not found/],
      ['spray', 'DELETE', '/webhooks', undefined, { id: kept.id }, 403, /permission/],
      ['admin', 'POST', '/webhooks', { ...body, events: [] }, undefined, 400, /events/],
      ['admin', 'POST', '/webhooks', { ...body, events: ['alarm.exploded'] }, undefined, 400, /events/],
      ['admin', 'POST', '/webhooks', { ...body, events: ['alarm.raised', 'alarm.raised'] }, undefined, 400, /events/],
      ['admin', 'POST', '/webhooks', { ...body, format: 'xml' }, undefined, 400, /format/],
      ['admin', 'POST', '/webhooks', { ...body, secret: 'mine' }, undefined, 400, /additional/],
      ['admin', 'POST', '/webhooks', { ...body, url: 'ftp://example.com/' }, undefined, 400, /https:\/\/ or http:\/\//],
      [
        'admin',
        'POST',
        '/webhooks',
        { ...body, url: 'http://user:pw@127.0.0.1/' },
        undefined,
        400,
        /user name or password/,
      ],
      ['admin', 'PUT', '/webhooks', {}, { id: kept.id }, 400, /properties/],
      ['admin', 'PUT', '/webhooks', { url: 'not a url' }, { id: kept.id }, 400, /not a valid absolute URL/],
    ];
    for (const [who, method, url, payload, query, status, message] of cases) {
      const response = await call(method, url, who, { body: payload, query });
      expect(response.statusCode, `${who} ${method} ${url} ${JSON.stringify(payload)}`).toBe(status);
      expect((response.json() as { message: string }).message).toMatch(message);
    }
    expect(await webhookRows()).toEqual(before);
    expect(
      await t.app.storage.db.selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', kept.id).execute(),
    ).toEqual([]);
    expect(waterAccount).not.toBe(sprayAccount);
  });

  it('sends a signed test event and lists it with its status and response time', async () => {
    const hook = await create('/hook/test', ['report.ready']);
    const response = await call('POST', '/webhooks/test', 'admin', { query: { id: hook.id } });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json() as WebhookDelivery).toMatchObject({
      event: 'webhook.test',
      state: 'delivered',
      status: 204,
      attempts: 1,
    });
    const [request] = receiver.of('/hook/test', 'webhook.test');
    expect(request).toBeDefined();
    expect(request!.signatureValid).toBe(true);
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.headers['x-fieldlink-event-id']).toBe(request!.body.id);
    expect(request!.body).toMatchObject({ type: 'webhook.test', accountId: sprayAccount });
    expect(new Date(request!.body.time).toISOString()).toBe(request!.body.time);
    const [listed] = await deliveriesOf(hook.id);
    expect(listed).toMatchObject({ event: 'webhook.test', state: 'delivered', status: 204, attempts: 1 });
    expect(listed!.responseMs).toBeGreaterThanOrEqual(0);
    // The secret of another webhook does not verify it: the check can fail.
    receiver.expectSecret('/hook/test', 'whsec_wrong');
    await call('POST', '/webhooks/test', 'admin', { query: { id: hook.id } });
    expect(receiver.of('/hook/test', 'webhook.test').map((entry) => entry.signatureValid)).toEqual([true, false]);
  });

  it('delivers alarm raised, acknowledged and cleared, and the disconnection and return of a device', async () => {
    const path = '/hook/events';
    const hook = await create(path, [
      'alarm.raised',
      'alarm.acknowledged',
      'alarm.cleared',
      'device.disconnected',
      'device.connected',
    ]);
    // A webhook of an account that does not hold the pump hears nothing of it.
    const other = await create('/hook/water', ['alarm.raised', 'device.disconnected'], 'water', waterAccount);
    const alarm = {
      deviceId: pumpId,
      code: 'c1',
      enabled: true,
      high: 50,
      low: null,
      hysteresis: 5,
      delaySeconds: 0,
      severity: 'CRITICAL',
    };
    expect((await call('PUT', '/device/alarm', 'spray', { body: { alarm } })).statusCode).toBe(200);
    const pump = await connect('OSC-PUMP01');
    await publish(pump, [
      [0, 40],
      [1, 60],
    ]);
    await until(() => receiver.of(path, 'alarm.raised').length === 1);
    const raised = receiver.of(path, 'alarm.raised')[0]!;
    expect(raised.signatureValid).toBe(true);
    const record = raised.body.data.alarm as AlarmRecord;
    expect(record).toMatchObject({ thingName: 'OSC-PUMP01', code: 'c1', value: 60, severity: 'CRITICAL' });
    expect(raised.body.summary).toMatch(/OSC-PUMP01.*above 50/);

    expect((await call('POST', '/alarms/acknowledge', 'spray', { body: { ids: [record.id] } })).statusCode).toBe(200);
    await until(() => receiver.of(path, 'alarm.acknowledged').length === 1);
    expect((receiver.of(path, 'alarm.acknowledged')[0]!.body.data.alarm as AlarmRecord).acknowledgedBy).toBe(
      'spray@fieldlink.test',
    );

    await publish(pump, [[2, 30]]);
    await until(() => receiver.of(path, 'alarm.cleared').length === 1);
    expect((receiver.of(path, 'alarm.cleared')[0]!.body.data.alarm as AlarmRecord).clearedValue).toBe(30);

    await pump.endAsync(true);
    await until(() => receiver.of(path, 'device.disconnected').length === 1);
    expect(receiver.of(path, 'device.disconnected')[0]!.body.data).toMatchObject({
      device: { thingName: 'OSC-PUMP01' },
    });
    await connect('OSC-PUMP01');
    await until(() => receiver.of(path, 'device.connected').length === 1);

    const events = receiver.received.filter((entry) => entry.path === path);
    expect(events.every((entry) => entry.signatureValid)).toBe(true);
    expect(new Set(events.map((entry) => entry.body.id)).size).toBe(events.length);
    expect(receiver.received.filter((entry) => entry.path === '/hook/water')).toEqual([]);
    // The receiver answers before the server records the delivery: wait for the five records.
    await until(async () => {
      const rows = await deliveriesOf(hook.id);
      return rows.length === 5 && rows.every((delivery) => delivery.state !== 'pending');
    });
    const listed = await deliveriesOf(hook.id);
    expect(listed.map((delivery) => delivery.event).sort()).toEqual([
      'alarm.acknowledged',
      'alarm.cleared',
      'alarm.raised',
      'device.connected',
      'device.disconnected',
    ]);
    expect(listed.every((delivery) => delivery.state === 'delivered' && delivery.status === 204)).toBe(true);
    expect(other.id).toBeTruthy();
  });

  it('tells the webhooks of the accounts above of updates that finished or failed, and of a report ready', async () => {
    const supplier = (
      await t.app.storage.db
        .selectFrom('attachment_points')
        .innerJoin('users', 'users.id', 'attachment_points.user_id')
        .select('attachment_points.account_id')
        .where('users.email', '=', 'admin@fieldlink.test')
        .executeTakeFirstOrThrow()
    ).account_id;
    const path = '/hook/supplier';
    await create(path, ['ota.finished', 'ota.failed', 'report.ready'], 'admin', supplier);
    const devices = new Map<string, string>();
    for (const [thingName, outcome] of [
      ['ACME-BLR01', 'succeeded'],
      ['ACME-BLR02', 'failed'],
    ] as const) {
      const { client, publish: send } = await connectTestDevice(
        t.app,
        thingName,
        passwords.get(thingName),
        (command, reply) => {
          void (async () => {
            await reply({ v: 4, type: 'reply', id: command.id, result: 'OK' });
            if (command.cmd !== 'otaUpdate') return;
            await reply(
              outcome === 'failed'
                ? { v: 4, type: 'ota', updateId: command.updateId, state: 'failed', error: 'Checksum mismatch' }
                : { v: 4, type: 'ota', updateId: command.updateId, state: 'succeeded', fw: '9.9.9' },
            );
          })();
        },
      );
      clients.push(client);
      await send({ v: 4, type: 'conn', t: Date.now(), connected: true });
      // A sample in the report's period (QoS 1: stored once acknowledged).
      await send({ v: 4, type: 'log', t: now() - 60_000, values: { c1: 21.5 } });
      const row = await t.app.storage.db
        .selectFrom('devices')
        .select(['id', 'is_connected'])
        .where('thing_name', '=', thingName)
        .executeTakeFirstOrThrow();
      devices.set(thingName, row.id);
    }
    await until(async () =>
      (
        await t.app.storage.db
          .selectFrom('devices')
          .select('is_connected')
          .where('id', 'in', [...devices.values()])
          .execute()
      ).every((row) => row.is_connected === 1),
    );
    const submitted = await call('POST', '/devices/ota-submit', 'admin', {
      body: { deviceIds: [...devices.values()], updateCommand: 'firmware 9.9.9', skipApproval: true },
    });
    expect(submitted.statusCode, submitted.body).toBe(200);
    await until(async () => {
      return receiver.of(path, 'ota.finished').length === 1 && receiver.of(path, 'ota.failed').length === 1;
    });
    expect(receiver.of(path, 'ota.finished')[0]!.body.data).toMatchObject({
      device: { thingName: 'ACME-BLR01' },
      update: { state: 'SUCCEEDED', fw: '9.9.9' },
    });
    expect(receiver.of(path, 'ota.failed')[0]!.body).toMatchObject({
      summary: expect.stringMatching(/ACME-BLR02.*Checksum mismatch/),
      data: { device: { thingName: 'ACME-BLR02' }, update: { state: 'FAILED', error: 'Checksum mismatch' } },
    });

    const report = await call('POST', '/report', 'admin', {
      body: {
        accountId: supplier,
        name: 'Boiler week',
        props: {
          format: 'CSV',
          visibility: 'CREATOR_ONLY',
          access: { type: 'CREATOR_ONLY', groupIds: [], users: [] },
          notifyAudience: 'NOBODY',
          notifyUsers: [],
          devices: [{ deviceId: devices.get('ACME-BLR01'), codes: ['c1'] }],
          interval: 'MINUTES_15',
          start: now() - 86_400_000,
          end: now(),
        },
      },
    });
    expect(report.statusCode, report.body).toBe(200);
    await until(() => receiver.of(path, 'report.ready').length === 1, 60_000);
    expect(receiver.of(path, 'report.ready')[0]!.body).toMatchObject({
      summary: 'The report "Boiler week" is ready.',
      data: { report: { id: (report.json() as { id: string }).id, name: 'Boiler week' } },
    });
    expect(receiver.received.filter((entry) => entry.path === path).every((entry) => entry.signatureValid)).toBe(true);
  }, 120_000);

  it('tries a failed delivery again with growing pauses, then gives up after 24 hours', async () => {
    const path = '/hook/flaky';
    const hook = await create(path, ['alarm.raised', 'alarm.cleared']);
    receiver.answerWith((request) => (request.path === path && request.attempt < 3 ? 503 : 204));
    const pump = clients.find((client) => client.options.clientId === 'OSC-PUMP01' && client.connected)!;
    await publish(pump, [[10, 70]]);
    await until(async () => (await deliveriesOf(hook.id)).some((delivery) => delivery.attempts === 1));
    let [delivery] = await deliveriesOf(hook.id);
    expect(delivery).toMatchObject({ state: 'pending', attempts: 1, status: 503, detail: 'status 503' });
    expect(delivery!.nextAttemptAt! - delivery!.lastAttemptAt!).toBeGreaterThanOrEqual(10_000);
    expect(delivery!.nextAttemptAt! - delivery!.lastAttemptAt!).toBeLessThan(15_000);

    // Nothing is tried before its time; then the second attempt (503), 20 s later the third (204).
    await t.app.jobs.runDue();
    expect(receiver.of(path, 'alarm.raised')).toHaveLength(1);
    const attemptAt = async (at: number, attempts: number) => {
      moveTo(at);
      t.app.jobs.nudge();
      await until(async () => (await deliveriesOf(hook.id))[0]!.attempts === attempts);
      return (await deliveriesOf(hook.id))[0]!;
    };
    delivery = await attemptAt(delivery!.nextAttemptAt!, 2);
    expect(delivery).toMatchObject({ state: 'pending', attempts: 2, status: 503 });
    expect(delivery.nextAttemptAt! - delivery.lastAttemptAt!).toBeGreaterThanOrEqual(20_000);
    expect(delivery.nextAttemptAt! - delivery.lastAttemptAt!).toBeLessThan(25_000);
    delivery = await attemptAt(delivery.nextAttemptAt!, 3);
    expect(delivery).toMatchObject({ state: 'delivered', attempts: 3, status: 204, nextAttemptAt: null });
    const attempts = receiver.of(path, 'alarm.raised');
    expect(attempts.map((entry) => entry.headers['x-fieldlink-attempt'])).toEqual(['1', '2', '3']);
    // Every attempt carries the same event, byte for byte, each signed.
    expect(new Set(attempts.map((entry) => entry.raw.toString('hex'))).size).toBe(1);
    expect(attempts.every((entry) => entry.signatureValid)).toBe(true);

    // A receiver that never recovers: tried until 24 hours after the event, then failed.
    receiver.answerWith((request) => (request.path === path ? 500 : 204));
    await publish(pump, [[11, 20]]);
    const cleared = async () => (await deliveriesOf(hook.id)).find((entry) => entry.event === 'alarm.cleared')!;
    await until(async () => (await cleared())?.attempts === 1);
    let last = await cleared();
    while (last.state === 'pending') {
      const attempt = last.attempts + 1;
      moveTo(last.nextAttemptAt!);
      t.app.jobs.nudge();
      await until(async () => (await cleared()).attempts === attempt);
      last = await cleared();
    }
    expect(last).toMatchObject({ state: 'failed', status: 500, nextAttemptAt: null });
    // 10 s doubling to an hour, for 24 hours: 32 attempts when each runs on time (domain test), a
    // few less here, where each runs a little late.
    expect(last.attempts).toBeGreaterThanOrEqual(28);
    expect(last.attempts).toBeLessThanOrEqual(32);
    expect(last.lastAttemptAt! - last.at).toBeLessThanOrEqual(WEBHOOK_RETRY_WINDOW_MS);
    expect(last.lastAttemptAt! - last.at).toBeGreaterThan(WEBHOOK_RETRY_WINDOW_MS - 3_600_000);
    expect(receiver.of(path, 'alarm.cleared')).toHaveLength(last.attempts);
    receiver.answerWith(() => 204);
  });
});

describe('webhook URLs without FIELDLINK_WEBHOOK_ALLOW_PRIVATE', () => {
  let t: TestApp;
  let authorization: string;
  beforeAll(async () => {
    t = await startTestApp('sqlite');
    authorization = await signIn(t.app, 'admin@fieldlink.test');
  }, 60_000);
  afterAll(() => t?.close());

  it.each([
    ['http://127.0.0.1:8080/hook', /127\.0\.0\.1, a loopback address/],
    ['http://[::1]/hook', /::1, a loopback address/],
    ['http://10.1.2.3/hook', /10\.1\.2\.3, a private address/],
    ['http://169.254.169.254/latest/meta-data/', /link-local/],
    ['http://[::ffff:192.168.0.1]/hook', /private/],
  ])('refuses %s', async (url, message) => {
    const accountId = (
      await t.app.storage.db
        .selectFrom('devices')
        .select('account_id')
        .where('thing_name', '=', 'OSC-PUMP01')
        .executeTakeFirstOrThrow()
    ).account_id;
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/webhooks',
      headers: { authorization },
      payload: { accountId, url, events: ['alarm.raised'] },
    });
    expect(response.statusCode, response.body).toBe(400);
    expect((response.json() as { message: string }).message).toMatch(message);
    expect(await t.app.storage.db.selectFrom('webhooks').selectAll().execute()).toEqual([]);
  });
});
