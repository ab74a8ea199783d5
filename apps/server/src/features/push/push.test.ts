import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt, { type MqttClient } from 'mqtt';
import { deviceUpTopic } from '@fieldlink/api/mqtt-topics';
import type { PushNotice, PushTestAnswer } from '@fieldlink/api/push';
import type { ClientConfig } from '@fieldlink/api/session';
import { demoFleet } from '../../seed/seed';
import { vapidKeyPair } from '../../security/installation';
import { withClusterTables } from '../../cluster/cluster-tables';
import { DIALECTS, signIn, startTestApp, type TestApp } from '../../../testing/test-app';
import { startTestPushService } from '../../../testing/push-service';
import { until } from '../../../testing/until';
import { MAX_PUSH_SUBSCRIPTIONS_PER_USER } from './service';

describe.each(DIALECTS)('Web Push on %s', (dialect) => {
  let t: TestApp;
  let pushService: Awaited<ReturnType<typeof startTestPushService>>;
  let publicKey: string;
  const tokens = new Map<string, string>();
  const clients: MqttClient[] = [];

  const call = async (method: 'GET' | 'POST' | 'DELETE' | 'PUT', url: string, who: string, body?: object) => {
    if (!tokens.has(who)) tokens.set(who, await signIn(t.app, `${who}@fieldlink.test`));
    return t.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: { authorization: tokens.get(who)! },
      ...(body && { payload: body }),
    });
  };
  const rows = () => t.app.storage.db.selectFrom('push_subscriptions').selectAll().orderBy('endpoint').execute();
  const userId = async (who: string) =>
    (
      await t.app.storage.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', `${who}@fieldlink.test`)
        .executeTakeFirstOrThrow()
    ).id;
  const pushesTo = (name: string) => pushService.received.filter((push) => push.name === name);

  beforeAll(async () => {
    pushService = await startTestPushService();
    // The push service is on loopback: on-premise installations and the tests allow it.
    t = await startTestApp(dialect, { mqtt: true, env: { FIELDLINK_WEBHOOK_ALLOW_PRIVATE: '1' } });
    publicKey = ((await t.app.inject({ method: 'GET', url: '/api/v1/client-config' })).json() as ClientConfig)
      .pushPublicKey!;
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.endAsync(true).catch(() => undefined)));
    await t?.close();
    await pushService?.stop();
  });

  it('makes one VAPID key pair at first start and keeps it in the database for every instance', async () => {
    expect(Buffer.from(publicKey, 'base64url')).toHaveLength(65);
    // A second instance (or a restart) asking for the pair gets the stored one, never its own.
    const again = await vapidKeyPair(t.app.storage.db, () => ({ publicKey: 'other', privateKey: 'other' }));
    expect(again.publicKey).toBe(publicKey);
  });

  it('refuses a malformed subscription, changing nothing', async () => {
    const { subscription } = pushService.browser('malformed');
    const cases: [object, RegExp][] = [
      [{ endpoint: subscription.endpoint }, /keys/],
      [{ ...subscription, keys: { ...subscription.keys, auth: 'short' } }, /auth/],
      [{ ...subscription, keys: { p256dh: subscription.keys.p256dh } }, /auth/],
      [{ ...subscription, endpoint: 'ftp://push.example/1' }, /endpoint/],
      [{ ...subscription, userId: 'someone-else' }, /additional/],
    ];
    for (const [body, message] of cases) {
      const answer = await call('POST', '/push-subscriptions', 'spray', body);
      expect(answer.statusCode, JSON.stringify(body)).toBe(400);
      expect(answer.json().message).toMatch(message);
    }
    expect((await call('POST', '/push-subscriptions', 'spray')).statusCode).toBe(400);
    expect(await rows()).toEqual([]);
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/v1/push-subscriptions',
      payload: subscription,
    });
    expect(anonymous.statusCode).toBe(401);
    expect(await rows()).toEqual([]);
  });

  it('subscribes a browser and sends it a test notification, VAPID-signed and encrypted for it alone', async () => {
    const browser = pushService.browser('spray-phone');
    const answer = await call('POST', '/push-subscriptions', 'spray', {
      ...browser.subscription,
      expirationTime: null,
    });
    expect(answer.statusCode).toBe(201);
    expect(answer.json()).toEqual({ subscriptions: 1 });
    expect(await rows()).toMatchObject([{ endpoint: browser.endpoint, user_id: await userId('spray') }]);

    const test = await call('POST', '/push-subscriptions/test', 'spray');
    expect(test.statusCode).toBe(200);
    expect(test.json() as PushTestAnswer).toEqual({ sent: 1, removed: 0, failed: 0 });
    const [push] = pushesTo('spray-phone');
    // Signed with the installation's key (the one the console subscribes with), for this push service.
    expect(push!.vapidKey).toBe(publicKey);
    expect(push!.claims.aud).toBe(pushService.origin);
    expect(push!.payload).toEqual({
      title: 'Fieldlink: test notification',
      body: 'Notifications are on for this browser. Alarms of your devices will show here.',
      url: '/alarms',
      tag: 'fieldlink-test',
    } satisfies PushNotice);
    expect(pushService.refused).toEqual([]);
    // The trail says who turned notifications on, naming the push service, not the endpoint.
    const entry = await t.app.storage.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'user.pushOn')
      .executeTakeFirstOrThrow();
    expect(entry.actor_name).toBe('spray@fieldlink.test');
    expect(entry.after).toBe(JSON.stringify({ pushService: pushService.origin }));
  });

  it('pushes a raised alarm to the Alarm Responders’ browsers only, naming device, alarm and value', async () => {
    const responder = pushService.browser('spray-laptop');
    const supplier = pushService.browser('admin-desk');
    const otherApp = pushService.browser('brew-desk');
    expect((await call('POST', '/push-subscriptions', 'spray', responder.subscription)).statusCode).toBe(201);
    expect((await call('POST', '/push-subscriptions', 'admin', supplier.subscription)).statusCode).toBe(201);
    expect((await call('POST', '/push-subscriptions', 'brew', otherApp.subscription)).statusCode).toBe(201);

    const pumpId = (
      await t.app.storage.db
        .selectFrom('devices')
        .select('id')
        .where('thing_name', '=', 'OSC-PUMP01')
        .executeTakeFirstOrThrow()
    ).id;
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
    expect((await call('PUT', '/device/alarm', 'spray', { alarm })).statusCode).toBe(200);
    const passwords = new Map((await demoFleet(t.app.storage.db)).map((device) => [device.thingName, device.password]));
    const pump = await mqtt.connectAsync(`mqtt://127.0.0.1:${t.app.broker!.port}`, {
      clientId: 'OSC-PUMP01',
      username: 'OSC-PUMP01',
      password: passwords.get('OSC-PUMP01'),
      reconnectPeriod: 0,
    });
    clients.push(pump);
    const frame = { v: 4, type: 'log', t: Date.now(), values: { c1: 57 } };
    await pump.publishAsync(deviceUpTopic('OSC-PUMP01'), JSON.stringify(frame), { qos: 1 });

    await until(() => pushesTo('spray-laptop').length === 1 && pushesTo('spray-phone').length === 2);
    const notice = pushesTo('spray-laptop')[0]!.payload as PushNotice;
    expect(notice.title).toMatch(/^Alarm \(CRITICAL\): Pump house/);
    expect(notice.body).toMatch(/57.*above 50/);
    expect(notice.url).toBe('/dash/OSC-PUMP01');
    expect(notice.tag).toMatch(/^alarm-/);
    expect(pushesTo('spray-phone')[1]!.payload).toEqual(notice);
    expect(pushesTo('spray-laptop')[0]!.headers).toMatchObject({ ttl: '3600', urgency: 'high' });
    // Every job done: nobody else hears of it, and nobody twice.
    const jobs = withClusterTables(t.app.storage.db);
    await until(
      async () =>
        (await jobs.selectFrom('jobs').select('id').where('kind', 'in', ['alarm.push', 'push.send']).execute())
          .length === 0,
    );
    expect(pushesTo('admin-desk')).toEqual([]);
    expect(pushesTo('brew-desk')).toEqual([]);
    expect(pushesTo('spray-laptop')).toHaveLength(1);
  });

  it('removes a subscription its push service answers 404 or 410 for', async () => {
    pushService.answer('spray-phone', 410);
    pushService.answer('spray-laptop', 404);
    const test = await call('POST', '/push-subscriptions/test', 'spray');
    expect(test.json() as PushTestAnswer).toEqual({ sent: 0, removed: 2, failed: 0 });
    const sprayId = await userId('spray');
    expect((await rows()).filter((row) => row.user_id === sprayId)).toEqual([]);
    expect((await rows()).map((row) => row.endpoint.split('/').pop())).toEqual(['admin-desk', 'brew-desk']);
  });

  it('removes only the caller’s own subscription', async () => {
    const browser = pushService.browser('brew-desk');
    const refused = await call('DELETE', '/push-subscriptions', 'spray', { endpoint: browser.endpoint });
    expect(refused.statusCode).toBe(404);
    expect((await rows()).map((row) => row.endpoint)).toContain(browser.endpoint);
    const removed = await call('DELETE', '/push-subscriptions', 'brew', { endpoint: browser.endpoint });
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toEqual({ subscriptions: 0 });
    expect((await rows()).map((row) => row.endpoint)).not.toContain(browser.endpoint);
    expect(
      await t.app.storage.db
        .selectFrom('audit_log')
        .select('actor_name')
        .where('action', '=', 'user.pushOff')
        .execute(),
    ).toEqual([{ actor_name: 'brew@fieldlink.test' }]);
  });

  it('moves a browser’s subscription to the user now signed in on it, and keeps each user’s newest few', async () => {
    const shared = pushService.browser('shared-kiosk');
    expect((await call('POST', '/push-subscriptions', 'spray', shared.subscription)).statusCode).toBe(201);
    expect((await call('POST', '/push-subscriptions', 'brew', shared.subscription)).statusCode).toBe(201);
    expect((await rows()).filter((row) => row.endpoint === shared.endpoint)).toMatchObject([
      { user_id: await userId('brew') },
    ]);

    const names = Array.from({ length: MAX_PUSH_SUBSCRIPTIONS_PER_USER + 2 }, (_, i) => `brew-${i}`);
    for (const name of names) {
      await call('POST', '/push-subscriptions', 'brew', pushService.browser(name).subscription);
    }
    // The kiosk and the two oldest of the twelve gave way to the newest ten.
    const brewId = await userId('brew');
    const kept = (await rows()).filter((row) => row.user_id === brewId);
    expect(kept.map((row) => row.endpoint.split('/').pop()).sort()).toEqual(
      names.slice(-MAX_PUSH_SUBSCRIPTIONS_PER_USER).sort(),
    );
  });

  it('limits test notifications per user', async () => {
    const answers: number[] = [];
    for (let i = 0; i < 6; i += 1) answers.push((await call('POST', '/push-subscriptions/test', 'viewer')).statusCode);
    expect(answers).toEqual([200, 200, 200, 200, 200, 429]);
  });
});

describe('Web Push endpoints inside the network', () => {
  let t: TestApp;
  afterAll(() => t?.close());

  it('are refused unless FIELDLINK_WEBHOOK_ALLOW_PRIVATE=1, and plain http with them', async () => {
    t = await startTestApp('sqlite');
    const token = await signIn(t.app, 'spray@fieldlink.test');
    const keys = { p256dh: `B${'A'.repeat(86)}`, auth: 'A'.repeat(22) };
    const cases: [string, RegExp][] = [
      ['https://127.0.0.1:4443/push/1', /127\.0\.0\.1, a loopback address/],
      ['https://169.254.169.254/push/1', /link-local/],
      ['https://10.1.2.3/push/1', /private/],
      ['https://[::1]/push/1', /loopback/],
      ['http://push.example.com/push/1', /must begin with https/],
    ];
    for (const [endpoint, message] of cases) {
      const answer = await t.app.inject({
        method: 'POST',
        url: '/api/v1/push-subscriptions',
        headers: { authorization: token },
        payload: { endpoint, keys },
      });
      expect(answer.statusCode, endpoint).toBe(400);
      expect(answer.json().message, endpoint).toMatch(message);
    }
    expect(await t.app.storage.db.selectFrom('push_subscriptions').selectAll().execute()).toEqual([]);
  });
});
