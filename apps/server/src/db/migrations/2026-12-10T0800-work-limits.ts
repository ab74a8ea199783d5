import type { Kysely } from 'kysely';

// Frozen in time: imports nothing from the app; one migration for SQLite and PostgreSQL.

/**
 * Limits on stored work (issue 34, item 8): what each limit counts is read through an index (a user's
 * reports and batch reports by state, a user's schedules, queued messages of a device by status is
 * indexed already), and the batch report retention finds the oldest reports by creation time.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('reports_creator_state').on('reports').columns(['created_by', 'state']).execute();
  await db.schema.createIndex('reports_account_state').on('reports').columns(['account_id', 'state']).execute();
  await db.schema.createIndex('report_schedules_creator').on('report_schedules').columns(['created_by']).execute();
  await db.schema
    .createIndex('brew_reports_creator_state')
    .on('brew_reports')
    .columns(['created_by', 'state'])
    .execute();
  await db.schema.createIndex('brew_reports_created').on('brew_reports').columns(['created_at']).execute();
}
