import { type Kysely, SqliteAdapter, sql } from 'kysely';

// Frozen in time: this file imports nothing from the app (docs/decisions.md, "Ingest at higher
// steady loads").
//
// The roll-ups of the log are no longer kept by a trigger on `logs` but by the code that inserts the
// samples (db/log-writes.ts), once per batch in the same transaction: the trigger cost PostgreSQL
// three times the insert itself and SQLite two upserts per sample. The tables and their rows stay.

// Migrations see the database as it was then, not the current schema types (Kysely advice).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) {
    await sql`drop trigger if exists logs_rollup`.execute(db);
    return;
  }
  await sql`drop trigger if exists logs_rollup on logs`.execute(db);
  await sql`drop function if exists fieldlink_logs_rollup()`.execute(db);
}
