import type { Kysely } from 'kysely';

// Frozen in time: imports nothing from the app; one migration for SQLite and PostgreSQL.

/**
 * Broadcast spray: the last broadcast on each group, so the cool-down holds across every instance of
 * a cluster (one row per group, claimed by a conditional upsert).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('spray_broadcasts')
    .addColumn('group_id', 'text', (c) => c.primaryKey())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('started_by', 'text')
    .execute();
}
