import type { Kysely } from 'kysely';
import type { ApiTokensTable, Database } from '../../db/schema';

/** A user's tokens, newest first. */
export function tokensOf(db: Kysely<Database>, userId: string) {
  return db
    .selectFrom('api_tokens')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
}

/** How many of a user's tokens still work at `now`. */
export async function liveTokenCount(db: Kysely<Database>, userId: string, now: number): Promise<number> {
  const row = await db
    .selectFrom('api_tokens')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('user_id', '=', userId)
    .where('expires_at', '>', now)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** One of the user's own tokens; another user's is not found. */
export function findOwnToken(db: Kysely<Database>, userId: string, id: string) {
  return db.selectFrom('api_tokens').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
}

export function insertToken(db: Kysely<Database>, row: ApiTokensTable) {
  return db.insertInto('api_tokens').values(row).execute();
}

export function deleteToken(db: Kysely<Database>, id: string) {
  return db.deleteFrom('api_tokens').where('id', '=', id).execute();
}
