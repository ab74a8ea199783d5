import { type Kysely, SqliteAdapter, sql } from 'kysely';

// Frozen in time: imports nothing from the app.

/**
 * PostgreSQL compresses the stored files' 256 KiB chunks with lz4 rather than its default pglz: a
 * report's CSV (85 MiB for a month of 200 channels at 15 minutes) took seconds of the database's CPU
 * to compress with pglz and takes a fraction with lz4, at about the same size. Chunks already
 * stored keep their compression. A server built without lz4 keeps pglz. SQLite stores chunks as
 * they are.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) return;
  await sql`
    do $$ begin
      alter table stored_file_chunks alter column data set compression lz4;
    exception when feature_not_supported then null;
    end $$`.execute(db);
}
