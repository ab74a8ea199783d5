import type { Kysely } from 'kysely';

// Frozen in time: imports nothing from the app; one migration for SQLite and PostgreSQL.

/**
 * An account's brand theme (core §1: "the theme and application type can also come from the
 * account"). Null: the account has no brand and its users see the configured default.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('accounts').addColumn('theme', 'text').execute();
}
