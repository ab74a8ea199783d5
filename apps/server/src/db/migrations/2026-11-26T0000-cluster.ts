import type { Kysely } from 'kysely';

// Frozen in time: this file imports nothing from the app. Tables of cluster mode, used by the single
// process too: the background job queue and the registry of ingest sessions held at the MQTT broker.

// Migrations see the database as it was then, not the current schema types (Kysely advice).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    // queued | failed (a job that succeeds is deleted)
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('run_at', 'bigint', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (c) => c.notNull())
    .addColumn('locked_by', 'text')
    .addColumn('locked_until', 'bigint')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('jobs_due').on('jobs').columns(['state', 'run_at']).execute();

  await db.schema
    .createTable('ingest_sessions')
    .addColumn('client_id', 'text', (c) => c.primaryKey())
    .addColumn('instance_id', 'text', (c) => c.notNull())
    .addColumn('heartbeat_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}
