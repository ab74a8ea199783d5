import { sql, type Kysely } from 'kysely';
import { LOG_ROLLUP_LEVELS_MS, type ChannelLog, type LogBinGrid } from '@fieldlink/api/device-logs';
import type { ChannelLogColumns } from '@fieldlink/api/device-logs-json';
import { isSqlite } from '../../db/dialect';
import type { Database } from '../../db/schema';
import { moveInbox } from '../../db/log-inbox';
import { hasSampleBlocks, storedSamples, type StoredSample, type TimedValue } from '../../db/log-blocks';
import { packedPeriods, unpackBuckets } from './rollup-packs';
import { DAY_MS, HOUR_MS } from '@fieldlink/domain/timestamps';

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
 * The samples of a window, oldest first, at most `limit` of them: rows and blocks alike (db/log-blocks.ts).
 */
export async function rawLogs(db: Kysely<Database>, window: LogWindow, limit: number): Promise<TimedValue[]> {
  const { deviceId, code, start, end } = window;
  await moveInbox(db, [deviceId]);
  const samples = await storedSamples(db, { deviceId, codes: [code], from: start, to: end }, { limit });
  return samples.map(({ t, value }) => ({ t, value }));
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
  await moveInbox(db, [window.deviceId]);
  // A window reaching into the blocks of compacted samples is folded here from the decoded samples.
  if (await hasSampleBlocks(db, window.deviceId, window.code, window.start, window.end)) {
    return foldedBins(db, window, binWidth, binCount);
  }
  return isSqlite(db)
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
  [HOUR_MS]: 'logs_hourly',
  [DAY_MS]: 'logs_daily',
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
 * Samples folded one by one, oldest first, into bins of `width` ms counted from `origin`, in columns:
 * bins without samples are left out.
 */
function foldSamples(samples: readonly TimedValue[], origin: number, width: number): BinColumns {
  const columns = emptyColumns();
  for (const { t, value } of samples) {
    const index = Math.floor((t - origin) / width);
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
  return columns;
}

/** Bins in columns as a list of bins, each with its mean. */
function binList(columns: BinColumns): LogBin[] {
  return columns.index.map((index, at) => ({
    index,
    min: columns.min[at]!,
    max: columns.max[at]!,
    avg: columns.sum[at]! / columns.count[at]!,
    last: columns.last[at]!,
  }));
}

/** {@link binnedLogs} folded from the stored samples, rows and blocks alike. */
async function foldedBins(
  db: Kysely<Database>,
  { deviceId, code, start, end }: LogWindow,
  binWidth: number,
  binCount: number,
): Promise<LogBin[]> {
  const samples = await storedSamples(db, { deviceId, codes: [code], from: start, to: end });
  return binList(foldSamples(samples, start, binWidth)).filter((bin) => bin.index < binCount);
}

/** The samples of some channels in a piece, folded one by one into the bins of the grid. */
async function samplePiece(
  db: Kysely<Database>,
  deviceId: string,
  codes: readonly string[],
  piece: WindowPiece,
  grid: LogBinGrid,
): Promise<Map<string, BinColumns>> {
  const samples = await storedSamples(db, { deviceId, codes, from: piece.from, to: piece.to });
  const byCode = new Map<string, StoredSample[]>();
  for (const sample of samples) {
    const list = byCode.get(sample.code);
    if (list) list.push(sample);
    else byCode.set(sample.code, [sample]);
  }
  const pieces = new Map<string, BinColumns>();
  for (const [code, list] of byCode) pieces.set(code, foldSamples(list, grid.origin, grid.width));
  return pieces;
}

/**
 * The bins of the grid over a window, for one channel, as typed arrays indexed by bin: samples,
 * buckets and bins folded in any order (min, max, sum, count, and the last value by its time; of two
 * at the same time the one folded later, as the roll-ups keep it). No object per bucket or bin.
 */
class BinFold {
  readonly min: Float64Array;
  readonly max: Float64Array;
  readonly sum: Float64Array;
  readonly count: Float64Array;
  readonly lastT: Float64Array;
  readonly last: Float64Array;

  constructor(readonly size: number) {
    // One allocation for the six columns: a decade of 100 channels folds into 600 of them.
    const columns = new ArrayBuffer(6 * 8 * size);
    const column = (i: number) => new Float64Array(columns, i * 8 * size, size);
    this.min = column(0).fill(Infinity);
    this.max = column(1).fill(-Infinity);
    this.sum = column(2);
    this.count = column(3);
    this.lastT = column(4).fill(-Infinity);
    this.last = column(5);
  }

  add(bin: number, min: number, max: number, sum: number, count: number, lastT: number, last: number): void {
    if (min < this.min[bin]!) this.min[bin] = min;
    if (max > this.max[bin]!) this.max[bin] = max;
    this.sum[bin]! += sum;
    this.count[bin]! += count;
    if (lastT >= this.lastT[bin]!) {
      this.lastT[bin] = lastT;
      this.last[bin] = last;
    }
  }

  /** Samples in all bins. */
  samples(): number {
    let samples = 0;
    for (const count of this.count) samples += count;
    return samples;
  }

  /**
   * The bins holding samples as the answer has them, oldest first, in the fold's own columns (no
   * array of its own: a decade of 100 channels is 912,500 numbers): each bin is moved down to its
   * place among the bins with samples, its start written over the last times and its mean over the
   * sums. The fold is spent: call once, after {@link samples}.
   */
  answer(start: number, grid: LogBinGrid): ChannelLogColumns {
    const { min, max, sum, count, lastT, last } = this;
    let at = 0;
    // `at` never passes `bin`: each bin is read before its place is written.
    for (let bin = 0; bin < this.size; bin += 1) {
      const n = count[bin]!;
      if (n === 0) continue;
      lastT[at] = binStart(start, grid, bin);
      min[at] = min[bin]!;
      max[at] = max[bin]!;
      sum[at] = sum[bin]! / n;
      last[at] = last[bin]!;
      at += 1;
    }
    return {
      kind: 'bins',
      t: lastT.subarray(0, at),
      min: min.subarray(0, at),
      max: max.subarray(0, at),
      avg: sum.subarray(0, at),
      last: last.subarray(0, at),
    };
  }
}

/** A column as an array of numbers, made as an array of doubles (not converted, and copied, midway). */
function numberArray(column: ArrayLike<number>): number[] {
  if (Array.isArray(column)) return column as number[];
  const array = new Array<number>(column.length).fill(0.5);
  for (let i = 0; i < column.length; i += 1) array[i] = column[i]!;
  return array;
}

/** A channel's log with its columns as arrays, as the answer's schema has them. */
export function channelLogArrays(log: ChannelLogColumns): ChannelLog {
  return log.kind === 'raw'
    ? { kind: 'raw', t: numberArray(log.t), value: numberArray(log.value) }
    : {
        kind: 'bins',
        t: numberArray(log.t),
        min: numberArray(log.min),
        max: numberArray(log.max),
        avg: numberArray(log.avg),
        last: numberArray(log.last),
      };
}

/**
 * A roll-up piece of some channels folded into their bins: first the periods packed by the log
 * maintenance job (rollup-packs.ts), read as typed arrays, then the buckets still in the roll-up
 * table (the running month, and buckets of samples that came late for a packed month, added after it
 * was packed: folded later, they win a tie of last times as they do on insert). One statement each
 * for all channels.
 */
async function foldRollupPiece(
  db: Kysely<Database>,
  deviceId: string,
  folds: Map<string, BinFold>,
  piece: WindowPiece,
  grid: LogBinGrid,
): Promise<void> {
  const codes = [...folds.keys()];
  const { level, from, to } = piece;
  const { origin, width } = grid;
  await packedPeriods(db, { deviceId, codes, level, from, to }, (code, period, data) => {
    const fold = folds.get(code)!;
    const { slot, min, max, sum, count, lastOffset, last } = unpackBuckets(data);
    for (let i = 0; i < slot.length; i += 1) {
      const t = period + slot[i]! * level;
      if (t < from || t >= to) continue;
      fold.add(Math.floor((t - origin) / width), min[i]!, max[i]!, sum[i]!, count[i]!, t + lastOffset[i]!, last[i]!);
    }
  });
  const rows = await db
    .selectFrom(ROLLUP_TABLES[level]!)
    .select(['code', 't', 'min_value', 'max_value', 'sum_value', 'sample_count', 'last_t', 'last_value'])
    .where('device_id', '=', deviceId)
    .where('code', 'in', codes)
    .where('t', '>=', from)
    .where('t', '<', to)
    .execute();
  for (const row of rows) {
    const bin = Math.floor((row.t - grid.origin) / grid.width);
    folds
      .get(row.code)!
      .add(bin, row.min_value, row.max_value, row.sum_value, Number(row.sample_count), row.last_t, row.last_value);
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
): Promise<Map<string, BinFold>> {
  const levels = LOG_ROLLUP_LEVELS_MS.filter((level) => level <= grid.level);
  const size = Math.ceil((end - grid.origin) / grid.width);
  const folds = new Map(codes.map((code) => [code, new BinFold(size)]));
  for (const piece of windowPieces(start, end, levels)) {
    if (piece.level > 0) {
      await foldRollupPiece(db, deviceId, folds, piece, grid);
      continue;
    }
    // The samples at the window's edges: their pieces lie wholly before or after every roll-up
    // piece, so the piece's start orders their last values against the buckets' last times.
    for (const [code, bins] of await samplePiece(db, deviceId, codes, piece, grid)) {
      const fold = folds.get(code)!;
      bins.index.forEach((bin, i) => {
        fold.add(bin, bins.min[i]!, bins.max[i]!, bins.sum[i]!, bins.count[i]!, piece.from, bins.last[i]!);
      });
    }
  }
  return folds;
}

/**
 * Some channels of one device over `[start, end)`: per channel every sample when there are no more
 * than `binCount`, else the window in the bins of `grid`. A grid on a roll-up level reads the roll-ups
 * for all channels at once (and counts the samples there); a finer one reads one sample more than fits
 * to tell which case this is, then bins the samples. Bins from the roll-ups come in the typed arrays
 * they were folded into (`deviceLogsJson` writes them as arrays).
 */
export async function channelLogColumns(
  db: Kysely<Database>,
  deviceId: string,
  codes: readonly string[],
  { start, end }: { start: number; end: number },
  binCount: number,
  grid: LogBinGrid,
): Promise<Record<string, ChannelLogColumns>> {
  const answer: Record<string, ChannelLogColumns> = {};
  await moveInbox(db, [deviceId]);
  const rolled = grid.level > 0 ? await rolledUpBins(db, deviceId, codes, start, end, grid) : null;
  for (const code of codes) {
    const window = { deviceId, code, start, end };
    const fold = rolled?.get(code);
    if (fold) {
      const samples = fold.samples();
      if (samples <= binCount) {
        const raw = await rawLogs(db, window, binCount + 1);
        // The samples may be gone past their retention while the roll-ups still chart them.
        if (raw.length === samples) {
          answer[code] = rawAnswer(raw);
          continue;
        }
      }
      answer[code] = fold.answer(start, grid);
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

/** {@link channelLogColumns} with every column an array, as the answer's schema has it. */
export async function channelLogs(
  db: Kysely<Database>,
  deviceId: string,
  codes: readonly string[],
  window: { start: number; end: number },
  binCount: number,
  grid: LogBinGrid,
): Promise<Record<string, ChannelLog>> {
  const columns = await channelLogColumns(db, deviceId, codes, window, binCount, grid);
  return Object.fromEntries(Object.entries(columns).map(([code, log]) => [code, channelLogArrays(log)]));
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
  return { kind: 'bins', t: index.map((i) => binStart(start, grid, i)), min, max, avg, last };
}

/** Start of bin `index` of the grid, the first clipped to the window's start. */
function binStart(start: number, grid: LogBinGrid, index: number): number {
  return Math.max(start, grid.origin + index * grid.width);
}

function rawAnswer(rows: readonly { t: number; value: number }[]): ChannelLog {
  return { kind: 'raw', t: rows.map((row) => row.t), value: rows.map((row) => row.value) };
}

/** The last sample of a channel before `t`, or undefined. */
export async function lastSampleBefore(
  db: Kysely<Database>,
  deviceId: string,
  code: string,
  t: number,
): Promise<TimedValue | undefined> {
  const window = { deviceId, codes: [code], from: Number.MIN_SAFE_INTEGER, to: t };
  await moveInbox(db, [deviceId]);
  const [last] = await storedSamples(db, window, { limit: 1, descending: true });
  return last && { t: last.t, value: last.value };
}

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
  await moveInbox(db, [window.deviceId]);
  if (await hasSampleBlocks(db, window.deviceId, window.code, window.start, window.end)) {
    return foldedIntervalBins(db, window, width);
  }
  if (!isSqlite(db)) return intervalBinsPostgres(db, window, width);
  const { deviceId, code } = window;
  // About a day of bins per query: a millisecond or two of the event loop.
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

/**
 * {@link intervalBins} folded from the stored samples, rows and blocks alike, about a day of bins at a
 * time, yielding between reads.
 */
async function foldedIntervalBins(db: Kysely<Database>, window: LogWindow, width: number): Promise<LogBinColumns> {
  const { deviceId, code } = window;
  const step = width * Math.max(1, Math.floor(DAY_MS / width));
  const bins = binColumns(window, width);
  for (let from = window.start; from < window.end; from += step) {
    const to = Math.min(from + step, window.end);
    const folded = foldSamples(await storedSamples(db, { deviceId, codes: [code], from, to }), window.start, width);
    folded.index.forEach((index, at) => {
      pushBin(bins, index, folded.min[at]!, folded.max[at]!, folded.sum[at]! / folded.count[at]!, folded.last[at]!);
    });
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
