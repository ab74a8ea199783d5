import type { Kysely, Transaction } from 'kysely';
import type { NotificationPreferences, OnCallShift } from '@fieldlink/domain/notification-routing';
import type { Database } from '../../db/schema';

type Db = Kysely<Database> | Transaction<Database>;

/** Stored preferences of these users; a user without a row chose nothing (the defaults). */
export async function preferencesOfUsers(
  db: Db,
  userIds: readonly string[],
): Promise<Map<string, NotificationPreferences>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('notification_preferences')
    .select(['user_id', 'preferences'])
    .where('user_id', 'in', userIds)
    .execute();
  return new Map(rows.map((row) => [row.user_id, JSON.parse(row.preferences) as NotificationPreferences]));
}

export async function upsertPreferences(
  db: Db,
  userId: string,
  preferences: NotificationPreferences,
  at: number,
): Promise<void> {
  const text = JSON.stringify(preferences);
  await db
    .insertInto('notification_preferences')
    .values({ user_id: userId, preferences: text, updated_at: at })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ preferences: text, updated_at: at }))
    .execute();
}

/** An account's rota in the order it was stored. */
export async function rotaOfAccount(db: Db, accountId: string): Promise<OnCallShift[]> {
  const rows = await db
    .selectFrom('on_call_shifts')
    .select(['user_id', 'from_t', 'to_t'])
    .where('account_id', '=', accountId)
    .orderBy('ordinal')
    .execute();
  return rows.map((row) => ({ userId: row.user_id, from: Number(row.from_t), to: Number(row.to_t) }));
}

export async function replaceRota(
  trx: Transaction<Database>,
  accountId: string,
  shifts: readonly (OnCallShift & { id: string })[],
): Promise<void> {
  await trx.deleteFrom('on_call_shifts').where('account_id', '=', accountId).execute();
  if (shifts.length === 0) return;
  await trx
    .insertInto('on_call_shifts')
    .values(
      shifts.map((shift, ordinal) => ({
        id: shift.id,
        account_id: accountId,
        user_id: shift.userId,
        ordinal,
        from_t: shift.from,
        to_t: shift.to,
      })),
    )
    .execute();
}

/** True when this link nonce was used already. */
export async function isLinkUsed(db: Db, nonce: string): Promise<boolean> {
  return (
    (await db.selectFrom('alarm_link_uses').select('nonce').where('nonce', '=', nonce).executeTakeFirst()) !== undefined
  );
}

/** Records the link as used; false when another request (on any instance) used it first. */
export async function claimLink(
  db: Db,
  use: { nonce: string; alarmId: string; userId: string; at: number },
): Promise<boolean> {
  const result = await db
    .insertInto('alarm_link_uses')
    .values({ nonce: use.nonce, alarm_id: use.alarmId, user_id: use.userId, used_at: use.at })
    .onConflict((oc) => oc.column('nonce').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}
