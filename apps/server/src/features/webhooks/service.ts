import { createHmac, randomBytes } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type {
  CreateWebhookBody,
  CreatedWebhook,
  UpdateWebhookBody,
  Webhook,
  WebhookDeliveriesAnswer,
  WebhookDelivery,
  WebhookListAnswer,
  WebhookListQuery,
  WebhookQuery,
} from '@fieldlink/api/webhooks';
import { alarmConditionText } from '@fieldlink/domain/alarms';
import {
  isDeliveredStatus,
  MAX_WEBHOOKS_PER_ACCOUNT,
  WEBHOOK_DELIVERIES_KEPT,
  WEBHOOK_TEST_EVENT,
  WEBHOOK_TIMEOUT_MS,
  webhookBody,
  webhookRetryAt,
  type WebhookDeliveredEvent,
  type WebhookEvent,
  type WebhookEventBody,
  type WebhookFormat,
} from '@fieldlink/domain/webhooks';
import { accountRootPath } from '../../db/account-paths';
import type { Database } from '../../db/schema';
import { HttpError, notFound } from '../../http-errors';
import type { JobQueue } from '../../jobs/job-queue';
import { checkOutboundUrl, sendOutbound, type OutboundPolicy } from '../../security/outbound-url';
import { newId } from '../../security/secrets';
import { accountsAbove, findAlarm } from '../alarms/repository';
import { toAlarmRecord } from '../alarms/mapper';
import { audit, byUser } from '../audit/service';
import { inScope, requireCapability } from '../session/access';
import type { UserContext } from '../session/user-context';
import {
  countWebhooks,
  deleteWebhook,
  findDelivery,
  findWebhook,
  insertDelivery,
  insertWebhook,
  newestDeliveries,
  trimDeliveries,
  updateDelivery,
  updateWebhook,
  webhooksOfAccounts,
  type DeliveryRow,
  type WebhookRow,
} from './repository';

/** The job that makes one attempt to deliver one event to one webhook. */
export const WEBHOOK_DELIVER_JOB = 'webhook.deliver';

/** The header that carries the body's signature: `sha256=<hex HMAC-SHA256 of the raw body>`. */
export const WEBHOOK_SIGNATURE_HEADER = 'x-fieldlink-signature';

export const WEBHOOK_NOT_FOUND = 'Webhook not found.';

/** Characters of a receiver's answer or of a failure's reason kept with a delivery. */
const DETAIL_CHARS = 300;

export interface WebhookServiceOptions {
  db: Kysely<Database>;
  jobs: JobQueue;
  /** Which addresses deliveries may reach (`FIELDLINK_WEBHOOK_ALLOW_PRIVATE`). */
  policy: OutboundPolicy;
  /** The console's address, linked from Slack and Teams messages. */
  publicUrl: string;
  now?: () => number;
  /** Milliseconds a receiver has to answer. */
  timeoutMs?: number;
}

/** An event of a device, on its way to the webhooks of its account and of the accounts above. */
export interface DeviceWebhookEvent {
  type: WebhookEvent;
  /** The device's group path (`./g1/g2/`): which accounts' webhooks hear of it. */
  devicePath: string;
  /** The device's own account, named in the body. */
  accountId: string;
  summary: string;
  data: Record<string, unknown>;
  at: number;
}

/** `sha256=<hex>` of the exact bytes sent. */
export function webhookSignature(secret: string, body: Buffer): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

function toWebhook(row: WebhookRow): Webhook {
  return {
    id: row.id,
    accountId: row.account_id,
    url: row.url,
    events: JSON.parse(row.events) as WebhookEvent[],
    format: row.format as WebhookFormat,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toDelivery(row: DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    webhookId: row.webhook_id,
    eventId: row.event_id,
    event: row.event as WebhookDeliveredEvent,
    at: row.at,
    state: row.state as WebhookDelivery['state'],
    attempts: row.attempts,
    lastAttemptAt: row.last_attempt_at,
    status: row.status,
    responseMs: row.response_ms,
    detail: row.detail,
    nextAttemptAt: row.next_attempt_at,
  };
}

/** What is audited of a webhook: never its secret. */
function auditedWebhook(row: WebhookRow) {
  return { url: row.url, events: JSON.parse(row.events) as unknown, format: row.format };
}

/**
 * An account's webhooks (issue 39 item 3): administrators add, change, test and remove them; events
 * of the account's devices become deliveries, each attempt a job in the jobs table, so one instance
 * of a cluster sends it, and a failure is tried again with growing pauses for 24 hours.
 */
export class WebhookService {
  private readonly now: () => number;

  constructor(private readonly options: WebhookServiceOptions) {
    this.now = options.now ?? Date.now;
    // Retries are the delivery's own (a new job per attempt, on the webhook schedule); a job that
    // throws (the database was away) is run again by the queue.
    options.jobs.register(WEBHOOK_DELIVER_JOB, (payload) =>
      this.deliver((payload as { deliveryId: string }).deliveryId),
    );
  }

  /** The account when the caller may manage its webhooks: administrators whose scope holds it. */
  private async managedAccount(caller: UserContext, accountId: string): Promise<string> {
    requireCapability(caller, 'manageWebhooks');
    const path = await accountRootPath(this.options.db, accountId);
    if (path === undefined || !inScope(caller, path)) throw notFound('Account not found.');
    return accountId;
  }

  /** A webhook the caller may manage, or 404 (one outside their scope is not admitted to exist). */
  private async managedWebhook(caller: UserContext, id: string): Promise<WebhookRow> {
    requireCapability(caller, 'manageWebhooks');
    const row = await findWebhook(this.options.db, id);
    const path = row && (await accountRootPath(this.options.db, row.account_id));
    if (!row || path === undefined || !inScope(caller, path)) throw notFound(WEBHOOK_NOT_FOUND);
    return row;
  }

  private async checkedUrl(url: string): Promise<string> {
    const check = await checkOutboundUrl(url, this.options.policy);
    if (!check.ok) throw new HttpError(400, check.reason);
    return url;
  }

  async list(caller: UserContext, query: WebhookListQuery): Promise<WebhookListAnswer> {
    const accountId = await this.managedAccount(caller, query.accountId);
    return { webhooks: (await webhooksOfAccounts(this.options.db, [accountId])).map(toWebhook) };
  }

  /** `POST /webhooks`: answers the secret this once; it is never shown again. */
  async create(caller: UserContext, body: CreateWebhookBody): Promise<CreatedWebhook> {
    const accountId = await this.managedAccount(caller, body.accountId);
    const url = await this.checkedUrl(body.url);
    const now = this.now();
    const row: WebhookRow = {
      id: newId(),
      account_id: accountId,
      url,
      events: JSON.stringify(body.events),
      format: body.format ?? 'json',
      secret: `whsec_${randomBytes(32).toString('base64url')}`,
      created_at: now,
      updated_at: now,
    };
    await this.options.db.transaction().execute(async (trx) => {
      if ((await countWebhooks(trx, accountId)) >= MAX_WEBHOOKS_PER_ACCOUNT) {
        throw new HttpError(409, `An account has at most ${MAX_WEBHOOKS_PER_ACCOUNT} webhooks.`);
      }
      await insertWebhook(trx, row);
      await audit.record(trx, {
        accountId,
        by: byUser(caller),
        action: 'webhook.add',
        target: { kind: 'webhook', id: row.id, name: row.url },
        after: auditedWebhook(row),
        at: now,
      });
    });
    return { ...toWebhook(row), secret: row.secret };
  }

  async update(caller: UserContext, query: WebhookQuery, body: UpdateWebhookBody): Promise<Webhook> {
    const before = await this.managedWebhook(caller, query.id);
    const changes = {
      ...(body.url !== undefined && { url: await this.checkedUrl(body.url) }),
      ...(body.events !== undefined && { events: JSON.stringify(body.events) }),
      ...(body.format !== undefined && { format: body.format }),
      updated_at: this.now(),
    };
    const after: WebhookRow = { ...before, ...changes };
    await this.options.db.transaction().execute(async (trx) => {
      await updateWebhook(trx, before.id, changes);
      await audit.record(trx, {
        accountId: before.account_id,
        by: byUser(caller),
        action: 'webhook.update',
        target: { kind: 'webhook', id: before.id, name: after.url },
        before: auditedWebhook(before),
        after: auditedWebhook(after),
        at: changes.updated_at,
      });
    });
    return toWebhook(after);
  }

  async remove(caller: UserContext, query: WebhookQuery): Promise<void> {
    const row = await this.managedWebhook(caller, query.id);
    await this.options.db.transaction().execute(async (trx) => {
      await deleteWebhook(trx, row.id);
      await audit.record(trx, {
        accountId: row.account_id,
        by: byUser(caller),
        action: 'webhook.delete',
        target: { kind: 'webhook', id: row.id, name: row.url },
        before: auditedWebhook(row),
        at: this.now(),
      });
    });
  }

  async deliveries(caller: UserContext, query: WebhookQuery): Promise<WebhookDeliveriesAnswer> {
    const row = await this.managedWebhook(caller, query.id);
    const rows = await newestDeliveries(this.options.db, row.id, WEBHOOK_DELIVERIES_KEPT);
    return { deliveries: rows.map(toDelivery) };
  }

  /**
   * `POST /webhooks/test`: sends a `webhook.test` event now and answers how it went. It is tried
   * once: whoever presses the button reads the answer and tries again.
   */
  async test(caller: UserContext, query: WebhookQuery): Promise<WebhookDelivery> {
    const webhook = await this.managedWebhook(caller, query.id);
    const at = this.now();
    const delivery = this.newDelivery(webhook, {
      id: newId(),
      type: WEBHOOK_TEST_EVENT,
      time: new Date(at).toISOString(),
      accountId: webhook.account_id,
      summary: `A test event from Fieldlink for the webhook ${webhook.url}.`,
      data: { webhookId: webhook.id },
    });
    await insertDelivery(this.options.db, delivery);
    await this.attempt(webhook, delivery, false);
    return toDelivery((await findDelivery(this.options.db, delivery.id))!);
  }

  private newDelivery(webhook: WebhookRow, event: WebhookEventBody): DeliveryRow {
    return {
      id: newId(),
      webhook_id: webhook.id,
      event_id: event.id,
      event: event.type,
      at: Date.parse(event.time),
      body: JSON.stringify(event),
      state: 'pending',
      attempts: 0,
      last_attempt_at: null,
      status: null,
      response_ms: null,
      detail: null,
      next_attempt_at: null,
    };
  }

  /**
   * Queues the event for every webhook of the device's account and of the accounts above that takes
   * it, in the caller's transaction: a delivery exists exactly when the change it reports does.
   * The caller nudges the job queue once the transaction is committed. Answers the deliveries queued.
   */
  async emit(trx: Transaction<Database>, event: DeviceWebhookEvent): Promise<number> {
    const webhooks = (await webhooksOfAccounts(trx, await accountsAbove(trx, event.devicePath))).filter((row) =>
      (JSON.parse(row.events) as string[]).includes(event.type),
    );
    if (webhooks.length === 0) return 0;
    const body: WebhookEventBody = {
      id: newId(),
      type: event.type,
      time: new Date(event.at).toISOString(),
      accountId: event.accountId,
      summary: event.summary,
      data: event.data,
    };
    for (const webhook of webhooks) {
      const delivery = this.newDelivery(webhook, body);
      await insertDelivery(trx, delivery);
      await this.options.jobs.enqueue(WEBHOOK_DELIVER_JOB, { deliveryId: delivery.id }, {}, trx);
    }
    return webhooks.length;
  }

  /** An alarm's event (raised, acknowledged, cleared), with the alarm as the alarms API gives it. */
  async emitAlarm(
    trx: Transaction<Database>,
    type: 'alarm.raised' | 'alarm.acknowledged' | 'alarm.cleared',
    alarmId: string,
  ): Promise<number> {
    const row = await findAlarm(trx, alarmId);
    if (!row) return 0;
    const alarm = toAlarmRecord(row);
    const at = {
      'alarm.raised': alarm.raisedAt,
      'alarm.acknowledged': alarm.acknowledgedAt,
      'alarm.cleared': alarm.clearedAt,
    }[type];
    return this.emit(trx, {
      type,
      devicePath: row.path,
      accountId: row.account_id,
      summary: `${alarm.deviceName} (${alarm.thingName}): ${alarm.channelName} ${alarmConditionText(alarm, alarm)}, severity ${alarm.severity}`,
      data: { alarm },
      at: at ?? this.now(),
    });
  }

  /** Runs one queued attempt of a delivery. */
  private async deliver(deliveryId: string): Promise<void> {
    const { db } = this.options;
    const delivery = await findDelivery(db, deliveryId);
    if (!delivery || delivery.state !== 'pending') return;
    const webhook = await findWebhook(db, delivery.webhook_id);
    if (!webhook) return;
    await this.attempt(webhook, delivery, true);
  }

  /** Sends the delivery once and records how it went; on failure queues the next attempt when `retry`. */
  private async attempt(webhook: WebhookRow, delivery: DeliveryRow, retry: boolean): Promise<void> {
    const { db, jobs, policy, publicUrl } = this.options;
    const event = JSON.parse(delivery.body) as WebhookEventBody;
    const body = Buffer.from(JSON.stringify(webhookBody(webhook.format as WebhookFormat, event, publicUrl)));
    const attempt = delivery.attempts + 1;
    const startedAt = this.now();
    const started = performance.now();
    let status: number | null = null;
    let detail: string;
    try {
      const answer = await sendOutbound({
        url: webhook.url,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Fieldlink-Webhooks/1',
          [WEBHOOK_SIGNATURE_HEADER]: webhookSignature(webhook.secret, body),
          'x-fieldlink-event': event.type,
          'x-fieldlink-event-id': event.id,
          'x-fieldlink-delivery': delivery.id,
          'x-fieldlink-attempt': String(attempt),
        },
        body,
        timeoutMs: this.options.timeoutMs ?? WEBHOOK_TIMEOUT_MS,
        policy,
      });
      status = answer.status;
      detail = answer.excerpt;
    } catch (error) {
      detail = error instanceof Error ? error.message : String(error);
    }
    const responseMs = Math.round(performance.now() - started);
    const delivered = status !== null && isDeliveredStatus(status);
    const next = delivered || !retry ? null : webhookRetryAt(delivery.at, attempt, this.now());
    const outcome = {
      state: delivered ? 'delivered' : next === null ? 'failed' : 'pending',
      attempts: attempt,
      last_attempt_at: startedAt,
      status,
      response_ms: responseMs,
      detail: detail.slice(0, DETAIL_CHARS) || null,
      next_attempt_at: next,
    };
    await db.transaction().execute(async (trx) => {
      await updateDelivery(trx, delivery.id, outcome);
      if (next !== null) await jobs.enqueue(WEBHOOK_DELIVER_JOB, { deliveryId: delivery.id }, { runAt: next }, trx);
      else await trimDeliveries(trx, webhook.id, WEBHOOK_DELIVERIES_KEPT);
    });
  }
}
