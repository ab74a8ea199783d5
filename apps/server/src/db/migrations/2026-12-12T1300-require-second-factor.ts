import type { Kysely } from 'kysely';

// Frozen in time: this file imports nothing from the app. One migration serves SQLite and PostgreSQL.
//
// A required second factor (issue 38 item 2): an account that requires one of its users and its
// customers' users (1), or not (0).

// Migrations see the database as it was then, not the current schema types (Kysely advice).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('accounts')
    .addColumn('require_second_factor', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
