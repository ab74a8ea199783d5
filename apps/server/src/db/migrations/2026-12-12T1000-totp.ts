import type { Kysely } from 'kysely';

// Frozen in time: this file imports nothing from the app. One migration serves SQLite and PostgreSQL.
//
// A second factor (issue 38 item 2). On `users`: the TOTP secret once turned on (`totp_secret`) and
// while an enrolment waits for its first code (`totp_pending_secret`), both encrypted with the
// installation's key; the last time step a code was accepted for (`totp_last_step`), so a code is
// used once. `mfa_recovery_codes`: the ten one-time recovery codes, as hashes only.

// Migrations see the database as it was then, not the current schema types (Kysely advice).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const column of ['totp_secret', 'totp_pending_secret']) {
    await db.schema.alterTable('users').addColumn(column, 'text').execute();
  }
  await db.schema.alterTable('users').addColumn('totp_last_step', 'integer').execute();
  await db.schema
    .createTable('mfa_recovery_codes')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .addPrimaryKeyConstraint('mfa_recovery_codes_pk', ['user_id', 'code_hash'])
    .execute();
}
