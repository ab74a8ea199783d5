import { SqliteAdapter, sql, type Kysely } from 'kysely';
import { LOG_ROLLUP_LEVELS_MS, type ChannelLog, type LogBinGrid } from '@fieldlink/api/device-logs';
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

/** Part of one bin of a channel's log: its samples in one piece of the window, aggregated. */
interface LogBucket {
  /** The bin's index on the grid. */
  index: number;
  min: number;
  max: number;
  sum: number;
  count: number;
  last: number;
}

/** Where a part of a window is read from: a roll-up table by its level in ms, or the samples (0). */
interface WindowPiece {
  level: number;
  from: number;
  to: number;
}

const ROLLUP_TABLES: Record<number, 'logs_hourly' | 'logs_daily'> = {
  3_600_000: 'logs_hourly',
  86_400_000: 'logs_daily',
};

/**
 * `[from, to)` in pieces each read from the coarsest source holding it in whole buckets: whole days
 * from the daily roll-up, the hours at their edges from the hourly one, the minutes at the very edges
 * from the samples. `levels` lists the roll-up levels to use, coarsest first.
 */
function windowPieces(from: number, to: number, levels: readonly number[]): WindowPiece[] {
  const [level, ...finer] = levels;
  if (level === undefined) return from < to ? [{ level: 0, from, to }] : [];
  const first = Math.ceil(from / level) * level;
  const last = Math.floor(to / level) * level;
  if (first >= last) return windowPieces(from, to, finer);
  return [...windowPieces(from, first, finer), { level, from: first, to: last }, ...windowPieces(last, to, finer)];
}

/**
 * A piece of a window folded into the bins of the grid: samples one by one here, roll-up buckets by the
 * database, which answers each bin's aggregates (and the last value, from the bin's latest bucket) as
 * one JSON array, so a decade of daily buckets crosses into JavaScript as one string, not 3,650 rows.
 * Bins come oldest first.
 */
async function readPiece(
  db: Kysely<Database>,
  deviceId: string,
  code: string,
  piece: WindowPiece,
  grid: LogBinGrid,
): Promise<LogBucket[]> {
  const table = ROLLUP_TABLES[piece.level];
  if (!table) {
    const rows = await rawLogs(db, { deviceId, code, start: piece.from, end: piece.to }, Number.MAX_SAFE_INTEGER);
    return rows.map(({ t, value }): LogBucket => ({
      index: Math.floor((t - grid.origin) / grid.width),
      min: value,
      max: value,
      sum: value,
      count: 1,
      last: value,
    }));
  }
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  // Both dialects divide integers here (better-sqlite3 binds numbers as REAL: the casts).
  const origin = sqlite ? sql`cast(${grid.origin} as integer)` : sql`${grid.origin}::bigint`;
  const width = sqlite ? sql`cast(${grid.width} as integer)` : sql`${grid.width}::bigint`;
  const from = sqlite ? sql`cast(${piece.from} as integer)` : sql`${piece.from}::bigint`;
  const to = sqlite ? sql`cast(${piece.to} as integer)` : sql`${piece.to}::bigint`;
  const grouped = sql`
    select (t - ${origin}) / ${width} as i, min(min_value) as mn, max(max_value) as mx, sum(sum_value) as sm,
      sum(sample_count) as n, max(t) as bt
    from ${sql.table(table)}
    where device_id = ${deviceId} and code = ${code} and t >= ${from} and t < ${to}
    group by 1`;
  const { rows } = sqlite
    ? await sql<{ bins: string | null }>`
        select json_group_array(json_array(g.i, g.mn, g.mx, g.sm, g.n, r.last_value)) as bins
        from (${grouped}) as g
        join ${sql.table(table)} as r on r.device_id = ${deviceId} and r.code = ${code} and r.t = g.bt`.execute(db)
    : await sql<{ bins: [number, number, number, number, number, number][] | null }>`
        select json_agg(json_build_array(g.i, g.mn, g.mx, g.sm, g.n, r.last_value)) as bins
        from (${grouped}) as g
        join ${sql.table(table)} as r on r.device_id = ${deviceId} and r.code = ${code} and r.t = g.bt`.execute(db);
  const packed = rows[0]?.bins ?? [];
  const bins = (typeof packed === 'string' ? JSON.parse(packed) : packed) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ][];
  return bins
    .map(([index, min, max, sum, count, last]): LogBucket => ({
      index: Number(index),
      min,
      max,
      sum,
      count: Number(count),
      last,
    }))
    .sort((a, b) => a.index - b.index);
}

/**
 * A window's bins from the roll-ups: the window is read in pieces of whole days, hours and (at its
 * edges) samples, and each bucket is folded into the bin holding it, which holds it whole as bins lie
 * on whole buckets of the grid's level (`logBinGrid`). Answers the number of samples too.
 */
async function rolledUpBins(db: Kysely<Database>, window: LogWindow, grid: LogBinGrid) {
  const levels = LOG_ROLLUP_LEVELS_MS.filter((level) => level <= grid.level);
  const bins: (LogBin & { sum: number; count: number })[] = [];
  let samples = 0;
  for (const piece of windowPieces(window.start, window.end, levels)) {
    for (const bucket of await readPiece(db, window.deviceId, window.code, piece, grid)) {
      samples += bucket.count;
      const { index } = bucket;
      const bin = bins.at(-1);
      if (bin?.index === index) {
        // Buckets come oldest first, so the last one read holds the bin's last value.
        bin.min = Math.min(bin.min, bucket.min);
        bin.max = Math.max(bin.max, bucket.max);
        bin.sum += bucket.sum;
        bin.count += bucket.count;
        bin.last = bucket.last;
      } else {
        bins.push({
          index,
          min: bucket.min,
          max: bucket.max,
          avg: 0,
          last: bucket.last,
          sum: bucket.sum,
          count: bucket.count,
        });
      }
    }
  }
  for (const bin of bins) bin.avg = bin.sum / bin.count;
  return { bins, samples };
}

/**
 * One channel's log over a window: every sample when there are no more than `binCount`, else the
 * window in the bins of `grid`. A grid on a roll-up level reads the roll-ups (and counts the samples
 * there); a finer one reads one sample more than fits to tell which case this is, then bins the samples.
 */
export async function channelLog(
  db: Kysely<Database>,
  window: LogWindow,
  binCount: number,
  grid: LogBinGrid,
): Promise<ChannelLog> {
  let binned: LogBin[];
  if (grid.level > 0) {
    const rolled = await rolledUpBins(db, window, grid);
    if (rolled.samples <= binCount) {
      const raw = await rawLogs(db, window, binCount + 1);
      // The samples may be gone past their retention while the roll-ups still chart them.
      if (raw.length === rolled.samples) return rawAnswer(raw);
    }
    binned = rolled.bins;
  } else {
    const raw = await rawLogs(db, window, binCount + 1);
    if (raw.length <= binCount) return rawAnswer(raw);
    binned = await binnedLogs(db, window, grid.width, Math.ceil((window.end - window.start) / grid.width));
  }
  return {
    kind: 'bins',
    t: binned.map((bin) => Math.max(window.start, grid.origin + bin.index * grid.width)),
    min: binned.map((bin) => bin.min),
    max: binned.map((bin) => bin.max),
    avg: binned.map((bin) => bin.avg),
    last: binned.map((bin) => bin.last),
  };
}

function rawAnswer(rows: readonly { t: number; value: number }[]): ChannelLog {
  return { kind: 'raw', t: rows.map((row) => row.t), value: rows.map((row) => row.value) };
}

/** The last sample of a channel before `t`, or undefined. */
export function lastSampleBefore(db: Kysely<Database>, deviceId: string, code: string, t: number) {
  return db
    .selectFrom('logs')
    .select(['t', 'value'])
    .where('device_id', '=', deviceId)
    .where('code', '=', code)
    .where('t', '<', t)
    .orderBy('t', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** Intervals aggregated per query on SQLite: about a day, a millisecond or two of the event loop. */
const DAY_MS = 86_400_000;

/** Yields to the event loop, so a long read never holds up requests. */
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * A channel's window cut into bins of `width` ms, each with min, max, mean and last; bins without
 * samples are left out. On PostgreSQL the database aggregates (`binnedLogs`), away from the event
 * loop. SQLite runs in this process, where one aggregate over a month holds the event loop for a
 * tenth of a second, so it aggregates about a day of bins per query (one GROUP BY scan of the key,
 * then the last samples by their times), yielding between queries.
 */
export async function intervalBins(db: Kysely<Database>, window: LogWindow, width: number): Promise<LogBin[]> {
  const count = Math.ceil((window.end - window.start) / width);
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return binnedLogs(db, window, width, count);
  const { deviceId, code } = window;
  const step = width * Math.max(1, Math.floor(DAY_MS / width));
  const bins: LogBin[] = [];
  for (let from = window.start; from < window.end; from += step) {
    const to = Math.min(from + step, window.end);
    // better-sqlite3 binds numbers as REAL: the casts keep the bin index an integer.
    const { rows } = await sql<{ i: number; mn: number; mx: number; sm: number; n: number; tl: number }>`
      select cast((t - cast(${window.start} as integer)) / cast(${width} as integer) as integer) as i,
        min(value) as mn, max(value) as mx, sum(value) as sm, count(*) as n, max(t) as tl
      from logs
      where device_id = ${deviceId} and code = ${code} and t >= cast(${from} as integer) and t < cast(${to} as integer)
      group by i order by i`.execute(db);
    if (rows.length > 0) {
      const lasts = new Map(
        (
          await db
            .selectFrom('logs')
            .select(['t', 'value'])
            .where('device_id', '=', deviceId)
            .where('code', '=', code)
            .where(
              't',
              'in',
              rows.map((row) => row.tl),
            )
            .execute()
        ).map((row) => [row.t, row.value]),
      );
      for (const row of rows) {
        bins.push({ index: row.i, min: row.mn, max: row.mx, avg: row.sm / row.n, last: lasts.get(row.tl) ?? row.mx });
      }
    }
    await yieldToEventLoop();
  }
  return bins;
}
