import { sql, type Kysely } from 'kysely';
import { ROLLUP_LEVELS } from '../../db/log-writes';
import { isSqlite } from '../../db/dialect';
import { bytesField, copyRows, int8Field, sqlInteger, sqlText, textField } from '../../db/postgres-copy';
import type { Database, LogRollupTable } from '../../db/schema';
import { DAY_MS } from '@fieldlink/domain/timestamps';

/**
 * Packed roll-ups (docs/decisions.md, "Packed roll-ups"): the closed months of one channel's roll-up
 * are kept as one row of `logs_rollup_packs` per period, its buckets in one binary column: a UTC
 * month of hours (up to 744 buckets, 31 kB), a UTC year of days (up to 366 buckets, 15 kB, the months
 * of the running year joining it as they close). A decade of a channel's days is 10 rows rather than
 * 3,650, read and binned as typed arrays with no object per bucket.
 *
 * The layout, little-endian, `n` buckets in time order:
 * - 8 bytes of header: `n` (uint32), then a format version (uint32, 1);
 * - float64 columns of `n`: min, max, sum, last value;
 * - uint32 columns of `n`: sample count, time of the last sample from the bucket's start (ms);
 * - uint16 column of `n`: the bucket's slot in the period (its start is `period + slot × level`).
 */

const FORMAT_VERSION = 1;
const HEADER_BYTES = 8;
const BYTES_PER_BUCKET = 4 * 8 + 2 * 4 + 2;

/** Start of the UTC month `offset` months from the one holding `t`. */
export function monthStartOf(t: number, offset = 0): number {
  const date = new Date(t);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + offset, 1);
}

/** The packed period holding `t` at a level, `[start, end)`: a UTC year of days, a UTC month of hours. */
function periodOf(t: number, level: number): { start: number; end: number } {
  if (level < DAY_MS) return { start: monthStartOf(t), end: monthStartOf(t, 1) };
  const year = new Date(t).getUTCFullYear();
  return { start: Date.UTC(year, 0, 1), end: Date.UTC(year + 1, 0, 1) };
}

/** A packed period's buckets, column by column, in time order. */
export interface PackedBuckets {
  min: Float64Array;
  max: Float64Array;
  sum: Float64Array;
  last: Float64Array;
  count: Uint32Array;
  /** Time of each bucket's last sample, from the bucket's start. */
  lastOffset: Uint32Array;
  slot: Uint16Array;
}

/** A period's buckets (of `level` ms, from `period` on, sorted by start) in the packed layout. */
function packBuckets(period: number, level: number, buckets: readonly LogRollupTable[]): Buffer {
  const n = buckets.length;
  const bytes = Buffer.alloc(HEADER_BYTES + n * BYTES_PER_BUCKET);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  view.setUint32(0, n, true);
  view.setUint32(4, FORMAT_VERSION, true);
  const uint32s = HEADER_BYTES + 4 * n * 8;
  buckets.forEach((bucket, i) => {
    const slot = (bucket.t - period) / level;
    if (!Number.isInteger(slot) || slot < 0 || slot > 0xffff) {
      throw new Error(`Bucket ${bucket.t} not in the period from ${period}`);
    }
    view.setFloat64(HEADER_BYTES + i * 8, bucket.min_value, true);
    view.setFloat64(HEADER_BYTES + (n + i) * 8, bucket.max_value, true);
    view.setFloat64(HEADER_BYTES + (2 * n + i) * 8, bucket.sum_value, true);
    view.setFloat64(HEADER_BYTES + (3 * n + i) * 8, bucket.last_value, true);
    view.setUint32(uint32s + i * 4, bucket.sample_count, true);
    view.setUint32(uint32s + (n + i) * 4, bucket.last_t - bucket.t, true);
    view.setUint16(uint32s + 2 * n * 4 + i * 2, slot, true);
  });
  return bytes;
}

/** Where a packed period not 8-byte aligned in its driver's buffer is copied: one buffer, reused. */
let alignedCopy = new Uint8Array(0);

/**
 * A packed period read as typed-array views on its bytes, valid until the next call: a period not
 * 8-byte aligned in the driver's buffer is copied into one buffer kept for the purpose (a decade of 100
 * channels is 15 MB of periods, read and folded one by one). Typed arrays read the machine's byte
 * order: every platform Node.js runs the server on is little-endian.
 */
export function unpackBuckets(data: Uint8Array): PackedBuckets {
  let bytes = data;
  if (bytes.byteOffset % 8 !== 0) {
    if (alignedCopy.byteLength < data.byteLength) alignedCopy = new Uint8Array(Math.max(data.byteLength, 64 * 1024));
    alignedCopy.set(data);
    bytes = alignedCopy.subarray(0, data.byteLength);
  }
  const { buffer, byteOffset: at } = bytes;
  const n = bytes.byteLength >= HEADER_BYTES ? new DataView(buffer, at).getUint32(0, true) : 0;
  if (
    bytes.byteLength !== HEADER_BYTES + n * BYTES_PER_BUCKET ||
    new DataView(buffer, at).getUint32(4, true) !== FORMAT_VERSION
  ) {
    throw new Error('Unreadable packed roll-up');
  }
  const uint32s = at + HEADER_BYTES + 4 * n * 8;
  return {
    min: new Float64Array(buffer, at + HEADER_BYTES, n),
    max: new Float64Array(buffer, at + HEADER_BYTES + n * 8, n),
    sum: new Float64Array(buffer, at + HEADER_BYTES + 2 * n * 8, n),
    last: new Float64Array(buffer, at + HEADER_BYTES + 3 * n * 8, n),
    count: new Uint32Array(buffer, uint32s, n),
    lastOffset: new Uint32Array(buffer, uint32s + n * 4, n),
    slot: new Uint16Array(buffer, uint32s + 2 * n * 4, n),
  };
}

/** The buckets of a packed period as rows of the roll-up tables. */
export function bucketRows(row: {
  device_id: string;
  code: string;
  level: number;
  t: number;
  data: Uint8Array;
}): LogRollupTable[] {
  const packed = unpackBuckets(row.data);
  return Array.from(packed.slot, (slot, i) => {
    const t = row.t + slot * row.level;
    return {
      device_id: row.device_id,
      code: row.code,
      t,
      min_value: packed.min[i]!,
      max_value: packed.max[i]!,
      sum_value: packed.sum[i]!,
      sample_count: packed.count[i]!,
      last_t: t + packed.lastOffset[i]!,
      last_value: packed.last[i]!,
    };
  });
}

/**
 * Buckets of the same start combined as the roll-ups combine them on insert: the later of two with
 * the same last time wins the last value (`later` holds buckets added after `earlier`'s).
 */
export function mergeBuckets(earlier: readonly LogRollupTable[], later: readonly LogRollupTable[]): LogRollupTable[] {
  const byStart = new Map(earlier.map((bucket) => [bucket.t, { ...bucket }]));
  for (const bucket of later) {
    const into = byStart.get(bucket.t);
    if (!into) {
      byStart.set(bucket.t, { ...bucket });
      continue;
    }
    into.min_value = Math.min(into.min_value, bucket.min_value);
    into.max_value = Math.max(into.max_value, bucket.max_value);
    into.sum_value += bucket.sum_value;
    into.sample_count += bucket.sample_count;
    if (bucket.last_t >= into.last_t) {
      into.last_t = bucket.last_t;
      into.last_value = bucket.last_value;
    }
  }
  return [...byStart.values()].sort((a, b) => a.t - b.t);
}

/**
 * Packed periods at `level` of some channels of a device that overlap `[from, to)`, each handed to
 * `visit` as it is read (its bytes valid only during the call). On PostgreSQL they are read by binary
 * COPY (db/postgres-copy.ts): node-postgres receives `bytea` as text (hex, or base64 when asked), which
 * PostgreSQL spent about 45 ms encoding for a decade of 100 channels (15 MB); COPY sends the stored
 * bytes, and the read took 14 ms instead of 50 (docs/decisions.md).
 */
export async function packedPeriods(
  db: Kysely<Database>,
  {
    deviceId,
    codes,
    level,
    from,
    to,
  }: { deviceId: string; codes: readonly string[]; level: number; from: number; to: number },
  visit: (code: string, period: number, data: Uint8Array) => void,
): Promise<void> {
  if (codes.length === 0) return;
  const first = periodOf(from, level).start;
  if (isSqlite(db)) {
    const rows = await db
      .selectFrom('logs_rollup_packs')
      .select(['code', 't', 'data'])
      .where('device_id', '=', deviceId)
      .where('code', 'in', codes)
      .where('level', '=', level)
      .where('t', '>=', first)
      .where('t', '<', to)
      .execute();
    for (const row of rows) visit(row.code, row.t, row.data);
    return;
  }
  const select =
    `select code, t, data from logs_rollup_packs where device_id = ${sqlText(deviceId)} ` +
    `and code in (${codes.map(sqlText).join(', ')}) and level = ${sqlInteger(level)} ` +
    `and t >= ${sqlInteger(first)} and t < ${sqlInteger(to)}`;
  await copyRows(db, select, ([code, t, data]) => visit(textField(code!), int8Field(t!), bytesField(data!)));
}

/**
 * Packs a channel's buckets of `[from, to)` (within one period) at one level, in one short
 * transaction: its rows leave the roll-up table (deleted, and what was deleted is what is packed, so a
 * bucket a concurrent insert adds meanwhile is never lost: it waits for the delete and then makes a
 * new row) and join the period's packed row, combined with any bucket packed before. Answers the
 * buckets moved.
 */
async function packRange(
  db: Kysely<Database>,
  { table, width: level }: (typeof ROLLUP_LEVELS)[number],
  deviceId: string,
  code: string,
  from: number,
  to: number,
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const { rows: moved } = await sql<LogRollupTable>`delete from ${sql.table(table)}
      where device_id = ${deviceId} and code = ${code} and t >= ${from} and t < ${to}
      returning device_id, code, t, min_value, max_value, sum_value, sample_count, last_t, last_value`.execute(trx);
    if (moved.length === 0) return 0;
    const key = { device_id: deviceId, code, level, t: periodOf(from, level).start };
    const packed = await trx
      .selectFrom('logs_rollup_packs')
      .select('data')
      .where((eb) => eb.and(key))
      .executeTakeFirst();
    const earlier = packed ? bucketRows({ ...key, data: packed.data }) : [];
    const data = packBuckets(key.t, level, mergeBuckets(earlier, moved));
    await trx
      .insertInto('logs_rollup_packs')
      .values({ ...key, data })
      .onConflict((conflict) => conflict.columns(['device_id', 'code', 'level', 't']).doUpdateSet({ data }))
      .execute();
    return moved.length;
  });
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Packs a device's roll-up buckets that start before `closedBefore` (the start of the running month),
 * period by period: those never packed, and those of samples that came late for a period packed
 * before. Answers the buckets moved. `pause` runs between two periods (the log maintenance job's
 * pace; by default a turn of the event loop).
 */
export async function packClosedMonths(
  db: Kysely<Database>,
  deviceId: string,
  closedBefore: number,
  pause: () => Promise<void> = yieldToEventLoop,
): Promise<number> {
  let moved = 0;
  const codes = await channelsOf(db, deviceId);
  for (const rollup of ROLLUP_LEVELS) {
    // The channels with buckets to pack, each with its first: one statement for the device.
    const firsts = await firstRowsBefore(db, rollup.table, deviceId, codes, closedBefore);
    for (const [code, first] of firsts) {
      // Each next step one seek of the roll-up's key: the channel's next bucket not packed yet.
      const nextBucket = async (from: number) => {
        const row = await db
          .selectFrom(rollup.table)
          .select((eb) => eb.fn.min('t').as('t'))
          .where('device_id', '=', deviceId)
          .where('code', '=', code)
          .where('t', '>=', from)
          .where('t', '<', closedBefore)
          .executeTakeFirst();
        return row?.t === null || row?.t === undefined ? null : Number(row.t);
      };
      for (let next: number | null = first; next !== null;) {
        const period = periodOf(next, rollup.width);
        const to = Math.min(period.end, closedBefore);
        moved += await packRange(db, rollup, deviceId, code, period.start, to);
        await pause();
        next = await nextBucket(to);
      }
    }
  }
  return moved;
}

/**
 * Of these channels of a device, those with a row of `table` before `before`, each with the time of
 * its first: one statement for the device, a range of the key per channel (in the common case, when
 * nothing is that old, each range is empty), instead of a statement per channel.
 */
export async function firstRowsBefore(
  db: Kysely<Database>,
  table: 'logs' | 'log_blocks' | 'logs_hourly' | 'logs_daily',
  deviceId: string,
  codes: readonly string[],
  before: number,
): Promise<Map<string, number>> {
  if (codes.length === 0) return new Map();
  const rows = await db
    .selectFrom(table)
    .select(['code', (eb) => eb.fn.min('t').as('t')])
    .where('device_id', '=', deviceId)
    .where('code', 'in', codes)
    .where('t', '<', before)
    .groupBy('code')
    .execute();
  return new Map(rows.map((row) => [row.code, Number(row.t)]));
}

/**
 * The channels of a device that have roll-ups, in a few rows each: the daily rows (the running month)
 * and the packed years (the closed months). Every channel with samples has both levels.
 */
export async function channelsOf(db: Kysely<Database>, deviceId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('logs_daily')
    .select('code')
    .where('device_id', '=', deviceId)
    .union(
      db.selectFrom('logs_rollup_packs').select('code').where('device_id', '=', deviceId).where('level', '=', DAY_MS),
    )
    .execute();
  return rows.map((row) => row.code);
}

/**
 * Removes a device's packed buckets that start before `cutoff`: whole periods by their rows, the
 * period holding `cutoff` by packing again what it keeps. Answers the buckets removed. `pause` runs
 * between two periods, as for {@link packClosedMonths}.
 */
export async function deletePackedBefore(
  db: Kysely<Database>,
  deviceId: string,
  cutoff: number,
  pause: () => Promise<void> = yieldToEventLoop,
): Promise<number> {
  const rows = await db
    .selectFrom('logs_rollup_packs')
    .select(['device_id', 'code', 'level', 't', 'data'])
    .where('device_id', '=', deviceId)
    .where('t', '<', cutoff)
    .execute();
  let removed = 0;
  for (const row of rows) {
    const buckets = bucketRows(row);
    const kept = buckets.filter((bucket) => bucket.t >= cutoff);
    if (kept.length === buckets.length) continue;
    const key = { device_id: deviceId, code: row.code, level: row.level, t: row.t };
    if (kept.length === 0)
      await db
        .deleteFrom('logs_rollup_packs')
        .where((eb) => eb.and(key))
        .execute();
    else {
      const data = packBuckets(row.t, row.level, kept);
      await db
        .updateTable('logs_rollup_packs')
        .set({ data })
        .where((eb) => eb.and(key))
        .execute();
    }
    removed += buckets.length - kept.length;
    await pause();
  }
  return removed;
}
