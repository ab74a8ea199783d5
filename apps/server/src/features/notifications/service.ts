import type { Kysely } from 'kysely';
import type {
  NotificationPreferencesAnswer,
  NotificationPreferencesBody,
  OnCallRotaAnswer,
  OnCallRotaBody,
} from '@fieldlink/api/notifications';
import {
  DEFAULT_NOTIFICATION_PREFERENCES,
  notificationPreferencesProblem,
  onCallAt,
  onCallRotaProblem,
  smsUnavailableReason,
  type NotificationPreferences,
  type RoutedUser,
  type SmsReach,
} from '@fieldlink/domain/notification-routing';
import { can, effectivePermissions, type ExtraFlag, type Permission } from '@fieldlink/domain/permissions';
import { accountRootPath } from '../../db/account-paths';
import type { Database } from '../../db/schema';
import { HttpError, notFound } from '../../http-errors';
import { newId } from '../../security/secrets';
import { usersOfAccounts } from '../alarms/repository';
import { audit, byUser } from '../audit/service';
import { subscriptionsOfUser } from '../push/repository';
import { inScope, requireCapability, userCan } from '../session/access';
import type { UserContext } from '../session/user-context';
import { preferencesOfUsers, replaceRota, rotaOfAccount, upsertPreferences } from './repository';

const ACCOUNT_NOT_FOUND = 'Account not found.';

export interface NotificationServiceOptions {
  db: Kysely<Database>;
  /**
   * Whether SMS can reach a user: the server sends SMS and the user's phone is verified. The SMS
   * transport (issue 39 item 6) answers it; until it is there, SMS reaches nobody.
   */
  smsReach: (userId: string) => Promise<SmsReach>;
  now: () => number;
}

/**
 * Who gets what (issue 39 item 5): each user's own notification preferences, an account's on-call
 * rota, and what the alarm notices read of both.
 */
export class NotificationService {
  constructor(private readonly options: NotificationServiceOptions) {}

  /** `GET /user/notification-preferences`: the caller's choice (the defaults until they chose) and what can reach them. */
  async preferences(user: UserContext): Promise<NotificationPreferencesAnswer> {
    const stored = (await preferencesOfUsers(this.options.db, [user.id])).get(user.id);
    return this.answer(user, stored ?? DEFAULT_NOTIFICATION_PREFERENCES);
  }

  /** `PUT /user/notification-preferences`: replaces the caller's choice; SMS only where it can reach them. */
  async putPreferences(user: UserContext, body: NotificationPreferencesBody): Promise<NotificationPreferencesAnswer> {
    requireCapability(user, 'chooseOwnNotifications');
    const preferences: NotificationPreferences = { channels: body.channels, quietHours: body.quietHours };
    const problem = notificationPreferencesProblem(preferences);
    if (problem) throw new HttpError(400, problem);
    const smsReason = smsUnavailableReason(await this.options.smsReach(user.id));
    if (preferences.channels.sms.alarms !== 'none' && smsReason) {
      throw new HttpError(400, `Text messages cannot reach you: ${smsReason}`);
    }
    const { db } = this.options;
    const now = this.options.now();
    await db.transaction().execute(async (trx) => {
      const before = (await preferencesOfUsers(trx, [user.id])).get(user.id) ?? DEFAULT_NOTIFICATION_PREFERENCES;
      await upsertPreferences(trx, user.id, preferences, now);
      await audit.record(trx, {
        accountId: user.attachmentPoints[0]?.accountId ?? null,
        by: byUser(user),
        action: 'user.notificationPreferences',
        target: { kind: 'user', id: user.id, name: user.email },
        before: auditedPreferences(before),
        after: auditedPreferences(preferences),
        at: now,
      });
    });
    return this.answer(user, preferences);
  }

  private async answer(
    user: UserContext,
    preferences: NotificationPreferences,
  ): Promise<NotificationPreferencesAnswer> {
    const [smsReach, browsers] = await Promise.all([
      this.options.smsReach(user.id),
      subscriptionsOfUser(this.options.db, user.id),
    ]);
    const sms = smsUnavailableReason(smsReach);
    return {
      ...preferences,
      reach: {
        email: { available: true, reason: null },
        push:
          browsers.length > 0
            ? { available: true, reason: null }
            : { available: false, reason: 'Turn notifications on in a browser to receive them.' },
        sms: { available: sms === null, reason: sms },
      },
    };
  }

  /**
   * `GET /account/on-call-rota?accountId=`: any user attached in the account may read it (they may be
   * on it); another account's is "not found".
   */
  async rota(user: UserContext, accountId: string): Promise<OnCallRotaAnswer> {
    const root = await accountRootPath(this.options.db, accountId);
    const attached = user.attachmentPoints.some((point) => point.accountId === accountId);
    if (root === undefined || (!attached && !inScope(user, root))) throw notFound(ACCOUNT_NOT_FOUND);
    return this.rotaAnswer(user, accountId, root);
  }

  /**
   * `PUT /account/on-call-rota?accountId=`: replaces the rota. Administrators whose scope holds the
   * whole account; every shift names one of the account's Alarm Responders.
   */
  async putRota(user: UserContext, accountId: string, body: OnCallRotaBody): Promise<OnCallRotaAnswer> {
    requireCapability(user, 'manageOnCallRota');
    const { db } = this.options;
    const root = await accountRootPath(db, accountId);
    if (root === undefined || !inScope(user, root)) throw notFound(ACCOUNT_NOT_FOUND);
    const problem = onCallRotaProblem(body.shifts);
    if (problem) throw new HttpError(400, problem);
    const people = new Set((await this.rotaPeople(accountId)).map((person) => person.userId));
    const stranger = body.shifts.findIndex((shift) => !people.has(shift.userId));
    if (stranger >= 0) {
      throw new HttpError(400, `Shift ${stranger + 1}: only the account’s Alarm Responders can be on call.`);
    }
    const now = this.options.now();
    await db.transaction().execute(async (trx) => {
      const before = await rotaOfAccount(trx, accountId);
      await replaceRota(
        trx,
        accountId,
        body.shifts.map((shift) => ({ ...shift, id: newId() })),
      );
      await audit.record(trx, {
        accountId,
        by: byUser(user),
        action: 'account.onCallRota',
        target: { kind: 'account', id: accountId },
        before: { shifts: before },
        after: { shifts: body.shifts },
        at: now,
      });
    });
    return this.rotaAnswer(user, accountId, root);
  }

  private async rotaAnswer(user: UserContext, accountId: string, root: string): Promise<OnCallRotaAnswer> {
    const [shifts, people] = await Promise.all([rotaOfAccount(this.options.db, accountId), this.rotaPeople(accountId)]);
    return {
      accountId,
      shifts,
      people,
      onCallNow: onCallAt(shifts, this.options.now()),
      editable: userCan(user, 'manageOnCallRota') && inScope(user, root),
    };
  }

  /** The account's Alarm Responders (by their first attachment point's permissions), attached in it. */
  private async rotaPeople(accountId: string): Promise<{ userId: string; email: string }[]> {
    const rows = await usersOfAccounts(this.options.db, [accountId]);
    const byUser = new Map<string, { email: string; points: typeof rows; inAccount: boolean }>();
    for (const row of rows) {
      const entry = byUser.get(row.user_id) ?? { email: row.email, points: [], inAccount: false };
      entry.points.push(row);
      entry.inAccount ||= row.account_id === accountId;
      byUser.set(row.user_id, entry);
    }
    return [...byUser.entries()]
      .filter(([, entry]) => entry.inAccount && canRespond(entry.points))
      .map(([userId, entry]) => ({ userId, email: entry.email }))
      .sort((a, b) => a.email.localeCompare(b.email));
  }

  /** The users' preferences and SMS reach, as the routing rule reads them. */
  async routedUsers(userIds: readonly string[]): Promise<RoutedUser[]> {
    const stored = await preferencesOfUsers(this.options.db, userIds);
    return Promise.all(
      userIds.map(async (id) => ({
        id,
        preferences: stored.get(id) ?? DEFAULT_NOTIFICATION_PREFERENCES,
        smsAvailable: smsUnavailableReason(await this.options.smsReach(id)) === null,
      })),
    );
  }

  /** The account's rota, as the routing rule reads it. */
  rotaOf(accountId: string) {
    return rotaOfAccount(this.options.db, accountId);
  }
}

function canRespond(
  points: readonly {
    ordinal: number;
    path: string;
    permissions: string;
    secret_permissions: string;
    app_type: string;
  }[],
): boolean {
  const attachmentPoints = [...points]
    .sort((a, b) => a.ordinal - b.ordinal)
    .map((point) => ({
      path: point.path,
      permissions: JSON.parse(point.permissions) as Permission[],
      secretPermissions: JSON.parse(point.secret_permissions) as ExtraFlag[],
      appType: point.app_type,
    }));
  return can({ ...effectivePermissions([{ attachmentPoints }]), userVariant: null }, 'respondToAlarms');
}

/** What the trail keeps of preferences: the choice per channel and the quiet hours. */
function auditedPreferences(preferences: NotificationPreferences) {
  const channel = (name: 'email' | 'push' | 'sms') => {
    const choice = preferences.channels[name];
    return choice.alarms === 'severities' ? choice.severities.join(', ') : choice.alarms;
  };
  const quiet = preferences.quietHours;
  return {
    email: channel('email'),
    push: channel('push'),
    sms: channel('sms'),
    quietHours: quiet ? `${quiet.from}–${quiet.to} ${quiet.timeZone}` : null,
  };
}
