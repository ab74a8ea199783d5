import { type Kysely, SqliteAdapter, sql } from 'kysely';

// Frozen in time: this file imports nothing from the app (docs/decisions.md, "Issue 41 item 2: the
// latest values ride on the inbox's roll-up rows").
//
// PostgreSQL only: `log_rollup_latest_inbox` is `log_rollup_inbox` with a channel's latest value of
// a batch on the row of its channel and hour (`latest_t`, `latest_value`, `extra`; null when the batch
// gave none in that hour) instead of a row of its own beside it. A row with `sample_count` 0 carries a
// latest value only (a frame sent again at a time already stored: no sample inserted), its aggregates
// and `last_t`, `last_value` null. A new table, not a column: the previous release's mover, running
// beside this release in a rolling upgrade, would fold such a row's roll-up and drop its latest value;
// it never reads this table. Its `id` comes from `log_rollup_inbox`'s sequence, so the order of
// appending holds across both tables (of two latest values of one time the later is kept). It is
// partitioned by a hash of the device into four (`log_rollup_latest_inbox_0` to `_3`), so a move of a
// quarter of the devices deletes one partition's rows without reading the others'.
// `log_rollup_inbox` stays for the previous release's batches and is emptied by every move; a later
// release drops it.

// Migrations see the database as it was then, not the current schema types (Kysely advice).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) return;
  const { rows } = await sql<{ name: string }>`select pg_get_serial_sequence('log_rollup_inbox', 'id') as name`.execute(
    db,
  );
  const sequence = rows[0]!.name;
  await sql`create table log_rollup_latest_inbox (
      id bigint not null default ${sql.raw(`nextval('${sequence}'::regclass)`)},
      device_id text not null,
      code text not null,
      t bigint not null,
      min_value double precision,
      max_value double precision,
      sum_value double precision,
      sample_count bigint not null,
      last_t bigint,
      last_value double precision,
      latest_t bigint,
      latest_value double precision,
      extra text
    ) partition by hash (device_id)`.execute(db);
  // Four slices of the devices, each moved on its own a quarter of a second after the one before.
  for (let k = 0; k < 4; k += 1) {
    await sql`create table ${sql.raw(`log_rollup_latest_inbox_${k}`)} partition of log_rollup_latest_inbox
      for values with (modulus 4, remainder ${sql.raw(String(k))})`.execute(db);
  }
}
