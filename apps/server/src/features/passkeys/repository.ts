import type { Kysely, Transaction } from 'kysely';
import type { Database, PasskeysTable } from '../../db/schema';

type Db = Kysely<Database> | Transaction<Database>;

/** A user's passkeys, the newest first. */
export async function passkeysOf(db: Db, userId: string) {
  return db
    .selectFrom('passkeys')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
}

export async function passkeyCount(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom('passkeys')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** A passkey by its credential id, with its owner's sign-in columns; undefined when unknown. */
export async function passkeyWithOwner(db: Db, id: string) {
  return db
    .selectFrom('passkeys')
    .innerJoin('users', 'users.id', 'passkeys.user_id')
    .selectAll('passkeys')
    .select(['users.email', 'users.token_version'])
    .where('passkeys.id', '=', id)
    .executeTakeFirst();
}

export async function insertPasskey(trx: Transaction<Database>, row: PasskeysTable): Promise<void> {
  await trx.insertInto('passkeys').values(row).execute();
}

export async function deletePasskey(trx: Transaction<Database>, userId: string, id: string): Promise<boolean> {
  const result = await trx.deleteFrom('passkeys').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/**
 * Records a use: the new counter and the time, unless another use of the same counter won first
 * (a cloned authenticator's answer racing the real one): true when recorded.
 */
export async function recordPasskeyUse(
  db: Db,
  id: string,
  counters: { before: number; after: number },
  at: number,
): Promise<boolean> {
  const result = await db
    .updateTable('passkeys')
    .set({ counter: counters.after, last_used_at: at })
    .where('id', '=', id)
    .where('counter', '=', counters.before)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

type ChallengePurpose = 'register' | 'signIn' | 'secondFactor';

/**
 * Stores a ceremony's challenge. Expired challenges go first; a user keeps one live challenge per
 * purpose (a new one replaces it), so the table stays as small as the ceremonies under way.
 */
export async function storeChallenge(
  db: Kysely<Database>,
  row: { challenge: string; purpose: ChallengePurpose; userId: string | null; expiresAt: number },
  now: number,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('webauthn_challenges').where('expires_at', '<=', now).execute();
    if (row.userId !== null) {
      await trx
        .deleteFrom('webauthn_challenges')
        .where('user_id', '=', row.userId)
        .where('purpose', '=', row.purpose)
        .execute();
    }
    await trx
      .insertInto('webauthn_challenges')
      .values({ challenge: row.challenge, purpose: row.purpose, user_id: row.userId, expires_at: row.expiresAt })
      .execute();
  });
}

/**
 * Takes a challenge once: true when it was stored for this purpose and user (null: a passwordless
 * sign-in's) and had not expired. One delete, so two answers to one challenge cannot both win.
 */
export async function takeChallenge(
  db: Db,
  challenge: string,
  purpose: ChallengePurpose,
  userId: string | null,
  now: number,
): Promise<boolean> {
  const result = await db
    .deleteFrom('webauthn_challenges')
    .where('challenge', '=', challenge)
    .where('purpose', '=', purpose)
    .where((eb) => (userId === null ? eb('user_id', 'is', null) : eb('user_id', '=', userId)))
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}
