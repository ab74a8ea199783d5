import type { Kysely } from 'kysely';

// Frozen in time: imports nothing from the app; one migration for SQLite and PostgreSQL.

/**
 * Broadcast spray's cool-down follows the sprayers, not the group (issue 34, item 7): a row per
 * sprayer with the time it was last sent a broadcast, claimed for all the broadcast's sprayers in one
 * transaction, so a parent group or a new group around the same sprayers cannot spray them again
 * within the cool-down, on any instance of a cluster. The per-group table it replaces goes: a group's
 * last broadcast said nothing about the sprayers beneath it.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('sprayer_broadcasts')
    .addColumn('device_id', 'text', (c) => c.primaryKey().references('devices.id').onDelete('cascade'))
    .addColumn('sprayed_at', 'bigint', (c) => c.notNull())
    .addColumn('sprayed_by', 'text')
    .execute();
  await db.schema.dropTable('spray_broadcasts').execute();
}
