import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { PhoneAnswer, PhoneBody, PhoneCodeBody } from '@fieldlink/api/phone';
import type { SmsReach } from '@fieldlink/domain/notification-routing';
import { PHONE_CODE_LIMITS, maskedPhone, phoneCodeSendRefusal, phoneCodeText, smsRetryAt } from '@fieldlink/domain/sms';
import type { Database } from '../../db/schema';
import { HttpError, notFound } from '../../http-errors';
import type { JobQueue } from '../../jobs/job-queue';
import { lockLimitedWork } from '../../db/quota-lock';
import { newId } from '../../security/secrets';
import { audit, byUser } from '../audit/service';
import { requireCapability } from '../session/access';
import type { UserContext } from '../session/user-context';
import type { SmsSender } from './sender';

/** Job kind of one attempt to send one alarm SMS; each runs on exactly one instance. */
export const SMS_SEND_JOB = 'sms.send';

/** The answer of every phone call on a server without `SMS_URL`. */
export const SMS_NOT_CONFIGURED = 'SMS alerts are not set up on this server.';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Characters of a gateway's answer kept with a message. */
const DETAIL_CHARS = 300;

export interface SmsLogger {
  warn(object: object, message: string): void;
}

export interface SmsServiceOptions {
  db: Kysely<Database>;
  jobs: JobQueue;
  /** Null: the server has no SMS (`SMS_URL` unset); the phone calls answer 404. */
  sender: SmsSender | null;
  /** Key of the codes' HMAC (an installation secret): a stolen table does not give the codes away. */
  codeKey: string;
  productName: string;
  logger: SmsLogger;
  now?: () => number;
}

/**
 * SMS alerts (issue 39 item 4): each user's phone, verified with a code sent to it, and alarm SMS to
 * verified phones through the jobs table, so a cluster sends each once and a gateway that is away or
 * says 429 gets it again later (its `Retry-After` honoured), while a refusal (another 4xx) is final.
 */
export class SmsService {
  private readonly now: () => number;

  constructor(private readonly options: SmsServiceOptions) {
    this.now = options.now ?? Date.now;
    options.jobs.register(SMS_SEND_JOB, (payload) => this.onSendJob((payload as { messageId: string }).messageId));
  }

  /** Whether alarms can go by SMS here. */
  get offered(): boolean {
    return this.options.sender !== null;
  }

  /** Whether a text message can reach this user: SMS set up here, and their phone verified. */
  async reach(userId: string): Promise<SmsReach> {
    const row = await this.options.db
      .selectFrom('users')
      .select('phone_verified_at')
      .where('id', '=', userId)
      .executeTakeFirst();
    return { smsConfigured: this.offered, phoneVerified: (row?.phone_verified_at ?? null) !== null };
  }

  private sender(user: UserContext): SmsSender {
    requireCapability(user, 'manageOwnCredentials');
    if (!this.options.sender) throw notFound(SMS_NOT_CONFIGURED);
    return this.options.sender;
  }

  /** The code's hash, bound to the user and the number it was sent to. */
  private codeHash(userId: string, phone: string, code: string): string {
    return createHmac('sha256', this.options.codeKey).update(`${userId}\n${phone}\n${code}`).digest('base64url');
  }

  /** `GET /user/phone`. */
  async status(user: UserContext): Promise<PhoneAnswer> {
    this.sender(user);
    return this.answer(user.id);
  }

  private async answer(userId: string): Promise<PhoneAnswer> {
    const { db } = this.options;
    const row = await db
      .selectFrom('users')
      .select(['phone', 'phone_verified_at'])
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    const code = await this.waitingCode(userId);
    return {
      phone: row.phone,
      verifiedAt: row.phone_verified_at,
      pending: code ? { phone: code.phone, expiresAt: code.expires_at } : null,
    };
  }

  /** The user's newest code while it can still be entered. */
  private async waitingCode(userId: string) {
    const code = await this.options.db
      .selectFrom('phone_codes')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
    const usable =
      code &&
      code.used_at === null &&
      code.expires_at > this.now() &&
      code.attempts < PHONE_CODE_LIMITS.attemptsPerCode;
    return usable ? code : undefined;
  }

  /**
   * `PUT /user/phone`: sends a code to the number, within the send limits (per user, per number and
   * for the installation, counted from the table so they hold across a cluster). The number becomes
   * the user's only once the code comes back; until then alarms keep going to the verified one.
   */
  async setPhone(user: UserContext, body: PhoneBody): Promise<PhoneAnswer> {
    const sender = this.sender(user);
    const { db } = this.options;
    const now = this.now();
    const current = await db.selectFrom('users').select('phone').where('id', '=', user.id).executeTakeFirstOrThrow();
    if (current.phone === body.phone) throw new HttpError(409, 'This number is already verified for your SMS alerts.');
    const code = String(randomInt(0, 10 ** PHONE_CODE_LIMITS.digits)).padStart(PHONE_CODE_LIMITS.digits, '0');
    const id = newId();
    await db.transaction().execute(async (trx) => {
      // The limits count rows and then add one: parallel requests, on any instance, take turns.
      await lockLimitedWork(trx, ['phone-codes']);
      const count = async (column: 'user_id' | 'phone' | null, value: string, since: number) =>
        Number(
          (
            await trx
              .selectFrom('phone_codes')
              .select((eb) => eb.fn.countAll().as('n'))
              .$if(column !== null, (query) => query.where(column!, '=', value))
              .where('created_at', '>', since)
              .executeTakeFirstOrThrow()
          ).n,
        );
      const last = await trx
        .selectFrom('phone_codes')
        .select((eb) => eb.fn.max('created_at').as('at'))
        .where('user_id', '=', user.id)
        .executeTakeFirst();
      const refusal = phoneCodeSendRefusal(
        {
          lastSentToUserAt: last?.at == null ? null : Number(last.at),
          sentToUserInLastHour: await count('user_id', user.id, now - HOUR),
          sentToNumberInLastDay: await count('phone', body.phone, now - DAY),
          sentByInstallationInLastHour: await count(null, '', now - HOUR),
        },
        now,
      );
      if (refusal) throw new HttpError(429, refusal.message, { 'retry-after': String(refusal.retryAfterSeconds) });
      // A day's rows are what the limits count; older ones are of no use.
      await trx
        .deleteFrom('phone_codes')
        .where('created_at', '<', now - DAY)
        .execute();
      // Only the newest code counts: one sent before is void.
      await trx
        .updateTable('phone_codes')
        .set({ expires_at: now })
        .where('user_id', '=', user.id)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .execute();
      await trx
        .insertInto('phone_codes')
        .values({
          id,
          user_id: user.id,
          phone: body.phone,
          code_hash: this.codeHash(user.id, body.phone, code),
          created_at: now,
          expires_at: now + PHONE_CODE_LIMITS.ttlMs,
          attempts: 0,
          used_at: null,
        })
        .execute();
      await audit.record(trx, this.auditEntry(user, 'user.phoneCode', { after: { phone: maskedPhone(body.phone) } }));
    });
    // Sent while the caller waits, so a number the gateway refuses is said at once. The send counts
    // against the limits either way: a failing number cannot be tried without end.
    const outcome = await sender.send(body.phone, phoneCodeText(this.options.productName, code));
    if (outcome.kind !== 'sent') {
      await db.updateTable('phone_codes').set({ expires_at: now }).where('id', '=', id).execute();
      if (outcome.kind === 'refused') {
        this.options.logger.warn({ userId: user.id, reason: outcome.reason }, 'Verification SMS refused');
        throw new HttpError(400, `The code could not be sent to ${body.phone}. ${outcome.reason}`);
      }
      this.options.logger.warn({ userId: user.id, reason: outcome.reason }, 'Verification SMS not sent');
      throw new HttpError(503, 'The SMS service cannot be reached just now. Please try again in a few minutes.');
    }
    return this.answer(user.id);
  }

  /** `POST /user/phone/verify`: the code makes its number the user's; each code works once. */
  async verify(user: UserContext, body: PhoneCodeBody): Promise<PhoneAnswer> {
    this.sender(user);
    const { db } = this.options;
    const now = this.now();
    const newest = await db
      .selectFrom('phone_codes')
      .selectAll()
      .where('user_id', '=', user.id)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
    if (!newest || newest.used_at !== null) {
      throw new HttpError(400, 'No code is waiting to be entered. Ask for a new one.');
    }
    if (newest.expires_at <= now) throw new HttpError(400, 'This code has expired. Ask for a new one.');
    // The attempt is counted before the code is compared, in one step: parallel guesses cannot overrun it.
    const counted = await db
      .updateTable('phone_codes')
      .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
      .where('id', '=', newest.id)
      .where('attempts', '<', PHONE_CODE_LIMITS.attemptsPerCode)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    if (Number(counted.numUpdatedRows) !== 1) {
      throw new HttpError(429, 'Too many wrong codes. Ask for a new one.');
    }
    const given = Buffer.from(this.codeHash(user.id, newest.phone, body.code));
    if (!timingSafeEqual(given, Buffer.from(newest.code_hash))) {
      const left = PHONE_CODE_LIMITS.attemptsPerCode - newest.attempts - 1;
      throw new HttpError(
        400,
        left > 0 ? `The code is not right. ${left} tries left.` : 'The code is not right. Ask for a new one.',
      );
    }
    await db.transaction().execute(async (trx) => {
      const used = await trx
        .updateTable('phone_codes')
        .set({ used_at: now })
        .where('id', '=', newest.id)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      if (Number(used.numUpdatedRows) !== 1)
        throw new HttpError(400, 'No code is waiting to be entered. Ask for a new one.');
      const before = await trx.selectFrom('users').select('phone').where('id', '=', user.id).executeTakeFirstOrThrow();
      await trx
        .updateTable('users')
        .set({ phone: newest.phone, phone_verified_at: now })
        .where('id', '=', user.id)
        .execute();
      await audit.record(
        trx,
        this.auditEntry(user, 'user.phoneVerify', {
          before: before.phone ? { phone: maskedPhone(before.phone) } : undefined,
          after: { phone: maskedPhone(newest.phone) },
        }),
      );
    });
    return this.answer(user.id);
  }

  /**
   * `DELETE /user/phone`: no more SMS to the user; a code waiting is void. Works on a server whose
   * SMS was turned off since: a person can always take their number back.
   */
  async remove(user: UserContext): Promise<PhoneAnswer> {
    requireCapability(user, 'manageOwnCredentials');
    const { db } = this.options;
    const now = this.now();
    await db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('users').select('phone').where('id', '=', user.id).executeTakeFirstOrThrow();
      const voided = await trx
        .updateTable('phone_codes')
        .set({ expires_at: now })
        .where('user_id', '=', user.id)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      if (row.phone === null && Number(voided.numUpdatedRows) === 0)
        throw notFound('You have no phone number for SMS alerts.');
      await trx.updateTable('users').set({ phone: null, phone_verified_at: null }).where('id', '=', user.id).execute();
      await audit.record(
        trx,
        this.auditEntry(user, 'user.phoneRemove', {
          before: row.phone ? { phone: maskedPhone(row.phone) } : undefined,
        }),
      );
    });
    return this.answer(user.id);
  }

  /**
   * Queues one SMS of an alarm to each of these users who has a verified phone, one job each, in one
   * transaction; a user already sent this alarm is skipped, so a job run again sends nothing twice.
   * Each user's text is their own (it carries their one-time acknowledge link). Answers how many were
   * queued.
   */
  async notifyAlarm(userIds: readonly string[], alarmId: string, textFor: (userId: string) => string): Promise<number> {
    const { db, jobs, sender } = this.options;
    if (!sender || userIds.length === 0) return 0;
    const users = await db
      .selectFrom('users')
      .select('id')
      .where('id', 'in', userIds)
      .where('phone', 'is not', null)
      .where('phone_verified_at', 'is not', null)
      .execute();
    if (users.length === 0) return 0;
    const queued = await db.transaction().execute(async (trx) => {
      let count = 0;
      for (const user of users) {
        const id = newId();
        const inserted = await trx
          .insertInto('sms_messages')
          .values({
            id,
            user_id: user.id,
            alarm_id: alarmId,
            body: textFor(user.id),
            state: 'pending',
            attempts: 0,
            created_at: this.now(),
            last_attempt_at: null,
            status: null,
            sid: null,
            detail: null,
          })
          .onConflict((oc) => oc.columns(['alarm_id', 'user_id']).doNothing())
          .executeTakeFirst();
        if (Number(inserted.numInsertedOrUpdatedRows ?? 0) !== 1) continue;
        await jobs.enqueue(SMS_SEND_JOB, { messageId: id }, {}, trx);
        count += 1;
      }
      return count;
    });
    if (queued > 0) jobs.nudge();
    return queued;
  }

  /** One attempt of one alarm SMS, to the user's phone as it is now. */
  private async onSendJob(messageId: string): Promise<void> {
    const { db, jobs, sender } = this.options;
    const message = await db.selectFrom('sms_messages').selectAll().where('id', '=', messageId).executeTakeFirst();
    if (!message || message.state !== 'pending') return;
    const user = await db.selectFrom('users').select(['phone']).where('id', '=', message.user_id).executeTakeFirst();
    const attempt = message.attempts + 1;
    const startedAt = this.now();
    if (!sender || !user?.phone) {
      await db
        .updateTable('sms_messages')
        .set({ state: 'failed', detail: sender ? 'The user has no verified phone any more.' : SMS_NOT_CONFIGURED })
        .where('id', '=', messageId)
        .execute();
      return;
    }
    const outcome = await sender.send(user.phone, message.body);
    const next = outcome.kind === 'retry' ? smsRetryAt(attempt, outcome.retryAfter, this.now()) : null;
    await db.transaction().execute(async (trx) => {
      await trx
        .updateTable('sms_messages')
        .set({
          state: outcome.kind === 'sent' ? 'sent' : next === null ? 'failed' : 'pending',
          attempts: attempt,
          last_attempt_at: startedAt,
          status: outcome.status,
          sid: outcome.kind === 'sent' ? outcome.sid : null,
          detail: outcome.kind === 'sent' ? null : outcome.reason.slice(0, DETAIL_CHARS),
        })
        .where('id', '=', messageId)
        .execute();
      if (next !== null) await jobs.enqueue(SMS_SEND_JOB, { messageId }, { runAt: next }, trx);
    });
    if (outcome.kind !== 'sent' && next === null) {
      this.options.logger.warn({ messageId, attempt, reason: outcome.reason }, 'Alarm SMS not sent');
    }
  }

  private auditEntry(
    user: UserContext,
    action: 'user.phoneCode' | 'user.phoneVerify' | 'user.phoneRemove',
    change: { before?: object; after?: object },
  ) {
    return {
      accountId: user.attachmentPoints[0]?.accountId ?? null,
      by: byUser(user),
      action,
      target: { kind: 'user', id: user.id, name: user.email },
      ...change,
      at: this.now(),
    } as const;
  }
}
