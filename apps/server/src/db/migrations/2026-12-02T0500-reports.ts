import { type Kysely, SqliteAdapter, sql } from 'kysely';

// Frozen in time: imports nothing from the app; one migration for SQLite and PostgreSQL.

/**
 * Reports and report schedules (features/reports), and the files documents are written to
 * (documents/file-store.ts): a file is a row plus its content in chunks of a few hundred KiB, written
 * as the document streams out, so neither writing nor reading a large file holds it in memory.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  // Mail may carry stored files (a ready report): JSON of {fileId, name, contentType}, read when sent.
  await db.schema.alterTable('outbox').addColumn('attachments', 'text').execute();
  await db.schema
    .createTable('stored_files')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    // Bytes written so far; final once complete.
    .addColumn('size', 'bigint', (c) => c.notNull())
    // 0 while the document is being written: an incomplete file is never served.
    .addColumn('complete', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('stored_file_chunks')
    .addColumn('file_id', 'text', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('data', sqlite ? 'blob' : sql`bytea`, (c) => c.notNull())
    .addPrimaryKeyConstraint('stored_file_chunks_pk', ['file_id', 'seq'])
    .execute();

  await db.schema
    .createTable('reports')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('comments', 'text')
    // JSON array of strings.
    .addColumn('tags', 'text', (c) => c.notNull())
    // JSON: format, visibility, access, notify audience and users, devices and channels, interval, period.
    .addColumn('props', 'text', (c) => c.notNull())
    // GENERATING | READY | AWAITING_USER | ERROR | DELETING
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('percent', 'real')
    // The deepest group holding every device of the report: who may see it is decided from here.
    .addColumn('scope_path', 'text', (c) => c.notNull())
    .addColumn('schedule_id', 'text')
    .addColumn('frequency', 'text')
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_by_email', 'text', (c) => c.notNull())
    // The secret of the public link while the visibility is PUBLIC (256 random bits).
    .addColumn('public_token', 'text', (c) => c.unique())
    .addColumn('file_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('completed_at', 'bigint')
    .execute();
  await db.schema.createIndex('reports_account_created').on('reports').columns(['account_id', 'created_at']).execute();

  await db.schema
    .createTable('report_schedules')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('comments', 'text')
    .addColumn('tags', 'text', (c) => c.notNull())
    // JSON: the report template and the timing (frequency, time, day, time zone, enabled).
    .addColumn('props', 'text', (c) => c.notNull())
    .addColumn('scope_path', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_by_email', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('next_run_at', 'bigint')
    .addColumn('last_run_at', 'bigint')
    .addColumn('last_report_id', 'text')
    // The one pending run job of the schedule: a job whose id differs is stale and does nothing.
    .addColumn('job_id', 'text')
    .execute();
  await db.schema.createIndex('report_schedules_account').on('report_schedules').columns(['account_id']).execute();
}
