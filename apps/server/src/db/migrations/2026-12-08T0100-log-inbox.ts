import { type Kysely, SqliteAdapter, sql } from 'kysely';

// Frozen in time: this file imports nothing from the app (docs/decisions.md, "The recent-samples
// inbox").
//
// SQLite only: `log_inbox`, where the frame writer commits samples (append-only, so a batch writes a
// few pages rather than a page of `logs` and of each roll-up per sample); a mover in the writer
// thread moves them into `logs` and the roll-ups many samples per channel at a time. The row id
// carries the shard of the device (db/log-inbox.ts). PostgreSQL keeps writing into `logs`: nothing
// to make there. An existing database has no inbox rows, so nothing moves.

// Migrations see the database as it was then, not the current schema types (Kysely advice).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return;
  await sql`create table log_inbox (
      id integer primary key,
      device_id text not null,
      code text not null,
      t integer not null,
      value real not null
    )`.execute(db);
}
