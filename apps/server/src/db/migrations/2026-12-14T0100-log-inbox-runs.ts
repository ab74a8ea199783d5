import { type Kysely, SqliteAdapter, sql } from 'kysely';

// Frozen in time: this file imports nothing from the app (docs/decisions.md, "Issue 41 item 3: the
// inbox as a row per shard and batch").
//
// SQLite only: `log_inbox_runs` takes the place of `log_inbox`, one row per batch and shard of
// devices, its samples in `body` as JSON (`[[device, [code, t, value, code, t, value, ...]], ...]`,
// runs of one device in order of arrival), `samples` of them, instead of a row per sample: a batch
// binds and writes 64 rows at most, and a move deletes as few. Samples still waiting in `log_inbox`
// come along with their row id (the shard and the order of arrival) as one-sample rows; SQLite's JSON
// writes a REAL with 17 significant digits, so each value reads back as the same double. `log_inbox`
// itself stays, empty, for the release before this one (migrations only add; a later one drops it).

// Migrations see the database as it was then, not the current schema types (Kysely advice).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return;
  await sql`create table log_inbox_runs (
      id integer primary key,
      samples integer not null,
      body text not null
    )`.execute(db);
  await sql`insert into log_inbox_runs (id, samples, body)
    select id, 1, json_array(json_array(device_id, json_array(code, t, value))) from log_inbox order by id`.execute(db);
  await sql`delete from log_inbox`.execute(db);
}
