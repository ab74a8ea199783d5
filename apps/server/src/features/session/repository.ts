import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';

export function findUserByEmail(db: Kysely<Database>, email: string) {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

export function findUserById(db: Kysely<Database>, id: string) {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export function attachmentPointsOf(db: Kysely<Database>, userId: string) {
  return db.selectFrom('attachment_points').selectAll().where('user_id', '=', userId).orderBy('ordinal').execute();
}
