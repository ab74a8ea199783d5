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

/**
 * Bins of one channel, column by column, oldest first: each bin's index on the grid and its
 * aggregates. Columns rather than one object per bin: a decade of 100 channels is 182,500 bins.
 */
interface BinColumns {
  index: number[];
  min: number[];
  max: number[];
  sum: number[];
  count: number[];
  last: number[];
}

function emptyColumns(): BinColumns {
  return { index: [], min: [], max: [], sum: [], count: [], last: [] };
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

/** The samples of some channels in a piece, folded one by one into the bins of the grid. */
async function samplePiece(
  db: Kysely<Database>,
  deviceId: string,
  codes: readonly string[],
  piece: WindowPiece,
  grid: LogBinGrid,
): Promise<Map<string, BinColumns>> {
  const rows = await db
    .selectFrom('logs')
    .select(['code', 't', 'value'])
    .where('device_id', '=', deviceId)
    .where('code', 'in', codes)
    .where('t', '>=', piece.from)
    .where('t', '<', piece.to)
    .orderBy('code')
    .orderBy('t')
    .execute();
  const pieces = new Map<string, BinColumns>();
  for (const { code, t, value } of rows) {
    let columns = pieces.get(code);
    if (!columns) pieces.set(code, (columns = emptyColumns()));
    const index = Math.floor((t - grid.origin) / grid.width);
    const at = columns.index.length - 1;
    if (columns.index[at] === index) {
      columns.min[at] = Math.min(columns.min[at]!, value);
      columns.max[at] = Math.max(columns.max[at]!, value);
      columns.sum[at]! += value;
      columns.count[at]! += 1;
      columns.last[at] = value;
    } else {
      columns.index.push(index);
      columns.min.push(value);
      columns.max.push(value);
      columns.sum.push(value);
      columns.count.push(1);
      columns.last.push(value);
    }
  }
  return pieces;
}

/**
 * A roll-up piece of one channel folded into the bins of the grid by the database: the bins come back
 * as one JSON array of six columns (index, min, max, sum, count, last), so a decade crosses into
 * JavaScript as one string, not 1,825 rows, and needs no object per bin. A bin's last value is its
 * latest bucket's: on SQLite found again through the primary key; on PostgreSQL as the greatest
 * `[t, last]` pair, so the plan needs no join whose cost depends on the table's statistics (without
 * them, right after a bulk load, the join took 2.5 s for a year). One statement per channel: both
 * databases group a channel's buckets faster than all channels' at once (SQLite sorts them; the
 * PostgreSQL plan for all channels hashes then sorts them again by channel).
 */
async function rollupPiece(
  db: Kysely<Database>,
  deviceId: string,
  code: string,
  piece: WindowPiece,
  grid: LogBinGrid,
): Promise<BinColumns | null> {
  const table = sql.table(ROLLUP_TABLES[piece.level]!);
  type Packed = [number[], number[], number[], number[], number[], number[]];
  let packed: Packed | string | undefined;
  if (db.getExecutor().adapter instanceof SqliteAdapter) {
    // better-sqlite3 binds numbers as REAL: the casts keep the division an integer one.
    const integer = (n: number) => sql`cast(${n} as integer)`;
    const columns = ['i', 'mn', 'mx', 'sm', 'n', 'last'].map((name) => sql`json_group_array(${sql.ref(name)})`);
    const { rows } = await sql<{ bins: string }>`
      select json_array(${sql.join(columns)}) as bins
      from (
        select g.*, (select r.last_value from ${table} as r
          where r.device_id = ${deviceId} and r.code = ${code} and r.t = g.bt) as last
        from (
          select (t - ${integer(grid.origin)}) / ${integer(grid.width)} as i, min(min_value) as mn,
            max(max_value) as mx, sum(sum_value) as sm, sum(sample_count) as n, max(t) as bt
          from ${table}
          where device_id = ${deviceId} and code = ${code}
            and t >= ${integer(piece.from)} and t < ${integer(piece.to)}
          group by i
        ) as g
      ) having count(*) > 0`.execute(db);
    packed = rows[0]?.bins;
  } else {
    const columns = ['i', 'mn', 'mx', 'sm', 'n', 'last'].map((name) => sql`json_agg(${sql.ref(name)} order by i)`);
    packed = await db.transaction().execute(async (trx) => {
      // JIT compiles more than the plan is worth.
      await sql`set local jit = off`.execute(trx);
      const { rows } = await sql<{ bins: Packed }>`
        select json_build_array(${sql.join(columns)}) as bins
        from (
          select (t - ${grid.origin}::bigint) / ${grid.width}::bigint as i, min(min_value) as mn,
            max(max_value) as mx, sum(sum_value) as sm, sum(sample_count) as n,
            (max(array[t::float8, last_value]))[2] as last
          from ${table}
          where device_id = ${deviceId} and code = ${code}
            and t >= ${piece.from}::bigint and t < ${piece.to}::bigint
          group by i
        ) as g
        having count(*) > 0`.execute(trx);
      return rows[0]?.bins;
    });
  }
  if (packed === undefined) return null;
  const [index, min, max, sum, count, last] = (typeof packed === 'string' ? JSON.parse(packed) : packed) as Packed;
  return inOrder({ index, min, max, sum, count, last });
}

/**
 * The bins by index: SQLite hands a grouped subquery's rows on in the order its grouping sorted them,
 * which SQL does not promise, so the order is checked (one pass) and restored if ever needed.
 */
function inOrder(columns: BinColumns): BinColumns {
  const { index } = columns;
  if (index.every((i, at) => at === 0 || index[at - 1]! < i)) return columns;
  const order = index.map((_, at) => at).sort((a, b) => index[a]! - index[b]!);
  const pick = (column: number[]) => order.map((at) => column[at]!);
  return {
    index: pick(index),
    min: pick(columns.min),
    max: pick(columns.max),
    sum: pick(columns.sum),
    count: pick(columns.count),
    last: pick(columns.last),
  };
}

/** Appends a later piece's bins to a channel's, merging the bin the two share at their seam. */
function appendPiece(into: BinColumns, piece: BinColumns): void {
  let from = 0;
  const at = into.index.length - 1;
  if (at >= 0 && piece.index[0] === into.index[at]) {
    into.min[at] = Math.min(into.min[at]!, piece.min[0]!);
    into.max[at] = Math.max(into.max[at]!, piece.max[0]!);
    into.sum[at]! += piece.sum[0]!;
    into.count[at]! += piece.count[0]!;
    into.last[at] = piece.last[0]!;
    from = 1;
  }
  for (let i = from; i < piece.index.length; i += 1) {
    into.index.push(piece.index[i]!);
    into.min.push(piece.min[i]!);
    into.max.push(piece.max[i]!);
    into.sum.push(piece.sum[i]!);
    into.count.push(Number(piece.count[i]));
    into.last.push(piece.last[i]!);
  }
}

/**
 * Some channels' bins from the roll-ups: the window is read in pieces of whole days, hours and (at its
 * edges) samples, and each bucket falls whole in one bin as
 * bins lie on whole buckets of the grid's level (`logBinGrid`). Per channel, its bins oldest first.
 */
async function rolledUpBins(
  db: Kysely<Database>,
  deviceId: string,
  codes: readonly string[],
  start: number,
  end: number,
  grid: LogBinGrid,
): Promise<Map<string, BinColumns>> {
  const levels = LOG_ROLLUP_LEVELS_MS.filter((level) => level <= grid.level);
  const channels = new Map(codes.map((code) => [code, emptyColumns()]));
  for (const piece of windowPieces(start, end, levels)) {
    if (piece.level === 0) {
      for (const [code, columns] of await samplePiece(db, deviceId, codes, piece, grid)) {
        appendPiece(channels.get(code)!, columns);
      }
      continue;
    }
    for (const code of codes) {
      const columns = await rollupPiece(db, deviceId, code, piece, grid);
      if (columns) appendPiece(channels.get(code)!, columns);
    }
  }
  return channels;
}

/**
 * Some channels of one device over `[start, end)`: per channel every sample when there are no more
 * than `binCount`, else the window in the bins of `grid`. A grid on a roll-up level reads the roll-ups
 * for all channels at once (and counts the samples there); a finer one reads one sample more than fits
 * to tell which case this is, then bins the samples.
 */
export async function channelLogs(
  db: Kysely<Database>,
  deviceId: string,
  codes: readonly string[],
  { start, end }: { start: number; end: number },
  binCount: number,
  grid: LogBinGrid,
): Promise<Record<string, ChannelLog>> {
  const answer: Record<string, ChannelLog> = {};
  const rolled = grid.level > 0 ? await rolledUpBins(db, deviceId, codes, start, end, grid) : null;
  for (const code of codes) {
    const window = { deviceId, code, start, end };
    const bins = rolled?.get(code);
    if (bins) {
      let samples = 0;
      for (const count of bins.count) samples += count;
      if (samples <= binCount) {
        const raw = await rawLogs(db, window, binCount + 1);
        // The samples may be gone past their retention while the roll-ups still chart them.
        if (raw.length === samples) {
          answer[code] = rawAnswer(raw);
          continue;
        }
      }
      const { index, sum, count } = bins;
      answer[code] = binsAnswer(start, grid, { ...bins, avg: sum.map((total, i) => total / count[i]!) }, index);
      continue;
    }
    const raw = await rawLogs(db, window, binCount + 1);
    if (raw.length <= binCount) {
      answer[code] = rawAnswer(raw);
      continue;
    }
    const binned = await binnedLogs(db, window, grid.width, Math.ceil((end - start) / grid.width));
    answer[code] = binsAnswer(
      start,
      grid,
      {
        min: binned.map((bin) => bin.min),
        max: binned.map((bin) => bin.max),
        avg: binned.map((bin) => bin.avg),
        last: binned.map((bin) => bin.last),
      },
      binned.map((bin) => bin.index),
    );
  }
  return answer;
}

/** One channel's log over a window: {@link channelLogs} for one channel. */
export async function channelLog(
  db: Kysely<Database>,
  window: LogWindow,
  binCount: number,
  grid: LogBinGrid,
): Promise<ChannelLog> {
  const { deviceId, code } = window;
  return (await channelLogs(db, deviceId, [code], window, binCount, grid))[code]!;
}

/** Bins on the grid as the answer has them: each bin's start (the first clipped to the window's). */
function binsAnswer(
  start: number,
  grid: LogBinGrid,
  { min, max, avg, last }: { min: number[]; max: number[]; avg: number[]; last: number[] },
  index: readonly number[],
): ChannelLog {
  return { kind: 'bins', t: index.map((i) => Math.max(start, grid.origin + i * grid.width)), min, max, avg, last };
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
 * A channel's bins as columns: the first `length` entries of each array. A report holds a few
 * channels of thousands of bins at a time; typed arrays keep them out of the JavaScript heap, where
 * an object per bin outlived the young generation's collections and piled up in the old one (about
 * 150 MiB of garbage over a 200-channel month; see docs/decisions.md, reports).
 */
export interface LogBinColumns {
  length: number;
  /** The bin's number from the window's start: it starts at `start + index * width`. */
  index: Uint32Array;
  min: Float64Array;
  max: Float64Array;
  avg: Float64Array;
  last: Float64Array;
}

function binColumns(window: LogWindow, width: number): LogBinColumns {
  const capacity = Math.max(0, Math.ceil((window.end - window.start) / width));
  return {
    length: 0,
    index: new Uint32Array(capacity),
    min: new Float64Array(capacity),
    max: new Float64Array(capacity),
    avg: new Float64Array(capacity),
    last: new Float64Array(capacity),
  };
}

function pushBin(bins: LogBinColumns, index: number, min: number, max: number, avg: number, last: number): void {
  const at = bins.length;
  bins.index[at] = index;
  bins.min[at] = min;
  bins.max[at] = max;
  bins.avg[at] = avg;
  bins.last[at] = last;
  bins.length = at + 1;
}

/**
 * A channel's window cut into bins of `width` ms, each with min, max, mean and last; bins without
 * samples are left out (a report's intervals). On PostgreSQL the database aggregates the window in
 * one GROUP BY of the bin number, the last value of a bin being its greatest [t, value] pair: a third
 * faster for a month of minutes in 15-minute bins than `binnedLogs`' scan per bin and join for the
 * last values (measured alternately on 48 channel-months). SQLite runs in this process, where one
 * aggregate over a month holds the event loop for a tenth of a second, so it aggregates about a day
 * of bins per query (one GROUP BY scan of the key, then the last samples by their times), yielding
 * between queries.
 */
export async function intervalBins(db: Kysely<Database>, window: LogWindow, width: number): Promise<LogBinColumns> {
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return intervalBinsPostgres(db, window, width);
  const { deviceId, code } = window;
  const step = width * Math.max(1, Math.floor(DAY_MS / width));
  const bins = binColumns(window, width);
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
      for (const row of rows) pushBin(bins, row.i, row.mn, row.mx, row.sm / row.n, lasts.get(row.tl) ?? row.mx);
    }
    await yieldToEventLoop();
  }
  return bins;
}

async function intervalBinsPostgres(db: Kysely<Database>, window: LogWindow, width: number): Promise<LogBinColumns> {
  const { deviceId, code, start, end } = window;
  return db.transaction().execute(async (trx) => {
    // As for binnedLogs: JIT costs more than it saves on this plan.
    await sql`set local jit = off`.execute(trx);
    // t as double precision is exact (unix ms are far below 2^53); t is unique, so the value never decides.
    const { rows } = await sql<{ i: number; mn: number; mx: number; sm: number; n: number; last: number }>`
      select (t - ${start}::bigint) / ${width}::bigint as i, min(value) as mn, max(value) as mx, sum(value) as sm,
        count(*) as n, (max(array[t::double precision, value]))[2] as last
      from logs
      where device_id = ${deviceId} and code = ${code} and t >= ${start}::bigint and t < ${end}::bigint
      group by 1
      order by 1`.execute(trx);
    const bins = binColumns(window, width);
    for (const row of rows) pushBin(bins, row.i, row.mn, row.mx, row.sm / row.n, row.last);
    return bins;
  });
}
