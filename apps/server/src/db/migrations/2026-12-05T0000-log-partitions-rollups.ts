import { type Kysely, SqliteAdapter, sql } from 'kysely';

// Frozen in time: this file imports nothing from the app (docs/decisions.md, "Logs at scale").
//
// 1. Hourly and daily roll-ups of the log per device and channel (min, max, sum, count, last value),
//    kept by a trigger on `logs` in the transaction that inserts the samples, so every writer (ingest,
//    demo history, bulk loads) keeps them exact. Rows an insert skips as duplicates are not counted:
//    PostgreSQL's transition table and SQLite's AFTER INSERT trigger see only rows really inserted.
// 2. On PostgreSQL, `logs` becomes a table partitioned by month of `t` (native declarative
//    partitioning), with a default partition for stray timestamps; the rows are copied over. SQLite
//    keeps its table. The log maintenance job creates partitions ahead and detaches expired ones.

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** Months of partitions made beyond the current one. */
const MONTHS_AHEAD = 3;
/** Older months are not given partitions here: their rows, if any, go to the default partition. */
const MONTHS_BACK_AT_MOST = 120;

const ROLLUPS = [
  { table: 'logs_hourly', width: HOUR_MS },
  { table: 'logs_daily', width: DAY_MS },
] as const;

/** Start of a UTC month, unix ms. */
function monthStart(year: number, month: number): number {
  return Date.UTC(year, month, 1);
}

/** `logs_p202611`: the partition holding November 2026 (UTC). */
function partitionName(start: number): string {
  const date = new Date(start);
  return `logs_p${date.getUTCFullYear()}${String(date.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** `t` floored to its bucket of `width` ms; also right for the (bogus) negative times. */
function bucketOf(column: string, width: number): string {
  return `${column} - ((${column} % ${width}) + ${width}) % ${width}`;
}

// Migrations see the database as it was then, not the current schema types (Kysely advice).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  for (const { table } of ROLLUPS) {
    const builder = db.schema
      .createTable(table)
      .addColumn('device_id', 'text', (c) => c.notNull())
      .addColumn('code', 'text', (c) => c.notNull())
      .addColumn('t', 'bigint', (c) => c.notNull())
      .addColumn('min_value', 'double precision', (c) => c.notNull())
      .addColumn('max_value', 'double precision', (c) => c.notNull())
      .addColumn('sum_value', 'double precision', (c) => c.notNull())
      .addColumn('sample_count', 'bigint', (c) => c.notNull())
      .addColumn('last_t', 'bigint', (c) => c.notNull())
      .addColumn('last_value', 'double precision', (c) => c.notNull())
      .addPrimaryKeyConstraint(`${table}_pk`, ['device_id', 'code', 't']);
    await (sqlite ? builder.modifyEnd(sql`without rowid`) : builder).execute();
  }
  if (!sqlite) await partitionLogs(db);
  for (const { table, width } of ROLLUPS) {
    // The last value of a bucket is the sample at its latest t: found again through the primary key.
    await sql`
      insert into ${sql.table(table)}
        (device_id, code, t, min_value, max_value, sum_value, sample_count, last_t, last_value)
      select a.device_id, a.code, a.b, a.mn, a.mx, a.sm, a.n, a.lt, l.value
      from (
        select device_id, code, ${sql.raw(bucketOf('t', width))} as b, min(value) as mn, max(value) as mx,
          sum(value) as sm, count(*) as n, max(t) as lt
        from logs group by device_id, code, ${sql.raw(bucketOf('t', width))}
      ) as a
      join logs as l on l.device_id = a.device_id and l.code = a.code and l.t = a.lt`.execute(db);
  }
  if (sqlite) await createSqliteTrigger(db);
  else await createPostgresTrigger(db);
}

async function createSqliteTrigger(db: Kysely<unknown>): Promise<void> {
  const upserts = ROLLUPS.map(
    ({ table, width }) => `
      insert into ${table} (device_id, code, t, min_value, max_value, sum_value, sample_count, last_t, last_value)
      values (new.device_id, new.code, ${bucketOf('new.t', width)}, new.value, new.value, new.value, 1, new.t, new.value)
      on conflict (device_id, code, t) do update set
        min_value = min(min_value, excluded.min_value),
        max_value = max(max_value, excluded.max_value),
        sum_value = sum_value + excluded.sum_value,
        sample_count = sample_count + 1,
        last_value = case when excluded.last_t >= last_t then excluded.last_value else last_value end,
        last_t = max(last_t, excluded.last_t);`,
  );
  await sql.raw(`create trigger logs_rollup after insert on logs begin ${upserts.join('\n')} end`).execute(db);
}

async function createPostgresTrigger(db: Kysely<unknown>): Promise<void> {
  // One statement-level trigger: each INSERT folds its new rows per bucket first, so a batch of
  // thousands of samples costs one upsert per device, channel and hour. Rows are taken in key order
  // so two instances storing the same device's frames lock buckets in the same order (no deadlock).
  const upserts = ROLLUPS.map(
    ({ table, width }) => `
      insert into ${table} (device_id, code, t, min_value, max_value, sum_value, sample_count, last_t, last_value)
      select device_id, code, ${bucketOf('t', width)}, min(value), max(value), sum(value), count(*), max(t),
        (array_agg(value order by t desc))[1]
      from new_rows group by 1, 2, 3 order by 1, 2, 3
      on conflict (device_id, code, t) do update set
        min_value = least(${table}.min_value, excluded.min_value),
        max_value = greatest(${table}.max_value, excluded.max_value),
        sum_value = ${table}.sum_value + excluded.sum_value,
        sample_count = ${table}.sample_count + excluded.sample_count,
        last_value = case when excluded.last_t >= ${table}.last_t then excluded.last_value else ${table}.last_value end,
        last_t = greatest(${table}.last_t, excluded.last_t);`,
  );
  await sql
    .raw(
      `create function fieldlink_logs_rollup() returns trigger language plpgsql as $$
      begin ${upserts.join('\n')}
        return null;
      end $$`,
    )
    .execute(db);
  await sql`create trigger logs_rollup after insert on logs referencing new table as new_rows
    for each statement execute function fieldlink_logs_rollup()`.execute(db);
}

async function partitionLogs(db: Kysely<unknown>): Promise<void> {
  await sql`alter table logs rename to logs_unpartitioned`.execute(db);
  await sql`alter table logs_unpartitioned rename constraint logs_pk to logs_unpartitioned_pk`.execute(db);
  await sql`create table logs (
      device_id text not null,
      code text not null,
      t bigint not null,
      value double precision not null,
      constraint logs_pk primary key (device_id, code, t)
    ) partition by range (t)`.execute(db);
  await sql`create table logs_default partition of logs default`.execute(db);
  const now = new Date();
  const oldest = monthStart(now.getUTCFullYear(), now.getUTCMonth() - MONTHS_BACK_AT_MOST);
  const months = new Set<number>();
  // Months that hold rows, then the current one and those ahead.
  const held = await sql<{ y: number; m: number }>`
    select distinct extract(year from to_timestamp(t / 1000.0) at time zone 'UTC')::int as y,
      extract(month from to_timestamp(t / 1000.0) at time zone 'UTC')::int as m
    from logs_unpartitioned where t >= ${oldest}`.execute(db);
  for (const { y, m } of held.rows) months.add(monthStart(y, m - 1));
  for (let ahead = 0; ahead <= MONTHS_AHEAD; ahead += 1) {
    months.add(monthStart(now.getUTCFullYear(), now.getUTCMonth() + ahead));
  }
  for (const start of [...months].sort((a, b) => a - b)) {
    const date = new Date(start);
    const end = monthStart(date.getUTCFullYear(), date.getUTCMonth() + 1);
    await sql`create table ${sql.table(partitionName(start))} partition of logs
      for values from (${sql.lit(start)}) to (${sql.lit(end)})`.execute(db);
  }
  await sql`insert into logs (device_id, code, t, value) select device_id, code, t, value from logs_unpartitioned`.execute(
    db,
  );
  await sql`drop table logs_unpartitioned`.execute(db);
}
