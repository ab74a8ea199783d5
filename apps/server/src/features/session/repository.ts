import type { Kysely } from 'kysely';
import type { AttachmentPointsTable, Database, UsersTable } from '../../db/schema';

export function findUserByEmail(db: Kysely<Database>, email: string) {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

export function findUserById(db: Kysely<Database>, id: string) {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export function attachmentPointsOf(db: Kysely<Database>, userId: string) {
  return db.selectFrom('attachment_points').selectAll().where('user_id', '=', userId).orderBy('ordinal').execute();
}

/** Inserts a user with a fresh session version and no preferences yet (not monitor-only unless said). */
export function insertUser(
  db: Kysely<Database>,
  user: Pick<UsersTable, 'id' | 'email' | 'password_hash' | 'first_name' | 'last_name'> &
    Partial<Pick<UsersTable, 'monitor_only'>>,
) {
  return db
    .insertInto('users')
    .values({
      theme: null,
      muted_devices: '[]',
      latest_user_update_id: null,
      token_version: 0,
      created_at: Date.now(),
      monitor_only: 0,
      time_zone: null,
      hour_cycle: null,
      date_order: null,
      ...user,
    })
    .execute();
}

export function insertAttachmentPoint(db: Kysely<Database>, point: AttachmentPointsTable) {
  return db.insertInto('attachment_points').values(point).execute();
}

/** The user's open sessions at `now`, the most recently seen first. */
export function openSessionsOf(db: Kysely<Database>, userId: string, now: number) {
  return db
    .selectFrom('sessions')
    .selectAll()
    .where('user_id', '=', userId)
    .where('ended_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('last_seen_at', 'desc')
    .orderBy('id')
    .execute();
}

/** Ends the user's sessions named that are still open. */
export async function endSessions(
  db: Kysely<Database>,
  userId: string,
  ids: readonly string[],
  now: number,
): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('sessions')
    .set({ ended_at: now })
    .where('user_id', '=', userId)
    .where('id', 'in', ids)
    .where('ended_at', 'is', null)
    .execute();
}
