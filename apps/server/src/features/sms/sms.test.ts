import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt, { type MqttClient } from 'mqtt';
import { deviceUpTopic } from '@fieldlink/api/mqtt-topics';
import type { PhoneAnswer } from '@fieldlink/api/phone';
import type { ClientConfig } from '@fieldlink/api/session';
import { demoFleet } from '../../seed/seed';
import { withClusterTables } from '../../cluster/cluster-tables';
import { DIALECTS, signIn, startTestApp, type TestApp } from '../../../testing/test-app';
import { startSmsGateway, type SmsGateway } from '../../../testing/sms-gateway';
import { until } from '../../../testing/until';
import { SMS_NOT_CONFIGURED } from './service';
import type { NotificationPreferencesAnswer } from '@fieldlink/api/notifications';

const MINUTE = 60_000;

describe.each(DIALECTS)('SMS alerts on %s', (dialect) => {
  let t: TestApp;
  let gateway: SmsGateway;
  let pump: MqttClient | undefined;
  /** The app's clock runs this far ahead of the real one. */
  let ahead = 0;
  const tokens = new Map<string, string>();

  const call = async (method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, who: string, body?: object) => {
    if (!tokens.has(who)) tokens.set(who, await signIn(t.app, `${who}@fieldlink.test`));
    return t.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: { authorization: tokens.get(who)! },
      ...(body && { payload: body }),
    });
  };
  const db = () => t.app.storage.db;
  const userRow = (who: string) =>
    db().selectFrom('users').selectAll().where('email', '=', `${who}@fieldlink.test`).executeTakeFirstOrThrow();
  /** The code in the newest SMS to the number. */
  const codeSentTo = (phone: string) => {
    const body = gateway.to(phone).at(-1)?.body ?? '';
    return /^(\d{6}) is your Fieldlink code/.exec(body)?.[1];
  };
  const auditOf = (action: string) =>
    db().selectFrom('audit_log').select(['actor_name', 'before', 'after']).where('action', '=', action).execute();
  const smsJobs = () =>
    withClusterTables(db()).selectFrom('jobs').selectAll().where('kind', 'in', ['alarm.sms', 'sms.send']).execute();

  beforeAll(async () => {
    gateway = await startSmsGateway();
    // The gateway is on loopback: on-premise installations and the tests allow it.
    t = await startTestApp(dialect, {
      mqtt: true,
      env: { SMS_URL: gateway.url, FIELDLINK_WEBHOOK_ALLOW_PRIVATE: '1' },
      now: () => Date.now() + ahead,
    });
  });
  afterAll(async () => {
    await pump?.endAsync(true).catch(() => undefined);
    await t?.close();
    await gateway?.close();
  });

  it('tells the console SMS is offered, and refuses malformed numbers and codes, changing nothing', async () => {
    const config = (await t.app.inject({ method: 'GET', url: '/api/v1/client-config' })).json() as ClientConfig;
    expect(config.sms).toBe(true);
    const cases: [string, string, object, RegExp][] = [
      ['PUT', '/user/phone', { phone: '07700 900123' }, /phone/],
      ['PUT', '/user/phone', { phone: '+0447700900123' }, /phone/],
      ['PUT', '/user/phone', { phone: '+447700900123', userId: 'other' }, /additional/],
      ['PUT', '/user/phone', {}, /phone/],
      ['POST', '/user/phone/verify', { code: '12345' }, /code/],
      ['POST', '/user/phone/verify', { code: '12345a' }, /code/],
    ];
    for (const [method, url, body, message] of cases) {
      const answer = await call(method as 'PUT', url, 'spray', body);
      expect(answer.statusCode, JSON.stringify(body)).toBe(400);
      expect(answer.json().message).toMatch(message);
    }
    expect(gateway.received).toEqual([]);
    expect(await db().selectFrom('phone_codes').selectAll().execute()).toEqual([]);
    expect(
      (await t.app.inject({ method: 'PUT', url: '/api/v1/user/phone', payload: { phone: '+447700900123' } }))
        .statusCode,
    ).toBe(401);
  });

  it('adds a number: a 6-digit code by SMS, kept as a hash, verified once', async () => {
    const phone = '+447700900101';
    const sent = await call('PUT', '/user/phone', 'spray', { phone });
    expect(sent.statusCode).toBe(200);
    const pending = sent.json() as PhoneAnswer;
    expect(pending).toMatchObject({ phone: null, verifiedAt: null, pending: { phone } });
    expect(pending.pending!.expiresAt - (Date.now() + ahead)).toBeGreaterThan(9 * MINUTE);
    // The gateway checked the Basic auth and the form: To, From and the text.
    expect(gateway.refused).toEqual([]);
    expect(gateway.to(phone)).toMatchObject([{ from: gateway.from, messagingServiceSid: null, status: 201 }]);
    expect(gateway.to(phone)[0]!.body).toMatch(
      /^\d{6} is your Fieldlink code to receive SMS alerts. It expires in 10 minutes.$/,
    );
    const code = codeSentTo(phone)!;
    const stored = await db().selectFrom('phone_codes').selectAll().execute();
    expect(stored).toHaveLength(1);
    // No column but the times holds the code (a time's digits may hold any six: 1796280733889 held 073388).
    const columns = Object.entries(stored[0]!).filter(([column]) => !column.endsWith('_at'));
    expect(JSON.stringify(columns)).not.toContain(code);
    expect((await userRow('spray')).phone).toBeNull();

    const verified = await call('POST', '/user/phone/verify', 'spray', { code });
    expect(verified.statusCode).toBe(200);
    expect(verified.json()).toMatchObject({ phone, pending: null });
    expect((await userRow('spray')).phone).toBe(phone);
    expect((await call('GET', '/user/phone', 'spray')).json()).toMatchObject({ phone, pending: null });

    // Replayed: a code works once.
    const replayed = await call('POST', '/user/phone/verify', 'spray', { code });
    expect(replayed.statusCode).toBe(400);
    expect(replayed.json().message).toBe('No code is waiting to be entered. Ask for a new one.');
    // The trail names the user and a masked number.
    expect(await auditOf('user.phoneCode')).toEqual([
      { actor_name: 'spray@fieldlink.test', before: null, after: JSON.stringify({ phone: '+4477••••••01' }) },
    ]);
    expect(await auditOf('user.phoneVerify')).toMatchObject([{ after: JSON.stringify({ phone: '+4477••••••01' }) }]);
    // The same number again is said to be verified already.
    expect((await call('PUT', '/user/phone', 'spray', { phone })).statusCode).toBe(409);
  });

  it('refuses wrong codes, and voids the code after five', async () => {
    const phone = '+447700900102';
    expect((await call('PUT', '/user/phone', 'brew', { phone })).statusCode).toBe(200);
    const code = codeSentTo(phone)!;
    const wrong = code === '000000' ? '000001' : '000000';
    const messages: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      const answer = await call('POST', '/user/phone/verify', 'brew', { code: wrong });
      expect(answer.statusCode).toBe(400);
      messages.push(answer.json().message);
    }
    expect(messages).toEqual([
      'The code is not right. 4 tries left.',
      'The code is not right. 3 tries left.',
      'The code is not right. 2 tries left.',
      'The code is not right. 1 tries left.',
      'The code is not right. Ask for a new one.',
    ]);
    const late = await call('POST', '/user/phone/verify', 'brew', { code });
    expect(late.statusCode).toBe(429);
    expect((await userRow('brew')).phone).toBeNull();
    expect((await call('GET', '/user/phone', 'brew')).json()).toEqual({ phone: null, verifiedAt: null, pending: null });
  });

  it('texts a raised alarm to the Alarm Responders with a verified phone, naming device, alarm and value, with a link that acknowledges once', async () => {
    // The administrator above verifies a phone too, but is no Alarm Responder of the pump.
    const adminPhone = '+447700900103';
    expect((await call('PUT', '/user/phone', 'admin', { phone: adminPhone })).statusCode).toBe(200);
    expect((await call('POST', '/user/phone/verify', 'admin', { code: codeSentTo(adminPhone) })).statusCode).toBe(200);
    // Text messages reach a user with a verified phone, who chooses which alarms come that way.
    const preferences = (
      await call('GET', '/user/notification-preferences', 'spray')
    ).json() as NotificationPreferencesAnswer;
    expect(preferences.reach.sms).toEqual({ available: true, reason: null });
    const { reach: _reach, ...chosen } = preferences;
    const bySms = { ...chosen, channels: { ...chosen.channels, sms: { alarms: 'all', severities: [] } } };
    expect((await call('PUT', '/user/notification-preferences', 'spray', bySms)).statusCode).toBe(200);
    expect((await call('PUT', '/user/notification-preferences', 'admin', bySms)).statusCode).toBe(200);

    const pumpId = (
      await db().selectFrom('devices').select('id').where('thing_name', '=', 'OSC-PUMP01').executeTakeFirstOrThrow()
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
    const passwords = new Map((await demoFleet(db())).map((device) => [device.thingName, device.password]));
    pump = await mqtt.connectAsync(`mqtt://127.0.0.1:${t.app.broker!.port}`, {
      clientId: 'OSC-PUMP01',
      username: 'OSC-PUMP01',
      password: passwords.get('OSC-PUMP01'),
      reconnectPeriod: 0,
    });
    await pump.publishAsync(
      deviceUpTopic('OSC-PUMP01'),
      JSON.stringify({ v: 4, type: 'log', t: Date.now(), values: { c1: 57 } }),
      { qos: 1 },
    );

    const alarmTexts = () => gateway.to('+447700900101').filter((sms) => !/is your Fieldlink code/.test(sms.body));
    await until(() => alarmTexts().length === 1);
    const [sms] = alarmTexts();
    // The person's own signed one-time link ends the text, whole; the names around it are not cut,
    // since the link makes two segments anyway (306 characters).
    const ending =
      /^Fieldlink CRITICAL alarm: Pump house \(OSC-PUMP01\) .*57.*, above 50.* (http:\/\/localhost:8080(\/api\/v1\/alarm-link\?token=[\w-]+\.[\w-]+))$/;
    expect(sms!.body).toMatch(ending);
    expect(sms!.body.length).toBeLessThanOrEqual(2 * 153);
    const linkPath = ending.exec(sms!.body)![2]!;
    const alarmRow = () =>
      db()
        .selectFrom('alarms')
        .select(['id', 'acknowledged_at'])
        .where('cleared_at', 'is', null)
        .executeTakeFirstOrThrow();

    // Following the link from the phone: the page names the alarm, offers the button and the console.
    const page = await t.app.inject({ method: 'GET', url: linkPath, headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Acknowledge it as spray@fieldlink.test?');
    expect(page.body).toContain('<a href="/dash/OSC-PUMP01">Open the device in the console</a>');
    expect((await alarmRow()).acknowledged_at).toBeNull();
    // Its button acknowledges, without a session, once.
    const acknowledged = await t.app.inject({ method: 'POST', url: linkPath, headers: { accept: 'application/json' } });
    expect(acknowledged.json()).toEqual({
      acknowledged: true,
      message: 'Acknowledged as spray@fieldlink.test. Reminders and escalation stop.',
    });
    expect((await alarmRow()).acknowledged_at).not.toBeNull();
    expect(
      await db()
        .selectFrom('audit_log')
        .select(['actor_name', 'client'])
        .where('action', '=', 'alarm.acknowledge')
        .execute(),
    ).toEqual([{ actor_name: 'spray@fieldlink.test', client: expect.stringMatching(/^from a link; /) }]);
    const again = await t.app.inject({ method: 'POST', url: linkPath, headers: { accept: 'application/json' } });
    expect(again.statusCode).toBe(410);
    expect(again.json()).toEqual({
      acknowledged: false,
      message: 'This link has already been used. Each acknowledge link works once.',
    });
    expect(sms!.from).toBe(gateway.from);
    await until(async () => (await smsJobs()).length === 0);
    expect(await db().selectFrom('sms_messages').select(['state', 'attempts', 'status']).execute()).toEqual([
      { state: 'sent', attempts: 1, status: 201 },
    ]);
    expect((await db().selectFrom('sms_messages').select('sid').executeTakeFirstOrThrow()).sid).toMatch(
      /^SM[0-9a-f]{32}$/,
    );
    expect(gateway.to(adminPhone)).toHaveLength(1); // its verification code only
    expect(alarmTexts()).toHaveLength(1);
  });

  /** Clears the pump's alarm and raises a new one with this value; answers the new alarm's SMS row id. */
  const raiseAgain = async (value: number) => {
    const before = (await db().selectFrom('sms_messages').select('id').execute()).map((row) => row.id);
    await pump!.publishAsync(
      deviceUpTopic('OSC-PUMP01'),
      JSON.stringify({ v: 4, type: 'log', t: Date.now(), values: { c1: 40 } }),
      { qos: 1 },
    );
    await until(
      async () => (await db().selectFrom('alarms').select('id').where('cleared_at', 'is', null).execute()).length === 0,
    );
    await pump!.publishAsync(
      deviceUpTopic('OSC-PUMP01'),
      JSON.stringify({ v: 4, type: 'log', t: Date.now(), values: { c1: value } }),
      { qos: 1 },
    );
    let id: string | undefined;
    await until(async () => {
      id = (await db().selectFrom('sms_messages').select('id').execute())
        .map((row) => row.id)
        .find((row) => !before.includes(row));
      return id !== undefined;
    });
    return id!;
  };

  it('tries again after a 503, when the gateway’s Retry-After says, and not after a 4xx', async () => {
    const phone = '+447700900101';
    gateway.answerWith((sms, attempt) =>
      / 61/.test(sms.body) && attempt === 1 ? { status: 503, retryAfter: '120' } : { status: 201 },
    );
    const id = await raiseAgain(61);
    await until(
      async () =>
        (await db().selectFrom('sms_messages').select('attempts').where('id', '=', id).executeTakeFirstOrThrow())
          .attempts === 1,
    );
    const first = await db().selectFrom('sms_messages').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(first).toMatchObject({ state: 'pending', status: 503 });
    const [retry] = (await smsJobs()).filter((job) => job.kind === 'sms.send');
    // Retry-After: 120 outweighs the first back-off of 30 s.
    expect(retry!.run_at - first.last_attempt_at!).toBeGreaterThanOrEqual(120_000);
    expect(retry!.run_at - first.last_attempt_at!).toBeLessThan(125_000);
    ahead += 121_000;
    t.app.jobs.nudge();
    await until(
      async () =>
        (await db().selectFrom('sms_messages').select('state').where('id', '=', id).executeTakeFirstOrThrow()).state ===
        'sent',
    );
    const texts = gateway.to(phone).filter((sms) => / 61/.test(sms.body));
    expect(texts.map((sms) => sms.status)).toEqual([503, 201]);
    expect(texts[0]!.body).toBe(texts[1]!.body);

    gateway.answerWith((sms) => (/ 62/.test(sms.body) ? { status: 400 } : { status: 201 }));
    const refused = await raiseAgain(62);
    // The handler marks the message failed, then the queue deletes its finished job: wait for both, or
    // a loaded machine reads the job between the two. A retry would keep a job, and the wait fail.
    await until(
      async () =>
        (await db().selectFrom('sms_messages').select('state').where('id', '=', refused).executeTakeFirstOrThrow())
          .state === 'failed' && (await smsJobs()).length === 0,
    );
    expect(
      await db()
        .selectFrom('sms_messages')
        .select(['attempts', 'status', 'detail'])
        .where('id', '=', refused)
        .executeTakeFirstOrThrow(),
    ).toMatchObject({
      attempts: 1,
      status: 400,
      detail: expect.stringMatching(/^The SMS service answered 400: Answered 400 by the test/),
    });
    expect((await smsJobs()).filter((job) => job.kind === 'sms.send')).toEqual([]);
    expect(gateway.to(phone).filter((sms) => / 62/.test(sms.body))).toHaveLength(1);
    gateway.answerWith(() => ({ status: 201 }));
  });

  it('lets a code expire after ten minutes', async () => {
    const phone = '+447700900104';
    expect((await call('PUT', '/user/phone', 'stock', { phone })).statusCode).toBe(200);
    const code = codeSentTo(phone)!;
    ahead += 10 * MINUTE + 1000;
    const expired = await call('POST', '/user/phone/verify', 'stock', { code });
    expect(expired.statusCode).toBe(400);
    expect(expired.json().message).toBe('This code has expired. Ask for a new one.');
    expect((await userRow('stock')).phone).toBeNull();
    expect((await call('GET', '/user/phone', 'stock')).json()).toMatchObject({ pending: null });
  });

  it('limits codes per user and per number, counted in the database', async () => {
    const answers: [number, string | undefined][] = [];
    const ask = async (who: string, phone: string) => {
      const answer = await call('PUT', '/user/phone', who, { phone });
      answers.push([answer.statusCode, answer.statusCode === 200 ? undefined : answer.json().message]);
      return answer;
    };
    expect((await ask('viewer', '+447700900105')).statusCode).toBe(200);
    const soon = await ask('viewer', '+447700900106');
    expect(soon.statusCode).toBe(429);
    expect(Number(soon.headers['retry-after'])).toBeGreaterThan(0);
    ahead += 61_000;
    await ask('viewer', '+447700900106');
    ahead += 61_000;
    await ask('viewer', '+447700900107');
    ahead += 61_000;
    await ask('viewer', '+447700900108');
    expect(answers).toEqual([
      [200, undefined],
      [429, expect.stringMatching(/^A code was sent a moment ago\. Please wait \d+ s/)],
      [200, undefined],
      [200, undefined],
      [429, 'At most 3 codes an hour. Please try again later.'],
    ]);
    // One number, five users: the sixth is refused, whoever asks (SMS pumping).
    answers.length = 0;
    const shared = '+447700900199';
    for (const who of ['water', 'ops', 'stock', 'brew', 'admin', 'spray']) await ask(who, shared);
    expect(answers.map(([status]) => status)).toEqual([200, 200, 200, 200, 200, 429]);
    expect(answers[5]![1]).toBe('This number has been sent too many codes today. Please try again tomorrow.');
    expect(gateway.to(shared)).toHaveLength(5);
    expect(gateway.to('+447700900108')).toEqual([]);
  });

  it('holds the limits under parallel requests: one code a minute, however many ask at once', async () => {
    const numbers = ['+447700900150', '+447700900151', '+447700900152', '+447700900153', '+447700900154'];
    await call('GET', '/user/phone', 'moe'); // signed in before the race
    const answers = await Promise.all(numbers.map((phone) => call('PUT', '/user/phone', 'moe', { phone })));
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 429, 429, 429, 429]);
    expect(numbers.flatMap((phone) => gateway.to(phone))).toHaveLength(1);
  });

  it('removes the caller’s phone and voids a code waiting', async () => {
    const removed = await call('DELETE', '/user/phone', 'spray');
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toEqual({ phone: null, verifiedAt: null, pending: null });
    expect((await userRow('spray')).phone).toBeNull();
    expect(await auditOf('user.phoneRemove')).toEqual([
      { actor_name: 'spray@fieldlink.test', before: JSON.stringify({ phone: '+4477••••••01' }), after: null },
    ]);
    expect((await call('DELETE', '/user/phone', 'spray')).statusCode).toBe(404);
    // Water's code to the shared number is void once removed.
    expect((await call('DELETE', '/user/phone', 'water')).statusCode).toBe(200);
    expect((await call('GET', '/user/phone', 'water')).json()).toMatchObject({ pending: null });
  });
});

describe.each(DIALECTS)('A server without SMS on %s', (dialect) => {
  let t: TestApp;
  afterAll(() => t?.close());

  it('does not offer it: the console is told, the calls answer 404, and nothing is stored', async () => {
    t = await startTestApp(dialect);
    const config = (await t.app.inject({ method: 'GET', url: '/api/v1/client-config' })).json() as ClientConfig;
    expect(config.sms).toBe(false);
    const token = await signIn(t.app, 'spray@fieldlink.test');
    const calls: [string, string, object?][] = [
      ['GET', '/user/phone'],
      ['PUT', '/user/phone', { phone: '+447700900123' }],
      ['POST', '/user/phone/verify', { code: '123456' }],
    ];
    for (const [method, url, payload] of calls) {
      const answer = await t.app.inject({
        method: method as 'GET',
        url: `/api/v1${url}`,
        headers: { authorization: token },
        ...(payload && { payload }),
      });
      expect(answer.statusCode, url).toBe(404);
      expect(answer.json().message).toBe(SMS_NOT_CONFIGURED);
    }
    expect(await t.app.storage.db.selectFrom('phone_codes').selectAll().execute()).toEqual([]);
    const remove = await t.app.inject({
      method: 'DELETE',
      url: '/api/v1/user/phone',
      headers: { authorization: token },
    });
    expect(remove.statusCode).toBe(404);
    expect(remove.json().message).toBe('You have no phone number for SMS alerts.');
  });
});
