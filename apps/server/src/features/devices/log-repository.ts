import { SqliteAdapter, sql, type Kysely } from 'kysely';
import type { ChannelLog } from '@fieldlink/api/device-logs';
import type { Database } from '../../db/schema';

/** One channel of one device over `[start, end)`, unix ms. */
export interface LogWindow {
  deviceId: string;
  code: string;
  start: number;
  end: number;
}

/** A bin with samples: its index from the window's start and its aggregates. */
export interface LogBin {
  index: number;
  min: number;
  max: number;
  avg: number;
  last: number;
}

/**
 * The samples of a window, oldest first, at most `limit` of them. One range scan of the log's
 * primary key (device_id, code, t).
 */
export function rawLogs(db: Kysely<Database>, window: LogWindow, limit: number) {
  return db
    .selectFrom('logs')
    .select(['t', 'value'])
    .where('device_id', '=', window.deviceId)
    .where('code', '=', window.code)
    .where('t', '>=', window.start)
    .where('t', '<', window.end)
    .orderBy('t')
    .limit(limit)
    .execute();
}

/**
 * The window cut into `binCount` bins of `binWidth` ms, aggregated in the database; bins without
 * samples are left out.
 *
 * Both dialects walk the bins and aggregate each with its own range scan of the primary key, so
 * rows come in key order and no sort or hash of the whole window is needed, and the cost follows the
 * rows in the window, not the size of the table. A single `GROUP BY (t - start) / width` is 3x slower:
 * neither planner knows the bin grows with t, so both sort (or hash) every row. The SQL differs only
 * where the dialects do: SQLite has no LATERAL (a correlated subquery returns the aggregates as one
 * JSON array instead), and PostgreSQL's JIT compiler costs more than it saves on this plan.
 */
export async function binnedLogs(
  db: Kysely<Database>,
  window: LogWindow,
  binWidth: number,
  binCount: number,
): Promise<LogBin[]> {
  return db.getExecutor().adapter instanceof SqliteAdapter
    ? binnedLogsSqlite(db, window, binWidth, binCount)
    : binnedLogsPostgres(db, window, binWidth, binCount);
}

async function binnedLogsSqlite(
  db: Kysely<Database>,
  { deviceId, code, start, end }: LogWindow,
  binWidth: number,
  binCount: number,
): Promise<LogBin[]> {
  // better-sqlite3 binds numbers as REAL; the casts keep the bin bounds integers like `t`.
  const { rows } = await sql<{ i: number; agg: string; last: number | null }>`
    with recursive bins(i, lo, hi) as (
      select 0, cast(${start} as integer), min(cast(${start} as integer) + cast(${binWidth} as integer), cast(${end} as integer))
      union all
      select i + 1, hi, min(hi + cast(${binWidth} as integer), cast(${end} as integer))
      from bins where i + 1 < ${binCount} and hi < cast(${end} as integer)
    )
    select
      i,
      (select json_array(min(value), max(value), avg(value))
         from logs where device_id = ${deviceId} and code = ${code} and t >= lo and t < hi) as agg,
      (select value from logs where device_id = ${deviceId} and code = ${code} and t >= lo and t < hi
         order by t desc limit 1) as last
    from bins`.execute(db);
  const bins: LogBin[] = [];
  for (const row of rows) {
    if (row.last === null) continue;
    const [min, max, avg] = JSON.parse(row.agg) as [number, number, number];
    bins.push({ index: row.i, min, max, avg, last: row.last });
  }
  return bins;
}

async function binnedLogsPostgres(
  db: Kysely<Database>,
  { deviceId, code, start, end }: LogWindow,
  binWidth: number,
  binCount: number,
): Promise<LogBin[]> {
  return db.transaction().execute(async (trx) => {
    // Planned cost crosses jit_above_cost though each bin's scan is small: JIT doubled the time.
    await sql`set local jit = off`.execute(trx);
    // sum/count rather than avg(): PostgreSQL's float avg also accumulates squares (for variance).
    const { rows } = await sql<{ i: number; mn: number; mx: number; sm: number; n: number; last: number }>`
      select i, a.mn, a.mx, a.sm, a.n, l.value as last
      from generate_series(0, ${binCount - 1}::int) as i
      cross join lateral (
        select min(value) as mn, max(value) as mx, sum(value) as sm, count(*) as n, max(t) as tl
        from logs
        where device_id = ${deviceId} and code = ${code}
          and t >= ${start}::bigint + i * ${binWidth}::bigint
          and t < least(${start}::bigint + (i + 1) * ${binWidth}::bigint, ${end}::bigint)
      ) as a
      join logs as l on l.device_id = ${deviceId} and l.code = ${code} and l.t = a.tl
      order by i`.execute(trx);
    return rows.map((row) => ({
      index: row.i,
      min: row.mn,
      max: row.mx,
      avg: row.sm / Number(row.n),
      last: row.last,
    }));
  });
}

/**
 * One channel's log over a window: every sample when there are no more than `binCount`, else the
 * window in bins of `binWidth` ms (reading one sample more than fits tells which case this is).
 */
export async function channelLog(
  db: Kysely<Database>,
  window: LogWindow,
  binCount: number,
  binWidth: number,
): Promise<ChannelLog> {
  const raw = await rawLogs(db, window, binCount + 1);
  if (raw.length <= binCount) return { kind: 'raw', t: raw.map((row) => row.t), value: raw.map((row) => row.value) };
  const binned = await binnedLogs(db, window, binWidth, Math.ceil((window.end - window.start) / binWidth));
  return {
    kind: 'bins',
    t: binned.map((bin) => window.start + bin.index * binWidth),
    min: binned.map((bin) => bin.min),
    max: binned.map((bin) => bin.max),
    avg: binned.map((bin) => bin.avg),
    last: binned.map((bin) => bin.last),
  };
}
