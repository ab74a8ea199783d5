import type { Kysely } from 'kysely';

// Frozen in time: this file imports nothing from the app. One migration serves SQLite and PostgreSQL.
//
// Monitor-only users (issue 35): a user who sees every value and chart but operates nothing. The
// mark is kept with the user, beside the permissions of its attachment points; an invitation carries
// it to the user it becomes. 0 or 1, as the other flags of these tables.

// Migrations see the database as it was then, not the current schema types (Kysely advice).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of ['users', 'invitations']) {
    await db.schema
      .alterTable(table)
      .addColumn('monitor_only', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  }
}
