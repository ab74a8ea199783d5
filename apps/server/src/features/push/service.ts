import type { Kysely } from 'kysely';
import type {
  PushNotice,
  PushSubscriptionBody,
  PushSubscriptionsAnswer,
  PushTestAnswer,
  PushUnsubscribeBody,
} from '@fieldlink/api/push';
import type { Database, PushSubscriptionsTable } from '../../db/schema';
import type { JobQueue } from '../../jobs/job-queue';
import { HttpError, notFound } from '../../http-errors';
import { checkOutboundUrl, type OutboundPolicy } from '../../security/outbound-url';
import { RateLimiter } from '../../security/rate-limit';
import { newId } from '../../security/secrets';
import type { UserContext } from '../session/user-context';
import { audit, byUser } from '../audit/service';
import {
  deleteSubscriptions,
  deleteUserSubscription,
  findSubscription,
  subscriptionsOfUser,
  subscriptionsOfUsers,
  upsertSubscription,
} from './repository';
import type { PushOutcome, PushSender } from './sender';

/** Job kind of one push message to one subscription; each runs on exactly one instance. */
export const PUSH_SEND_JOB = 'push.send';

/** Browsers one user may have notifications on; a further one replaces the user's oldest. */
export const MAX_PUSH_SUBSCRIPTIONS_PER_USER = 10;

/** Test notifications one user may send a minute (each calls every push service of theirs). */
const TEST_PUSHES_PER_MINUTE = 5;

export interface PushLogger {
  warn(object: object, message: string): void;
}

export interface PushServiceOptions {
  db: Kysely<Database>;
  jobs: JobQueue;
  sender: PushSender;
  policy: OutboundPolicy;
  productName: string;
  logger: PushLogger;
  now?: () => number;
}

/**
 * Web Push (issue 39 item 2): the browsers that turned notifications on, per user, and the delivery
 * of notices to them through the jobs table, so a cluster sends each message once and a push service
 * that is briefly away gets it on a retry.
 */
export class PushService {
  private readonly tests: RateLimiter;
  private readonly now: () => number;

  constructor(private readonly options: PushServiceOptions) {
    this.now = options.now ?? Date.now;
    this.tests = new RateLimiter(TEST_PUSHES_PER_MINUTE, 60_000, this.now);
    options.jobs.register(PUSH_SEND_JOB, (payload) =>
      this.onSendJob(payload as { subscriptionId: string; notice: PushNotice }),
    );
  }

  /** Saves this browser's subscription for the caller (the endpoint checked like any outbound URL). */
  async subscribe(user: UserContext, body: PushSubscriptionBody): Promise<PushSubscriptionsAnswer> {
    const { db, policy } = this.options;
    // Browsers' push services are all https; plain http only where private addresses are allowed (tests, on-premise).
    if (!policy.allowPrivate && !body.endpoint.startsWith('https://')) {
      throw new HttpError(400, 'A push endpoint must begin with https://.');
    }
    const check = await checkOutboundUrl(body.endpoint, policy);
    if (!check.ok) throw new HttpError(400, check.reason);
    const count = await db.transaction().execute(async (trx) => {
      await upsertSubscription(trx, {
        id: newId(),
        user_id: user.id,
        endpoint: body.endpoint,
        p256dh: body.keys.p256dh,
        auth: body.keys.auth,
        created_at: this.now(),
      });
      const rows = await subscriptionsOfUser(trx, user.id);
      const excess = rows.slice(0, Math.max(0, rows.length - MAX_PUSH_SUBSCRIPTIONS_PER_USER));
      await deleteSubscriptions(
        trx,
        excess.map((row) => row.id),
      );
      await audit.record(trx, this.auditEntry(user, 'user.pushOn', body.endpoint));
      return rows.length - excess.length;
    });
    return { subscriptions: count };
  }

  /** Removes the caller's subscription with this endpoint. */
  async unsubscribe(user: UserContext, body: PushUnsubscribeBody): Promise<PushSubscriptionsAnswer> {
    const { db } = this.options;
    const removed = await db.transaction().execute(async (trx) => {
      if (!(await deleteUserSubscription(trx, user.id, body.endpoint))) return false;
      await audit.record(trx, this.auditEntry(user, 'user.pushOff', body.endpoint));
      return true;
    });
    if (!removed) throw notFound('This browser has no notifications on for you.');
    return { subscriptions: (await subscriptionsOfUser(db, user.id)).length };
  }

  /** Sends a test notification to every subscription of the caller, now, and says what became of it. */
  async test(user: UserContext): Promise<PushTestAnswer> {
    if (!this.tests.reserve(user.id)) {
      throw new HttpError(429, `At most ${TEST_PUSHES_PER_MINUTE} test notifications a minute. Please wait a moment.`);
    }
    const rows = await subscriptionsOfUser(this.options.db, user.id);
    const notice: PushNotice = {
      title: `${this.options.productName}: test notification`,
      body: 'Notifications are on for this browser. Alarms of your devices will show here.',
      url: '/alarms',
      tag: 'fieldlink-test',
    };
    const outcomes = await Promise.all(rows.map((row) => this.deliver(row, notice)));
    const count = (kind: PushOutcome['kind'][]) => outcomes.filter((outcome) => kind.includes(outcome.kind)).length;
    return { sent: count(['sent']), removed: count(['gone']), failed: count(['retry', 'refused']) };
  }

  /**
   * Queues the notice for every subscription of these users, in one transaction: one job per browser,
   * so a browser whose push service is away is retried alone and nobody else hears it twice.
   */
  async notifyUsers(userIds: readonly string[], notice: PushNotice): Promise<number> {
    const { db, jobs } = this.options;
    const rows = await subscriptionsOfUsers(db, userIds);
    if (rows.length === 0) return 0;
    await db.transaction().execute(async (trx) => {
      for (const row of rows) {
        await jobs.enqueue(PUSH_SEND_JOB, { subscriptionId: row.id, notice }, { maxAttempts: 5 }, trx);
      }
    });
    jobs.nudge();
    return rows.length;
  }

  private async onSendJob({ subscriptionId, notice }: { subscriptionId: string; notice: PushNotice }): Promise<void> {
    const row = await findSubscription(this.options.db, subscriptionId);
    if (!row) return; // turned off since
    const outcome = await this.deliver(row, notice);
    // Thrown, the job is tried again with back-off (jobs/job-queue.ts); anything else is final.
    if (outcome.kind === 'retry') throw new Error(outcome.reason);
  }

  /**
   * The trail names the push service (its origin), not the whole endpoint: the endpoint is what lets
   * anyone send to that browser, and the trail is read by administrators.
   */
  private auditEntry(user: UserContext, action: 'user.pushOn' | 'user.pushOff', endpoint: string) {
    return {
      accountId: user.attachmentPoints[0]?.accountId ?? null,
      by: byUser(user),
      action,
      target: { kind: 'user', id: user.id, name: user.email },
      after: { pushService: new URL(endpoint).origin },
    };
  }

  /** Sends one message; a subscription its push service says is gone is removed. */
  private async deliver(row: PushSubscriptionsTable, notice: PushNotice): Promise<PushOutcome> {
    const outcome = await this.options.sender.send(row, notice);
    if (outcome.kind === 'gone') await deleteSubscriptions(this.options.db, [row.id]);
    if (outcome.kind === 'refused') {
      this.options.logger.warn({ subscription: row.id, reason: outcome.reason }, 'Push message refused');
    }
    return outcome;
  }
}
