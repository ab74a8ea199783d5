import type { Kysely, Transaction } from 'kysely';
import type { Database, PushSubscriptionsTable } from '../../db/schema';

type Db = Kysely<Database> | Transaction<Database>;

/**
 * Saves a browser's subscription for the user. The endpoint is the browser's: one signed in as another
 * user since moves the row to that user with the new keys (the browser now belongs to them).
 */
export async function upsertSubscription(db: Db, row: PushSubscriptionsTable): Promise<void> {
  await db
    .insertInto('push_subscriptions')
    .values(row)
    .onConflict((oc) => oc.column('endpoint').doUpdateSet({ user_id: row.user_id, p256dh: row.p256dh, auth: row.auth }))
    .execute();
}

/** The user's subscriptions, oldest first. */
export function subscriptionsOfUser(db: Db, userId: string): Promise<PushSubscriptionsTable[]> {
  return db
    .selectFrom('push_subscriptions')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** The subscriptions of these users, for the notice of an alarm. */
export function subscriptionsOfUsers(db: Db, userIds: readonly string[]): Promise<PushSubscriptionsTable[]> {
  if (userIds.length === 0) return Promise.resolve([]);
  return db.selectFrom('push_subscriptions').selectAll().where('user_id', 'in', userIds).execute();
}

export function findSubscription(db: Db, id: string): Promise<PushSubscriptionsTable | undefined> {
  return db.selectFrom('push_subscriptions').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Removes the user's subscription with this endpoint; answers whether there was one. */
export async function deleteUserSubscription(db: Db, userId: string, endpoint: string): Promise<boolean> {
  const result = await db
    .deleteFrom('push_subscriptions')
    .where('user_id', '=', userId)
    .where('endpoint', '=', endpoint)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Removes subscriptions by id (their push service said they are gone, or the user has too many). */
export async function deleteSubscriptions(db: Db, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.deleteFrom('push_subscriptions').where('id', 'in', ids).execute();
}
