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
