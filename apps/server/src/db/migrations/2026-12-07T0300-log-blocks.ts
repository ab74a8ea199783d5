import { type Kysely, SqliteAdapter, sql } from 'kysely';

// Frozen in time: this file imports nothing from the app (docs/decisions.md, "Logs at scale").
//
// `log_blocks`: one row per device, channel and UTC hour holding that hour's samples as one encoded
// block (db/sample-block-codec.ts), written by the log maintenance job for samples older than a week.
// On PostgreSQL it is partitioned by month of the hour like `logs` (`log_blocks_p202611`, a default
// partition for stray times), with a partition for every month `logs` has one for, so retention drops
// a month's blocks with its samples. No data moves here: the job compacts existing samples in small
// batches after the upgrade, and every reader reads rows and blocks alike meanwhile.

const MONTHS_AHEAD = 3;

function monthStart(year: number, month: number): number {
  return Date.UTC(year, month, 1);
}

/** `log_blocks_p202611`: the partition holding November 2026 (UTC). */
function partitionName(start: number): string {
  const date = new Date(start);
  return `log_blocks_p${date.getUTCFullYear()}${String(date.getUTCMonth() + 1).padStart(2, '0')}`;
}

// Migrations see the database as it was then, not the current schema types (Kysely advice).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) {
    await sql`create table log_blocks (
        device_id text not null,
        code text not null,
        t integer not null,
        sample_count integer not null,
        block blob not null,
        constraint log_blocks_pk primary key (device_id, code, t)
      ) without rowid`.execute(db);
    return;
  }
  await sql`create table log_blocks (
      device_id text not null,
      code text not null,
      t bigint not null,
      sample_count integer not null,
      block bytea not null,
      constraint log_blocks_pk primary key (device_id, code, t)
    ) partition by range (t)`.execute(db);
  await sql`create table log_blocks_default partition of log_blocks default`.execute(db);
  // The months `logs` has partitions for, and the current one and those ahead.
  const { rows } = await sql<{ bound: string }>`
    select pg_get_expr(c.relpartbound, c.oid) as bound
    from pg_inherits i join pg_class c on c.oid = i.inhrelid
    where i.inhparent = 'logs'::regclass`.execute(db);
  const months = new Set<number>();
  for (const { bound } of rows) {
    const range = /FROM \('?(-?\d+)'?\) TO/.exec(bound);
    if (range) months.add(Number(range[1]));
  }
  const now = new Date();
  for (let ahead = 0; ahead <= MONTHS_AHEAD; ahead += 1) {
    months.add(monthStart(now.getUTCFullYear(), now.getUTCMonth() + ahead));
  }
  for (const start of [...months].sort((a, b) => a - b)) {
    const date = new Date(start);
    const end = monthStart(date.getUTCFullYear(), date.getUTCMonth() + 1);
    await sql`create table ${sql.table(partitionName(start))} partition of log_blocks
      for values from (${sql.lit(start)}) to (${sql.lit(end)})`.execute(db);
  }
}
