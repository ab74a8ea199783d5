import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema';

type Db = Kysely<Database> | Transaction<Database>;

/** The second-factor columns of a user. */
export async function totpOf(db: Db, userId: string) {
  return db
    .selectFrom('users')
    .select(['totp_secret', 'totp_pending_secret', 'totp_last_step'])
    .where('id', '=', userId)
    .executeTakeFirst();
}

/**
 * Takes the TOTP time step `step` for the user unless a code of it or a later step was accepted
 * already: true when taken. One conditional update, so two requests with one code cannot both win.
 */
export async function takeTotpStep(db: Db, userId: string, step: number): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ totp_last_step: step })
    .where('id', '=', userId)
    .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Marks an unused recovery code used: true when it was the user's and unused. */
export async function takeRecoveryCode(db: Db, userId: string, codeHash: string, at: number): Promise<boolean> {
  const result = await db
    .updateTable('mfa_recovery_codes')
    .set({ used_at: at })
    .where('user_id', '=', userId)
    .where('code_hash', '=', codeHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function unusedRecoveryCodeCount(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom('mfa_recovery_codes')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Replaces the user's recovery codes with these hashes (none: removes them). */
export async function replaceRecoveryCodes(trx: Transaction<Database>, userId: string, hashes: readonly string[]) {
  await trx.deleteFrom('mfa_recovery_codes').where('user_id', '=', userId).execute();
  if (hashes.length === 0) return;
  await trx
    .insertInto('mfa_recovery_codes')
    .values(hashes.map((code_hash) => ({ user_id: userId, code_hash, used_at: null })))
    .execute();
}

/** The root group paths of the accounts that require a second factor (issue 38 item 2). */
export async function requiringRootPaths(db: Db): Promise<string[]> {
  const rows = await db
    .selectFrom('accounts')
    .innerJoin('groups', 'groups.id', 'accounts.root_group_id')
    .select('groups.path')
    .where('accounts.require_second_factor', '=', 1)
    .execute();
  return rows.map((row) => row.path);
}

/** An account's own setting and its root group's path; undefined when there is no such account. */
export async function accountRequirementOf(db: Db, accountId: string) {
  return db
    .selectFrom('accounts')
    .innerJoin('groups', 'groups.id', 'accounts.root_group_id')
    .select(['accounts.id', 'accounts.name', 'accounts.require_second_factor', 'groups.path'])
    .where('accounts.id', '=', accountId)
    .executeTakeFirst();
}

/** The group paths a user is attached at. */
export async function attachmentPathsOf(db: Db, userId: string): Promise<string[]> {
  const rows = await db.selectFrom('attachment_points').select('path').where('user_id', '=', userId).execute();
  return rows.map((row) => row.path);
}
