import { type Kysely, SqliteAdapter, sql } from 'kysely';

// Frozen in time: this file imports nothing from the app (docs/decisions.md, "Issue 41 item 2: the
// roll-ups and latest values of PostgreSQL's batches go through an inbox").
//
// PostgreSQL only: `log_rollup_inbox` holds what a batch adds to the roll-ups and the latest values,
// appended by the batch's statement beside its insert into `logs` and folded into `logs_hourly`,
// `logs_daily` and `latest_values` by a later move. A row with `sample_count` > 0 is one channel's
// samples of one hour of one batch (`t` the hour's start; `last_t` and `last_value` its latest
// sample); a row with `sample_count` 0 is a latest value (`last_t`, `last_value`, `extra`; `t` its
// time, the aggregates null; of two latest values of one time, the later appended, the greater `id`,
// is kept). No key and no index: it is only appended to and emptied whole.

// Migrations see the database as it was then, not the current schema types (Kysely advice).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) return;
  await sql`create table log_rollup_inbox (
      id bigint generated always as identity,
      device_id text not null,
      code text not null,
      t bigint not null,
      min_value double precision,
      max_value double precision,
      sum_value double precision,
      sample_count bigint not null,
      last_t bigint not null,
      last_value double precision not null,
      extra text
    )`.execute(db);
}
