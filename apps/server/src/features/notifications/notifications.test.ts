import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt, { type MqttClient } from 'mqtt';
import { deviceUpTopic } from '@fieldlink/api/mqtt-topics';
import type { NotificationPreferencesAnswer, OnCallRotaAnswer } from '@fieldlink/api/notifications';
import type { PushNotice } from '@fieldlink/api/push';
import { isUnderPath } from '@fieldlink/domain/group-path';
import { DEFAULT_NOTIFICATION_PREFERENCES } from '@fieldlink/domain/notification-routing';
import { demoFleet } from '../../seed/seed';
import { addTestUser, DIALECTS, startTestApp, type TestApp } from '../../../testing/test-app';
import { startMailCatcher } from '../../../testing/mail-catcher';
import { startTestPushService } from '../../../testing/push-service';
import { until } from '../../../testing/until';

/** A mail's text as read: quoted-printable soft line breaks joined, escaped bytes decoded. */
const bodyOf = (raw: string) =>
  raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
const HOUR = 3_600_000;

describe.each(DIALECTS)('who gets what on %s', (dialect) => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startMailCatcher>>;
  let pushService: Awaited<ReturnType<typeof startTestPushService>>;
  let accountId: string;
  let otherAccountId: string;
  const people = new Map<string, { id: string; token: string }>();
  const clients: MqttClient[] = [];

  const call = (method: 'GET' | 'PUT' | 'POST', url: string, who: string | null, body?: object) =>
    t.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: who ? { authorization: `Bearer ${people.get(who)!.token}` } : {},
      ...(body && { payload: body }),
    });
  const preferenceRows = () => t.app.storage.db.selectFrom('notification_preferences').selectAll().execute();
  const rotaRows = () => t.app.storage.db.selectFrom('on_call_shifts').selectAll().orderBy('ordinal').execute();
  const email = (who: string) => `${who}@rota.test`;

  beforeAll(async () => {
    smtp = await startMailCatcher();
    pushService = await startTestPushService();
    t = await startTestApp(dialect, {
      mqtt: true,
      env: {
        SMTP_URL: smtp.url,
        FIELDLINK_WEBHOOK_ALLOW_PRIVATE: '1',
        FIELDLINK_ALARM_REMINDER_SECONDS: '3600',
        FIELDLINK_ALARM_ESCALATION_SECONDS: '2',
      },
    });
    const { db } = t.app.storage;
    const pump = await db
      .selectFrom('devices')
      .innerJoin('accounts', 'accounts.id', 'devices.account_id')
      .innerJoin('groups', 'groups.id', 'accounts.root_group_id')
      .select(['devices.account_id', 'groups.path'])
      .where('devices.thing_name', '=', 'OSC-PUMP01')
      .executeTakeFirstOrThrow();
    accountId = pump.account_id;
    // An account neither below nor above the pump's (a supplier's administrator sees its customers).
    const other = (
      await db
        .selectFrom('accounts')
        .innerJoin('groups', 'groups.id', 'accounts.root_group_id')
        .select(['accounts.id', 'groups.path'])
        .execute()
    ).find((row) => !isUnderPath(pump.path, row.path) && !isUnderPath(row.path, pump.path))!;
    otherAccountId = other.id;
    const add = async (who: string, permissions: string[], account = accountId, path = pump.path) => {
      const user = await addTestUser(t.app, { email: email(who), accountId: account, path, permissions });
      people.set(who, { ...user, token: user.token });
    };
    await add('ann', ['ALARM']);
    await add('bob', ['ALARM']);
    await add('adm', ['ADMIN']);
    await add('plain', []);
    await add('outsider', ['ADMIN'], other.id, other.path);
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.endAsync(true).catch(() => undefined)));
    await t?.close();
    await smtp?.stop();
    await pushService?.stop();
  });

  it('answers the defaults and what can reach the caller, SMS honestly unavailable', async () => {
    const answer = await call('GET', '/user/notification-preferences', 'ann');
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({
      ...DEFAULT_NOTIFICATION_PREFERENCES,
      reach: {
        email: { available: true, reason: null },
        push: { available: false, reason: 'Turn notifications on in a browser to receive them.' },
        sms: { available: false, reason: 'This server does not send text messages.' },
      },
    } satisfies NotificationPreferencesAnswer);
    expect((await call('GET', '/user/notification-preferences', null)).statusCode).toBe(401);
  });

  it('refuses bad preferences with a clear 400, changing nothing', async () => {
    const channels = DEFAULT_NOTIFICATION_PREFERENCES.channels;
    const cases: [object, RegExp][] = [
      [
        { channels: { ...channels, push: { alarms: 'severities', severities: [] } }, quietHours: null },
        /at least one severity for push/,
      ],
      [{ channels: { ...channels, email: { alarms: 'some', severities: [] } }, quietHours: null }, /alarms/],
      [
        { channels: { ...channels, sms: { alarms: 'all', severities: [] } }, quietHours: null },
        /Text messages cannot reach you: This server does not send text messages/,
      ],
      [{ channels, quietHours: { from: '22:00', to: '22:00', timeZone: 'UTC' } }, /different times/],
      [{ channels, quietHours: { from: '25:00', to: '06:00', timeZone: 'UTC' } }, /from/],
      [{ channels, quietHours: { from: '22:00', to: '06:00', timeZone: 'Nowhere/City' } }, /Unknown time zone/],
      [{ channels, quietHours: null, userId: people.get('bob')!.id }, /additional/],
      [{ channels }, /quietHours/],
    ];
    for (const [body, message] of cases) {
      const answer = await call('PUT', '/user/notification-preferences', 'ann', body);
      expect(answer.statusCode, JSON.stringify(body)).toBe(400);
      expect(answer.json().message).toMatch(message);
    }
    expect(await preferenceRows()).toEqual([]);
  });

  it('stores each user’s own choice and quiet hours, audited', async () => {
    const body = {
      channels: {
        email: { alarms: 'severities', severities: ['CRITICAL'] },
        push: { alarms: 'all', severities: [] },
        sms: { alarms: 'none', severities: [] },
      },
      quietHours: { from: '22:00', to: '07:00', timeZone: 'Europe/Berlin' },
    };
    const answer = await call('PUT', '/user/notification-preferences', 'ann', body);
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toMatchObject(body);
    expect((await call('GET', '/user/notification-preferences', 'ann')).json()).toMatchObject(body);
    // Bob's stays his own: the defaults.
    expect((await call('GET', '/user/notification-preferences', 'bob')).json()).toMatchObject(
      DEFAULT_NOTIFICATION_PREFERENCES,
    );
    expect(await preferenceRows()).toMatchObject([{ user_id: people.get('ann')!.id }]);
    const entry = await t.app.storage.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'user.notificationPreferences')
      .executeTakeFirstOrThrow();
    expect(entry.actor_name).toBe(email('ann'));
    expect(JSON.parse(entry.after!)).toEqual({
      email: 'CRITICAL',
      push: 'all',
      sms: 'none',
      quietHours: '22:00–07:00 Europe/Berlin',
    });
  });

  it('lets account administrators edit the rota, users of the account read it, nobody else either', async () => {
    const now = Date.now();
    const shifts = [
      { userId: people.get('bob')!.id, from: now - HOUR, to: now + HOUR },
      { userId: people.get('ann')!.id, from: now + HOUR, to: now + 2 * HOUR },
    ];
    const url = `/account/on-call-rota?accountId=${accountId}`;
    // Refused: not an administrator, another account's administrator, a stranger on the rota, a bad shift.
    const refusals: [string, string, object, number, RegExp][] = [
      ['ann', url, { shifts }, 403, /permission/],
      ['outsider', url, { shifts }, 404, /Account not found/],
      ['adm', `/account/on-call-rota?accountId=${otherAccountId}`, { shifts }, 404, /Account not found/],
      [
        'adm',
        url,
        { shifts: [...shifts, { userId: people.get('plain')!.id, from: now, to: now + HOUR }] },
        400,
        /Shift 3: only the account’s Alarm Responders/,
      ],
      ['adm', url, { shifts: [{ ...shifts[0], to: shifts[0]!.from }] }, 400, /Shift 1 must end after it starts/],
      ['adm', url, { shifts, accountId: otherAccountId }, 400, /additional/],
    ];
    for (const [who, target, body, status, message] of refusals) {
      const answer = await call('PUT', target, who, body);
      expect(answer.statusCode, `${who} ${JSON.stringify(body)}`).toBe(status);
      expect(answer.json().message).toMatch(message);
    }
    expect(await rotaRows()).toEqual([]);

    const stored = await call('PUT', url, 'adm', { shifts });
    expect(stored.statusCode).toBe(200);
    const rota = stored.json() as OnCallRotaAnswer;
    expect(rota.shifts).toEqual(shifts);
    expect(rota.onCallNow).toEqual([people.get('bob')!.id]);
    expect(rota.editable).toBe(true);
    expect(rota.people.map((person) => person.email)).toEqual(
      expect.arrayContaining([email('adm'), email('ann'), email('bob')]),
    );
    expect(rota.people.map((person) => person.email)).not.toContain(email('plain'));

    const read = await call('GET', url, 'plain');
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({ shifts, editable: false });
    expect((await call('GET', url, 'outsider')).statusCode).toBe(404);
    const entry = await t.app.storage.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'account.onCallRota')
      .executeTakeFirstOrThrow();
    expect(entry.actor_name).toBe(email('adm'));
    expect(entry.account_id).toBe(accountId);
    expect(JSON.parse(entry.after!)).toEqual({ shifts });
  });

  it('out of hours wakes only the person on call, moves on along the rota, and a link acknowledges once', async () => {
    for (const who of ['ann', 'bob']) {
      expect(
        (await call('POST', '/push-subscriptions', who, pushService.browser(`${who}-phone`).subscription)).statusCode,
      ).toBe(201);
    }
    const { db } = t.app.storage;
    const pumpId = (
      await db.selectFrom('devices').select('id').where('thing_name', '=', 'OSC-PUMP01').executeTakeFirstOrThrow()
    ).id;
    const alarm = {
      deviceId: pumpId,
      code: 'c1',
      enabled: true,
      high: 50,
      low: null,
      hysteresis: 5,
      delaySeconds: 0,
      severity: 'MAJOR',
    };
    expect((await call('PUT', '/device/alarm', 'adm', { alarm })).statusCode).toBe(200);
    const passwords = new Map((await demoFleet(db)).map((device) => [device.thingName, device.password]));
    const pump = await mqtt.connectAsync(`mqtt://127.0.0.1:${t.app.broker!.port}`, {
      clientId: 'OSC-PUMP01',
      username: 'OSC-PUMP01',
      password: passwords.get('OSC-PUMP01'),
      reconnectPeriod: 0,
    });
    clients.push(pump);
    await pump.publishAsync(
      deviceUpTopic('OSC-PUMP01'),
      JSON.stringify({ v: 4, type: 'log', t: Date.now(), values: { c1: 57 } }),
      { qos: 1 },
    );

    // Bob is on call: his phone rings, with his own acknowledge link. Ann, off duty, is not woken.
    await until(() => pushService.received.some((push) => push.name === 'bob-phone'));
    const bobPush = pushService.received.find((push) => push.name === 'bob-phone')!.payload as PushNotice;
    expect(bobPush.title).toMatch(/^Alarm \(MAJOR\)/);
    expect(bobPush.acknowledgeUrl).toMatch(/\/api\/v1\/alarm-link\?token=[\w-]+\.[\w-]+$/);
    await until(() => smtp.to(email('bob'), /^Alarm \(MAJOR\)/).length === 1);
    // His mail carries his own link too (the e-mail's way of acknowledging without signing in).
    expect(bodyOf(smtp.to(email('bob'), /^Alarm/)[0]!.raw)).toMatch(
      /Acknowledge it now \(no sign-in needed, works once for a day\): http\S+\/api\/v1\/alarm-link\?token=[\w-]+\.[\w-]+\r?\n/,
    );
    // Nobody answers: after the escalation delay the alarm moves to Ann, the rota's next person, on
    // the channels she chose for it (push; e-mail she keeps for CRITICAL alarms), whatever her quiet hours.
    await until(() => pushService.received.some((push) => push.name === 'ann-phone'), 30_000);
    const annPush = pushService.received.find((push) => push.name === 'ann-phone')!.payload as PushNotice;
    expect(annPush.title).toMatch(/^Escalated: alarm \(MAJOR\)/);
    expect(pushService.received.filter((push) => push.name === 'ann-phone')).toHaveLength(1);
    expect(smtp.to(email('ann'), /alarm/i)).toEqual([]);
    // The push notification's action POSTs Ann's own link.
    const url = new URL(annPush.acknowledgeUrl!);
    const path = `${url.pathname}${url.search}`;

    const alarmRow = () =>
      db.selectFrom('alarms').selectAll().where('device_id', '=', pumpId).executeTakeFirstOrThrow();
    // Opening the link (a scanner, a preview, the person) shows the alarm and a button; nothing changes.
    const browser = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };
    const page = await t.app.inject({ method: 'GET', url: path, headers: browser });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toMatch(/Acknowledge alarm/);
    expect(page.body).toContain(`Acknowledge it as ${email('ann')}?`);
    expect((await alarmRow()).acknowledged_at).toBeNull();

    // A forged or altered link is refused.
    const forged = await t.app.inject({
      method: 'POST',
      url: `${path.slice(0, -3)}abc`,
      headers: { accept: 'application/json' },
    });
    expect(forged.statusCode).toBe(400);
    expect(forged.json()).toEqual({
      acknowledged: false,
      message: 'This link is not valid. Open the console to acknowledge the alarm.',
    });
    expect((await alarmRow()).acknowledged_at).toBeNull();

    // The form's POST acknowledges, as Ann, "from a link".
    const done = await t.app.inject({
      method: 'POST',
      url: path,
      headers: { ...browser, 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
    expect(done.statusCode).toBe(200);
    expect(done.headers['content-type']).toMatch(/text\/html/);
    expect(done.body).toMatch(/Alarm acknowledged/);
    const acknowledged = await alarmRow();
    expect(acknowledged.acknowledged_by).toBe(people.get('ann')!.id);
    const entry = await db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'alarm.acknowledge')
      .executeTakeFirstOrThrow();
    expect(entry.actor_name).toBe(email('ann'));
    expect(entry.client).toMatch(/^from a link; http/);

    // Once only, on every instance (the use is in the database).
    const again = await t.app.inject({ method: 'POST', url: path, headers: { accept: 'application/json' } });
    expect(again.statusCode).toBe(410);
    expect(again.json()).toEqual({
      acknowledged: false,
      message: 'This link has already been used. Each acknowledge link works once.',
    });
    const usedPage = await t.app.inject({ method: 'GET', url: path, headers: browser });
    expect(usedPage.statusCode).toBe(410);
    expect(usedPage.body).toContain('This link has already been used.');
    // Any client but a browser is answered in JSON, a refusal with its reason.
    expect((await t.app.inject({ method: 'GET', url: path })).json()).toEqual({
      acknowledged: false,
      message: 'This link has already been used. Each acknowledge link works once.',
    });
    expect(await db.selectFrom('alarm_link_uses').select('user_id').execute()).toEqual([
      { user_id: people.get('ann')!.id },
    ]);

    // An expired link, signed with the installation's own key, is refused.
    const secret = (
      await db.selectFrom('settings').select('value').where('key', '=', 'alarm_link_secret').executeTakeFirstOrThrow()
    ).value;
    const payload = Buffer.from(
      JSON.stringify({ a: acknowledged.id, u: people.get('bob')!.id, x: Date.now() - 1, n: 'expired-nonce-1234' }),
    ).toString('base64url');
    const expired = `/api/v1/alarm-link?token=${payload}.${createHmac('sha256', secret).update(payload).digest('base64url')}`;
    const refused = await t.app.inject({ method: 'POST', url: expired, headers: { accept: 'application/json' } });
    expect(refused.statusCode).toBe(410);
    expect(refused.json().message).toBe('This link has expired. Open the console to acknowledge the alarm.');
  }, 90_000);
});
