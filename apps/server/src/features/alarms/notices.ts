import type { Kysely, Transaction } from 'kysely';
import {
  alarmConditionText,
  alarmResponders,
  disconnectionAudience,
  escalationAt,
  escalationAudience,
  needsResponse,
  nextReminderAt,
  type AlarmNoticePolicy,
  type NoticeDevice,
  type NoticeUser,
} from '@fieldlink/domain/alarms';
import type { Database } from '../../db/schema';
import type { JobQueue } from '../../jobs/job-queue';
import type { Mailer } from '../../mail/mailer';
import type { PushService } from '../push/service';
import type { SmsService } from '../sms/service';
import { alarmSmsText } from '@fieldlink/domain/sms';
import {
  alarmDeliveries,
  escalationDeliveries,
  escalationTarget,
  onCallAt,
  type NotificationChannel,
  type NotificationDelivery,
} from '@fieldlink/domain/notification-routing';
import type { AlarmSeverity } from '@fieldlink/domain/alarms';
import type { NotificationService } from '../notifications/service';
import type { AlarmLinks } from '../notifications/alarm-links';
import { formatChannelValue } from '@fieldlink/domain/channel-presentation';
import { formatDateTimeInZone, type ClockPreferences } from '@fieldlink/domain/date-format';
import { newId } from '../../security/secrets';
import { clockOf, toAttachmentPoint } from '../users/mapper';
import { readerClockOf } from '../users/reader-clock';
import { toAlarmRecord } from './mapper';
import type { WebhookService } from '../webhooks/service';
import { accountsAbove, findAlarm, insertAlertOnce, resolveAlerts, usersOfAccounts, type AlarmRow } from './repository';

/** Job kinds of alarm notices; each runs on exactly one instance (jobs/job-queue.ts). */
export const ALARM_JOBS = {
  raised: 'alarm.raised',
  remind: 'alarm.remind',
  escalate: 'alarm.escalate',
  disconnection: 'alert.disconnection',
  push: 'alarm.push',
  sms: 'alarm.sms',
} as const;

export interface AlarmNoticeOptions {
  db: Kysely<Database>;
  jobs: JobQueue;
  mailer: Mailer;
  /** Web Push to the browsers of the Alarm Responders (features/push). */
  push: PushService;
  /** SMS to the verified phones of the Alarm Responders (features/sms). */
  sms: SmsService;
  /** Names the sender in an SMS. */
  productName: string;
  publicUrl: string;
  policy: AlarmNoticePolicy;
  /** How long a device must stay disconnected before its alert is raised. */
  disconnectAlertMs: number;
  /** Told when an alert was recorded, so browsers can be told. */
  onAlert?: (deviceId: string) => void;
  /** Sends alarm and connection events to the accounts' webhooks. */
  webhooks: WebhookService;
  /** Who gets what: preferences, quiet hours and the on-call rota (issue 39 item 5). */
  notifications: NotificationService;
  /** One-time acknowledge links in mails, push notifications and text messages. */
  links: AlarmLinks;
  now?: () => number;
}

type NoticeUserRow = NoticeUser & { email: string; clock: ClockPreferences };

/** Mails the Alarm Responders when an alarm is raised, reminds and escalates while nobody answers, and raises disconnection alerts. */
export class AlarmNotices {
  constructor(private readonly options: AlarmNoticeOptions) {
    const { jobs } = options;
    jobs.register(ALARM_JOBS.raised, (payload) => this.onRaisedJob(payload as { alarmId: string }));
    // A job of its own beside the mail's: a mail retried never pushes twice, and pushes wait on no mail.
    jobs.register(ALARM_JOBS.push, (payload) => this.onPushJob(payload as { alarmId: string }));
    jobs.register(ALARM_JOBS.sms, (payload) => this.onSmsJob(payload as { alarmId: string }));
    jobs.register(ALARM_JOBS.remind, (payload) => this.onRemindJob(payload as { alarmId: string; sequence: number }));
    jobs.register(ALARM_JOBS.escalate, (payload) => this.onEscalateJob(payload as { alarmId: string; step?: number }));
    jobs.register(ALARM_JOBS.disconnection, (payload) =>
      this.onDisconnectionJob(payload as { deviceId: string; t: number }),
    );
  }

  /**
   * Queues the raise notice, the first reminder, the escalation and the webhooks' deliveries, in the
   * transaction that raised the alarm.
   */
  async scheduleForRaised(trx: Transaction<Database>, alarmId: string, raisedAt: number): Promise<void> {
    const { jobs, policy } = this.options;
    await this.options.webhooks.emitAlarm(trx, 'alarm.raised', alarmId);
    await jobs.enqueue(ALARM_JOBS.raised, { alarmId }, {}, trx);
    await jobs.enqueue(ALARM_JOBS.push, { alarmId }, {}, trx);
    if (this.options.sms.offered) await jobs.enqueue(ALARM_JOBS.sms, { alarmId }, {}, trx);
    await jobs.enqueue(
      ALARM_JOBS.remind,
      { alarmId, sequence: 1 },
      { runAt: nextReminderAt(raisedAt, 0, policy) },
      trx,
    );
    await jobs.enqueue(ALARM_JOBS.escalate, { alarmId }, { runAt: escalationAt(raisedAt, policy) }, trx);
  }

  /** Queues the webhooks' deliveries of alarms cleared or acknowledged, in the transaction that did it. */
  async alarmsChanged(
    trx: Transaction<Database>,
    type: 'alarm.cleared' | 'alarm.acknowledged',
    alarmIds: readonly string[],
  ): Promise<void> {
    for (const alarmId of alarmIds) await this.options.webhooks.emitAlarm(trx, type, alarmId);
  }

  /** Looks for due jobs now: call once the transaction that queued notices is committed. */
  nudge(): void {
    this.options.jobs.nudge();
  }

  /**
   * The device is connected again: its open disconnection alerts are resolved, and when one was
   * raised (its delay had passed, its webhooks were told) the webhooks hear that it is back.
   */
  async reconnected(deviceId: string, t: number): Promise<void> {
    const { db } = this.options;
    const told = await db.transaction().execute(async (trx) => {
      if ((await resolveAlerts(trx, deviceId, 'DISCONNECTED', t)) === 0) return 0;
      const device = await this.deviceOf(trx, deviceId);
      if (!device) return 0;
      return this.options.webhooks.emit(trx, {
        type: 'device.connected',
        devicePath: device.path,
        accountId: device.account_id,
        summary: `${device.name} (${device.thing_name}) is connected again.`,
        data: { device: { id: device.id, thingName: device.thing_name, name: device.name }, connectedAt: t },
        at: t,
      });
    });
    if (told > 0) this.nudge();
  }

  private deviceOf(db: Kysely<Database> | Transaction<Database>, deviceId: string) {
    return db
      .selectFrom('devices')
      .innerJoin('groups', 'groups.id', 'devices.group_id')
      .select([
        'devices.id',
        'devices.name',
        'devices.thing_name',
        'devices.account_id',
        'devices.is_connected',
        'devices.last_disconnection',
        'devices.time_date',
        'devices.health',
        'groups.path',
      ])
      .where('devices.id', '=', deviceId)
      .executeTakeFirst();
  }

  /** Queues the check that raises a disconnection alert if the device is still away after the grace time. */
  async scheduleDisconnection(deviceId: string, t: number): Promise<void> {
    await this.options.jobs.enqueue(
      ALARM_JOBS.disconnection,
      { deviceId, t },
      { runAt: t + this.options.disconnectAlertMs },
    );
    this.options.jobs.nudge();
  }

  private async onRaisedJob({ alarmId }: { alarmId: string }): Promise<void> {
    const alarm = await findAlarm(this.options.db, alarmId);
    if (!alarm) return;
    const users = alarmResponders(await this.usersAbove(alarm.path), this.noticeDevice(alarm));
    await this.mailAll(await this.reached(users, alarm, 'email'), alarm, 'raised');
  }

  /**
   * The users of the audience a channel carries this alarm to now: each one's choice, quiet hours and
   * the account's rota (packages/domain notification-routing).
   */
  private async reached<U extends { id: string }>(
    users: readonly U[],
    alarm: AlarmRow,
    channel: NotificationChannel,
  ): Promise<U[]> {
    const { notifications } = this.options;
    const [responders, rota] = await Promise.all([
      notifications.routedUsers(users.map((user) => user.id)),
      notifications.rotaOf(alarm.account_id),
    ]);
    const at = this.now();
    const deliveries = alarmDeliveries({
      responders,
      severity: alarm.severity as AlarmSeverity,
      onCall: onCallAt(rota, at),
      at,
    });
    return onChannel(users, deliveries, channel);
  }

  /** Pushes the raised alarm to the browsers of its audience, by the same rule as its mail. */
  private async onPushJob({ alarmId }: { alarmId: string }): Promise<void> {
    const row = await findAlarm(this.options.db, alarmId);
    if (!row) return;
    const users = alarmResponders(await this.usersAbove(row.path), this.noticeDevice(row));
    await this.pushAll(await this.reached(users, row, 'push'), row, 'Alarm');
  }

  /** One push per user: each carries that user's own acknowledge link. */
  private async pushAll(users: readonly { id: string }[], row: AlarmRow, prefix: string): Promise<void> {
    const alarm = toAlarmRecord(row);
    for (const user of users) {
      await this.options.push.notifyUsers([user.id], {
        title: `${prefix} (${alarm.severity}): ${alarm.deviceName}`,
        body: `${alarm.channelName}: ${formatChannelValue(alarm, alarm.value)}, ${alarmConditionText(alarm, alarm)}`,
        url: `/dash/${encodeURIComponent(alarm.thingName)}`,
        tag: `alarm-${row.id}`,
        acknowledgeUrl: this.options.links.urlFor(row.id, user.id),
      });
    }
  }

  /**
   * Texts the raised alarm to those of its audience who chose text messages for it and have a
   * verified phone (the same audience and routing rule as the mail and the push).
   */
  private async onSmsJob({ alarmId }: { alarmId: string }): Promise<void> {
    const row = await findAlarm(this.options.db, alarmId);
    if (!row) return;
    const users = await this.reached(
      alarmResponders(await this.usersAbove(row.path), this.noticeDevice(row)),
      row,
      'sms',
    );
    if (users.length === 0) return;
    const alarm = toAlarmRecord(row);
    // Each person's text ends with their own acknowledge link, so a reply from the phone needs no sign-in.
    const textFor = (userId: string) =>
      alarmSmsText({
        productName: this.options.productName,
        severity: alarm.severity,
        deviceName: alarm.deviceName,
        thingName: alarm.thingName,
        channelName: alarm.channelName,
        value: formatChannelValue(alarm, alarm.value),
        condition: alarmConditionText(alarm, alarm),
        link: this.options.links.urlFor(row.id, userId),
      });
    await this.options.sms.notifyAlarm(
      users.map((user) => user.id),
      alarmId,
      textFor,
    );
  }

  private async onRemindJob({ alarmId, sequence }: { alarmId: string; sequence: number }): Promise<void> {
    const { db, jobs, policy } = this.options;
    const alarm = await findAlarm(db, alarmId);
    if (!alarm || !needsResponse(this.times(alarm))) return;
    // Claimed once by sequence number: a job run again after a lost lease sends nothing twice.
    const claimed = await db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable('alarms')
        .set({ reminders_sent: sequence })
        .where('id', '=', alarmId)
        .where('reminders_sent', '=', sequence - 1)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) return false;
      await jobs.enqueue(
        ALARM_JOBS.remind,
        { alarmId, sequence: sequence + 1 },
        { runAt: nextReminderAt(alarm.raised_at, sequence, policy) },
        trx,
      );
      return true;
    });
    if (!claimed) return;
    const users = alarmResponders(await this.usersAbove(alarm.path), this.noticeDevice(alarm));
    await this.mailAll(await this.reached(users, alarm, 'email'), alarm, 'reminder');
  }

  /**
   * Step 1 (after the escalation delay) mails the administrators above, as before the rota; every
   * step also moves the alarm to the rota's next person, and queues the step after while the rota
   * has someone left. Each step is claimed once by number: a job run again sends nothing twice.
   */
  private async onEscalateJob({ alarmId, step = 1 }: { alarmId: string; step?: number }): Promise<void> {
    const { db, jobs, policy, notifications } = this.options;
    const alarm = await findAlarm(db, alarmId);
    if (!alarm || !needsResponse(this.times(alarm))) return;
    const rota = await notifications.rotaOf(alarm.account_id);
    const claimed = await db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable('alarms')
        .set(step === 1 ? { escalated_at: this.now(), escalation_steps: 1 } : { escalation_steps: step })
        .where('id', '=', alarmId)
        .where('escalation_steps', '=', step - 1)
        .$if(step === 1, (query) => query.where('escalated_at', 'is', null))
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) return false;
      if (escalationTarget(rota, alarm.raised_at, step + 1) !== null) {
        await jobs.enqueue(
          ALARM_JOBS.escalate,
          { alarmId, step: step + 1 },
          { runAt: alarm.raised_at + (step + 1) * policy.escalationDelayMs },
          trx,
        );
      }
      return true;
    });
    if (!claimed) return;
    this.nudge();
    const everyone = await this.usersAbove(alarm.path);
    if (step === 1) await this.mailAll(escalationAudience(everyone, this.noticeDevice(alarm)), alarm, 'escalation');
    const targetId = escalationTarget(rota, alarm.raised_at, step);
    // The next person must still answer for this device: one who lost it is passed over.
    const target = alarmResponders(everyone, this.noticeDevice(alarm)).find((user) => user.id === targetId);
    if (!target) return;
    const [routed] = await notifications.routedUsers([target.id]);
    const deliveries = escalationDeliveries(routed!, alarm.severity as AlarmSeverity);
    await this.mailAll(onChannel([target], deliveries, 'email'), alarm, 'onCall');
    await this.pushAll(onChannel([target], deliveries, 'push'), alarm, 'Escalated: alarm');
  }

  private async onDisconnectionJob({ deviceId, t }: { deviceId: string; t: number }): Promise<void> {
    const { db, mailer, publicUrl } = this.options;
    const device = await this.deviceOf(db, deviceId);
    // Back online, or gone away again since: this disconnection is over or another job has it.
    if (!device || device.is_connected === 1 || device.last_disconnection !== t) return;
    const raised = await db.transaction().execute(async (trx) => {
      if (!(await insertAlertOnce(trx, { id: newId(), deviceId, kind: 'DISCONNECTED', t }))) return false;
      await this.options.webhooks.emit(trx, {
        type: 'device.disconnected',
        devicePath: device.path,
        accountId: device.account_id,
        summary: `${device.name} (${device.thing_name}) has been disconnected since ${new Date(t).toISOString()}.`,
        data: { device: { id: device.id, thingName: device.thing_name, name: device.name }, disconnectedAt: t },
        at: t,
      });
      return true;
    });
    if (!raised) return;
    this.nudge();
    this.options.onAlert?.(deviceId);
    const users = disconnectionAudience(await this.usersAbove(device.path), {
      accountId: device.account_id,
      thingName: device.thing_name,
      path: device.path,
    });
    for (const user of users) {
      await mailer.send({
        to: user.email,
        subject: `Disconnected: ${device.name}`,
        text:
          `${device.name} (${device.thing_name}) has been disconnected since ${formatDateTimeInZone(t, readerClockOf(user.clock, device))}.\n\n` +
          `Alerts: ${publicUrl}/alerts\nDevice: ${publicUrl}/dash/${encodeURIComponent(device.thing_name)}\n\n` +
          'You receive this as an Alarm Responder. Mute the device’s disconnection alerts in its panel to stop them.',
        link: `${publicUrl}/alerts`,
      });
    }
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  private times(alarm: AlarmRow) {
    return { raisedAt: alarm.raised_at, clearedAt: alarm.cleared_at, acknowledgedAt: alarm.acknowledged_at };
  }

  private noticeDevice(alarm: AlarmRow): NoticeDevice {
    return { accountId: alarm.account_id, thingName: alarm.thing_name, path: alarm.path };
  }

  /** Users of the device's account and of the accounts above it, with their attachment points in order. */
  private async usersAbove(devicePath: string): Promise<NoticeUserRow[]> {
    const rows = await usersOfAccounts(this.options.db, await accountsAbove(this.options.db, devicePath));
    const users = new Map<string, NoticeUserRow>();
    for (const row of rows) {
      const user = users.get(row.user_id) ?? {
        id: row.user_id,
        email: row.email,
        mutedDevices: JSON.parse(row.muted_devices) as string[],
        clock: clockOf(row),
        attachmentPoints: [],
      };
      (user.attachmentPoints as NoticeUser['attachmentPoints'][number][]).push({
        accountId: row.account_id,
        ...toAttachmentPoint(row),
      });
      users.set(row.user_id, user);
    }
    return [...users.values()];
  }

  private async mailAll(
    users: readonly NoticeUserRow[],
    row: AlarmRow,
    kind: 'raised' | 'reminder' | 'escalation' | 'onCall',
  ): Promise<void> {
    const { mailer, publicUrl } = this.options;
    const alarm = toAlarmRecord(row);
    const crossed = alarmConditionText(alarm, alarm);
    const value = formatChannelValue(alarm, alarm.value);
    const prefix = {
      raised: 'Alarm',
      reminder: 'Reminder: alarm',
      escalation: 'Escalated: alarm',
      onCall: 'Escalated: alarm',
    }[kind];
    const device = await this.options.db
      .selectFrom('devices')
      .select(['time_date', 'health'])
      .where('id', '=', row.device_id)
      .executeTakeFirst();
    const lead = {
      raised: 'An alarm was raised',
      reminder: 'This alarm is still active and nobody has acknowledged it',
      escalation: 'This alarm has been active and unacknowledged too long, so it now reaches you as an administrator',
      onCall: 'Nobody on call has acknowledged this alarm, so it now moves to you as the next person on the rota',
    }[kind];
    for (const user of users) {
      const raisedAt = formatDateTimeInZone(alarm.raisedAt, readerClockOf(user.clock, device));
      await mailer.send({
        to: user.email,
        subject: `${prefix} (${alarm.severity}): ${alarm.deviceName} ${alarm.channelName} ${crossed}`,
        text:
          `${lead}.\n\n` +
          `Device: ${alarm.deviceName} (${alarm.thingName})\n` +
          `Channel: ${alarm.channelName} (${alarm.code})\n` +
          `Value: ${value}, ${crossed}\n` +
          `Severity: ${alarm.severity}\n` +
          `Raised: ${raisedAt}\n\n` +
          `Acknowledge it now (no sign-in needed, works once for a day): ${this.options.links.urlFor(row.id, user.id)}\n` +
          `Or in the console: ${publicUrl}/alarms\n` +
          `Device: ${publicUrl}/dash/${encodeURIComponent(alarm.thingName)}\n`,
        link: `${publicUrl}/alarms`,
      });
    }
  }
}

/** The users whom the deliveries reach on this channel, in the audience's order. */
function onChannel<U extends { id: string }>(
  users: readonly U[],
  deliveries: readonly NotificationDelivery[],
  channel: NotificationChannel,
): U[] {
  const reached = new Set(deliveries.filter((delivery) => delivery.channel === channel).map((d) => d.userId));
  return users.filter((user) => reached.has(user.id));
}
