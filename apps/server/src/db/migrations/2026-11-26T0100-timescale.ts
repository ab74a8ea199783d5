import { type Kysely, SqliteAdapter, sql } from 'kysely';

// Frozen in time: this file imports nothing from the app. Where PostgreSQL offers the TimescaleDB
// extension, the log table becomes a hypertable (7-day chunks of unix milliseconds) whose chunks are
// compressed after 30 days, segmented by device and channel (the way charts read them). Without the
// extension, and on SQLite, nothing changes: plain tables serve the same queries.

const CHUNK_MS = 7 * 24 * 3600 * 1000;
const COMPRESS_AFTER_MS = 30 * 24 * 3600 * 1000;

// Migrations see the database as it was then, not the current schema types (Kysely advice).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) return;
  const available = await sql<{ name: string }>`
    select name from pg_available_extensions where name = 'timescaledb'`.execute(db);
  if (available.rows.length === 0) return;
  // Creating the extension needs rights the application's role may lack: then stay a plain table
  // (docs/operations.md says how an administrator converts it later).
  await sql`savepoint fieldlink_timescale`.execute(db);
  try {
    await sql`create extension if not exists timescaledb`.execute(db);
  } catch {
    await sql`rollback to savepoint fieldlink_timescale`.execute(db);
    return;
  }
  await sql`release savepoint fieldlink_timescale`.execute(db);
  await sql`select create_hypertable('logs', 't', chunk_time_interval => ${sql.lit(CHUNK_MS)}::bigint,
    migrate_data => true, if_not_exists => true)`.execute(db);
  // An integer time column needs a function saying what "now" is, for the compression policy.
  await sql`create or replace function fieldlink_unix_ms_now() returns bigint language sql stable
    as $$ select (extract(epoch from now()) * 1000)::bigint $$`.execute(db);
  await sql`select set_integer_now_func('logs', 'fieldlink_unix_ms_now', replace_if_exists => true)`.execute(db);
  await sql`alter table logs set (timescaledb.compress, timescaledb.compress_segmentby = 'device_id, code',
    timescaledb.compress_orderby = 't')`.execute(db);
  await sql`select add_compression_policy('logs', compress_after => ${sql.lit(COMPRESS_AFTER_MS)}::bigint,
    if_not_exists => true)`.execute(db);
}
