import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt, { type MqttClient } from 'mqtt';
import { deviceUpTopic } from '@fieldlink/api/mqtt-topics';
import type { AlarmRecord, AlertRecord, ChannelAlarm, DeviceAlarmsAnswer } from '@fieldlink/api/alarms';
import type { Device } from '@fieldlink/api/device';
import { demoFleet } from '../../seed/seed';
import { DIALECTS, signIn, startTestApp, type TestApp } from '../../../testing/test-app';
import { startMailCatcher } from '../../../testing/mail-catcher';
import { until } from '../../../testing/until';
import { withClusterTables } from '../../cluster/cluster-tables';
import { ALARM_JOBS } from './notices';
import { formatDateTimeInZone, SPEC_CLOCK_FORMAT } from '@fieldlink/domain/date-format';

/** A mail's text as read: quoted-printable soft line breaks joined, escaped bytes decoded. */
const bodyOf = (raw: string) =>
  raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

describe.each(DIALECTS)('channel alarms on %s', (dialect) => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startMailCatcher>>;
  let passwords: Map<string, string>;
  const clients: MqttClient[] = [];
  const tokens = new Map<string, string>();
  let pumpId: string;
  let sprayerId: string;
  const base = Date.now() - 60_000;

  const call = async (method: 'GET' | 'PUT' | 'POST', url: string, who: string, body?: object, query?: object) => {
    if (!tokens.has(who)) tokens.set(who, await signIn(t.app, `${who}@fieldlink.test`));
    return t.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: { authorization: tokens.get(who)! },
      ...(query && { query: query as Record<string, string> }),
      ...(body && { payload: body }),
    });
  };
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
  /** Publishes samples of c1 at `base + seconds`, each committed and evaluated before the next. */
  const publish = async (client: MqttClient, thingName: string, samples: [number, number][]) => {
    for (const [seconds, value] of samples) {
      const frame = { v: 4, type: 'log', t: base + seconds * 1000, values: { c1: value } };
      await client.publishAsync(deviceUpTopic(thingName), JSON.stringify(frame), { qos: 1 });
      await t.app.alarms.idle();
    }
  };
  const openAlarms = async (who = 'spray') =>
    ((await call('GET', '/alarms', who)).json() as { alarms: AlarmRecord[] }).alarms;
  const alarmConfig = (overrides: object = {}) => ({
    deviceId: pumpId,
    code: 'c1',
    enabled: true,
    high: 50,
    low: null,
    hysteresis: 5,
    delaySeconds: 2,
    severity: 'CRITICAL',
    ...overrides,
  });

  beforeAll(async () => {
    smtp = await startMailCatcher();
    t = await startTestApp(dialect, {
      mqtt: true,
      env: {
        SMTP_URL: smtp.url,
        FIELDLINK_ALARM_REMINDER_SECONDS: '1',
        FIELDLINK_ALARM_ESCALATION_SECONDS: '2',
        FIELDLINK_DISCONNECT_ALERT_SECONDS: '0',
      },
    });
    passwords = new Map((await demoFleet(t.app.storage.db)).map((device) => [device.thingName, device.password]));
    const id = async (thingName: string) =>
      (
        await t.app.storage.db
          .selectFrom('devices')
          .select('id')
          .where('thing_name', '=', thingName)
          .executeTakeFirstOrThrow()
      ).id;
    pumpId = await id('OSC-PUMP01');
    sprayerId = await id('OSC-SPR01');
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.endAsync(true).catch(() => undefined)));
    await t?.close();
    await smtp?.stop();
  });

  it('refuses a bad configuration, and one without permission or out of scope, changing nothing', async () => {
    const cases: [string, object, number, RegExp][] = [
      ['spray', alarmConfig({ low: 60 }), 400, /low threshold must be below/],
      ['spray', alarmConfig({ high: null }), 400, /needs a high or a low threshold/],
      ['spray', alarmConfig({ code: 'x!' }), 400, /code/],
      ['spray', alarmConfig({ severity: 'LOUD' }), 400, /severity/],
      ['spray', { ...alarmConfig(), extra: 1 }, 400, /additional/],
      ['viewer', alarmConfig(), 403, /permission/],
      ['moe', alarmConfig(), 404, /Device not found/],
    ];
    for (const [who, alarm, status, message] of cases) {
      const response = await call('PUT', '/device/alarm', who, { alarm });
      expect(response.statusCode, `${who} ${JSON.stringify(alarm)}`).toBe(status);
      expect(response.json().message).toMatch(message);
    }
    expect(await t.app.storage.db.selectFrom('alarm_configs').selectAll().execute()).toEqual([]);
    expect((await call('GET', '/device/alarms', 'moe', undefined, { deviceId: pumpId })).statusCode).toBe(404);
  });

  it('raises an alarm once a value stays past the threshold for the delay, and mails the Alarm Responders', async () => {
    const put = await call('PUT', '/device/alarm', 'spray', { alarm: alarmConfig() });
    expect(put.statusCode).toBe(200);
    expect((put.json() as ChannelAlarm).config).toMatchObject({ code: 'c1', high: 50, delaySeconds: 2 });
    // The device carries the alarm on its channel (core §3 channel `alarmData`); a channel without one says null.
    await t.app.storage.db
      .updateTable('devices')
      .set({ channels: JSON.stringify([{ code: 'c1' }, { code: 'c2' }, { code: 'do1' }]) })
      .where('id', '=', pumpId)
      .execute();
    const { channels } = (await call('GET', '/device', 'spray', undefined, { id: pumpId })).json() as Device;
    expect(channels.find((channel) => channel.code === 'c1')?.alarmData).toEqual(alarmConfig());
    const others = channels.filter((channel) => channel.code !== 'c1');
    expect(others.length).toBeGreaterThan(0);
    expect(others.map((channel) => channel.alarmData)).toEqual(others.map(() => null));

    // The pump's clock is set to Sydney time: its notices give their times in that zone, named.
    await t.app.storage.db
      .updateTable('devices')
      .set({ time_date: JSON.stringify({ tzName: 'Australia/Sydney' }) })
      .where('id', '=', pumpId)
      .execute();
    const pump = await connect('OSC-PUMP01');
    await publish(pump, 'OSC-PUMP01', [
      [0, 40],
      [1, 55],
      [2, 56],
    ]);
    expect(await openAlarms()).toEqual([]);
    const pending = (await call('GET', '/device/alarms', 'spray', undefined, { deviceId: pumpId })).json();
    expect((pending as DeviceAlarmsAnswer).alarms[0]!.phase).toBe('PENDING');

    await publish(pump, 'OSC-PUMP01', [[3, 57]]);
    const [alarm] = await openAlarms();
    expect(alarm).toMatchObject({
      thingName: 'OSC-PUMP01',
      code: 'c1',
      side: 'HIGH',
      severity: 'CRITICAL',
      value: 57,
      threshold: 50,
      raisedAt: base + 3000,
      status: 'ACTIVE_UNACKNOWLEDGED',
    });
    const device = (await call('GET', '/device/alarms', 'spray', undefined, { deviceId: pumpId })).json();
    expect(device).toMatchObject({
      alarmsHaveBeenRead: false,
      alarms: [{ phase: 'ACTIVE', current: { id: alarm!.id } }],
    });

    await until(() => smtp.to('spray@fieldlink.test', /^Alarm \(CRITICAL\): Pump house/).length === 1);
    const [mail] = smtp.to('spray@fieldlink.test', /^Alarm \(CRITICAL\)/);
    expect(mail!.raw).toMatch(/Value: 57, above 50/);
    // Day first, as in the console, with the zone named; never an ISO time.
    expect(bodyOf(mail!.raw)).toContain(
      `Raised: ${formatDateTimeInZone(base + 3000, { timeZone: 'Australia/Sydney', ...SPEC_CLOCK_FORMAT })}`,
    );
    expect(bodyOf(mail!.raw)).toMatch(
      /Raised: \d{2}\/\d{2}\/\d{2} \d{1,2}:\d{2}:\d{2} [ap]m Australia\/Sydney \(UTC\+1[01]:00\)/,
    );
    expect(bodyOf(mail!.raw)).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
    // Responders of the device's own account only: the supplier hears of it by escalation.
    expect(smtp.to('admin@fieldlink.test', /^Alarm /)).toEqual([]);
  });

  it('does not flap inside the hysteresis band', async () => {
    const pump = clients[0]!;
    await publish(pump, 'OSC-PUMP01', [
      [4, 49],
      [5, 46],
      [6, 52],
      [7, 45.5],
    ]);
    const alarms = await openAlarms();
    expect(alarms).toHaveLength(1);
    expect(alarms[0]!.status).toBe('ACTIVE_UNACKNOWLEDGED');
  });

  it('reminds while unacknowledged and escalates to the administrators above', async () => {
    await until(() => smtp.to('spray@fieldlink.test', /^Reminder: alarm \(CRITICAL\)/).length >= 1);
    await until(() => smtp.to('admin@fieldlink.test', /^Escalated: alarm \(CRITICAL\)/).length === 1);
    expect(smtp.to('brew@fieldlink.test', /alarm/i)).toEqual([]);
  });

  it('acknowledges only with ALARM and in scope; another account’s alarm is refused like a missing one', async () => {
    const [alarm] = await openAlarms();
    const viewer = await call('POST', '/alarms/acknowledge', 'viewer', { ids: [alarm!.id] });
    expect(viewer.statusCode).toBe(403);
    const foreign = await call('POST', '/alarms/acknowledge', 'moe', { ids: [alarm!.id] });
    const missing = await call('POST', '/alarms/acknowledge', 'moe', { ids: ['no-such-alarm'] });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body).toBe(missing.body);
    expect((await call('POST', '/alarms/acknowledge', 'spray', { ids: [alarm!.id, 'no-such-alarm'] })).statusCode).toBe(
      404,
    );
    expect((await call('POST', '/alarms/acknowledge', 'spray', { ids: [] })).statusCode).toBe(400);
    expect((await openAlarms())[0]!.acknowledgedAt).toBeNull();
    expect((await call('GET', '/alarms', 'moe')).json()).toEqual({ alarms: [] });

    const acknowledged = await call('POST', '/alarms/acknowledge', 'spray', { ids: [alarm!.id] });
    expect(acknowledged.statusCode).toBe(200);
    expect(acknowledged.json().alarms[0]).toMatchObject({
      status: 'ACTIVE_ACKNOWLEDGED',
      acknowledgedBy: 'spray@fieldlink.test',
    });
    const device = (await call('GET', '/device/alarms', 'spray', undefined, { deviceId: pumpId })).json();
    expect(device.alarmsHaveBeenRead).toBe(true);

    // Reminders stop: a job already running may still finish, nothing after it. Each reminder queues
    // the next; the first to run after the acknowledgement sends nothing and queues none, so the
    // chain's end is a condition to wait for, not a time. A reminder claimed before the
    // acknowledgement is mailed by a `mail.send` job of its own, which may still be queued then: the
    // count is taken once the outbox is sent too, or that mail would land after it.
    const reminderJobs = () =>
      withClusterTables(t.app.storage.db)
        .selectFrom('jobs')
        .select('id')
        .where('kind', '=', ALARM_JOBS.remind)
        .where('payload', 'like', `%${alarm!.id}%`)
        .execute();
    const unsentMails = () => t.app.storage.db.selectFrom('outbox').select('id').where('sent_at', 'is', null).execute();
    await until(async () => (await reminderJobs()).length === 0 && (await unsentMails()).length === 0);
    const reminders = smtp.to('spray@fieldlink.test', /^Reminder/).length;
    await t.app.jobs.runDue();
    expect(smtp.to('spray@fieldlink.test', /^Reminder/).length).toBe(reminders);
  });

  it('clears once the value is back past the threshold minus the hysteresis, and keeps the history', async () => {
    await publish(clients[0]!, 'OSC-PUMP01', [[8, 44]]);
    expect(await openAlarms()).toEqual([]);
    const history = (await call('GET', '/alarms', 'spray', undefined, { state: 'all' })).json().alarms as AlarmRecord[];
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({ status: 'CLEARED_ACKNOWLEDGED', clearedAt: base + 8000, clearedValue: 44 });
  });

  it('keeps a cleared, unacknowledged alarm open until acknowledged', async () => {
    await publish(clients[0]!, 'OSC-PUMP01', [
      [9, 60],
      [12, 61],
      [13, 10],
    ]);
    const [alarm] = await openAlarms();
    expect(alarm).toMatchObject({ status: 'CLEARED_UNACKNOWLEDGED', raisedAt: base + 12_000 });
    await call('POST', '/alarms/acknowledge', 'spray', { ids: [alarm!.id] });
    expect(await openAlarms()).toEqual([]);
  });

  it('alerts the disconnection of a device, except to those who muted it', async () => {
    const muted = await call('POST', '/device-config', 'spray', { id: sprayerId, props: { muteDisconnection: true } });
    expect(muted.statusCode).toBe(200);
    const sprayer = await connect('OSC-SPR01');
    await until(async () => {
      const row = await t.app.storage.db
        .selectFrom('devices')
        .select('is_connected')
        .where('id', '=', sprayerId)
        .executeTakeFirstOrThrow();
      return row.is_connected === 1;
    });
    await sprayer.endAsync(true);
    await clients[0]!.endAsync(true);

    await until(async () => ((await call('GET', '/alerts', 'spray')).json().alerts as AlertRecord[]).length === 2);
    const alerts = (await call('GET', '/alerts', 'spray')).json().alerts as AlertRecord[];
    expect(alerts.map((alert) => [alert.thingName, alert.kind, alert.muted, alert.resolvedAt]).sort()).toEqual([
      ['OSC-PUMP01', 'DISCONNECTED', false, null],
      ['OSC-SPR01', 'DISCONNECTED', true, null],
    ]);
    await until(() => smtp.to('spray@fieldlink.test', /^Disconnected: Pump house/).length === 1);
    expect(bodyOf(smtp.to('spray@fieldlink.test', /^Disconnected: Pump house/)[0]!.raw)).toMatch(
      /has been disconnected since \d{2}\/\d{2}\/\d{2} \d{1,2}:\d{2}:\d{2} [ap]m Australia\/Sydney \(UTC\+1[01]:00\)\./,
    );
    await t.app.jobs.runDue();
    expect(smtp.to('spray@fieldlink.test', /^Disconnected: Sprayer Row 1/)).toEqual([]);
    expect((await call('GET', '/alerts', 'viewer')).json()).toEqual({ alerts: [] });

    // Back online: the alert ends.
    await connect('OSC-PUMP01');
    await until(async () =>
      ((await call('GET', '/alerts', 'spray')).json().alerts as AlertRecord[]).some(
        (alert) => alert.thingName === 'OSC-PUMP01' && alert.resolvedAt !== null,
      ),
    );
  });
});
