import { sql, type Kysely } from 'kysely';
import { ROLLUP_LEVELS } from '../../db/log-writes';
import type { Database, LogRollupTable } from '../../db/schema';

/**
 * Packed roll-up months (docs/decisions.md, "Packed roll-up months"): a closed UTC month of one
 * channel's hourly or daily buckets is one row of `logs_rollup_months`, its buckets in one binary
 * column, so a decade of a channel's days is 120 rows rather than 3,650, and it is read and binned
 * as typed arrays with no object per bucket.
 *
 * The layout, little-endian, `n` buckets in time order:
 * - 8 bytes of header: `n` (uint32), then a format version (uint32, 1);
 * - float64 columns of `n`: min, max, sum, last value;
 * - uint32 columns of `n`: sample count, time of the last sample from the bucket's start (ms);
 * - uint16 column of `n`: the bucket's slot in the month (its start is `month + slot × level`).
 * 42 bytes a bucket: a daily month is at most 1,310 bytes, under PostgreSQL's 2 kB TOAST threshold, so
 * it stays in its row; an hourly month is about 31 kB.
 */

const FORMAT_VERSION = 1;
const HEADER_BYTES = 8;
const BYTES_PER_BUCKET = 4 * 8 + 2 * 4 + 2;

/** Start of the UTC month `offset` months from the one holding `t`. */
export function monthStartOf(t: number, offset = 0): number {
  const date = new Date(t);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + offset, 1);
}

/** A packed month's buckets, column by column, in time order. */
export interface PackedBuckets {
  /** Start of the month, unix ms, and the width of its buckets. */
  month: number;
  level: number;
  min: Float64Array;
  max: Float64Array;
  sum: Float64Array;
  last: Float64Array;
  count: Uint32Array;
  /** Time of each bucket's last sample, from the bucket's start. */
  lastOffset: Uint32Array;
  slot: Uint16Array;
}

/** A month's buckets (of `level` ms, starts in the month, sorted by start) in the packed layout. */
export function packBuckets(month: number, level: number, buckets: readonly LogRollupTable[]): Buffer {
  const n = buckets.length;
  const bytes = Buffer.alloc(HEADER_BYTES + n * BYTES_PER_BUCKET);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  view.setUint32(0, n, true);
  view.setUint32(4, FORMAT_VERSION, true);
  buckets.forEach((bucket, i) => {
    const slot = (bucket.t - month) / level;
    if (!Number.isInteger(slot) || slot < 0 || slot > 0xffff)
      throw new Error(`Bucket ${bucket.t} not in month ${month}`);
    const column = (k: number, size: number) => HEADER_BYTES + k * n * 8 + i * size;
    view.setFloat64(column(0, 8), bucket.min_value, true);
    view.setFloat64(column(1, 8), bucket.max_value, true);
    view.setFloat64(column(2, 8), bucket.sum_value, true);
    view.setFloat64(column(3, 8), bucket.last_value, true);
    const uint32s = HEADER_BYTES + 4 * n * 8;
    view.setUint32(uint32s + i * 4, bucket.sample_count, true);
    view.setUint32(uint32s + (n + i) * 4, bucket.last_t - bucket.t, true);
    view.setUint16(uint32s + 2 * n * 4 + i * 2, slot, true);
  });
  return bytes;
}

/**
 * A packed month read back as views on one aligned copy of its bytes (typed arrays read the
 * machine's byte order: every platform Node.js runs the server on is little-endian).
 */
export function unpackBuckets(month: number, level: number, data: Uint8Array): PackedBuckets {
  const bytes = new Uint8Array(data.byteLength);
  bytes.set(data);
  const { buffer } = bytes;
  const view = new DataView(buffer);
  const n = view.getUint32(0, true);
  if (view.getUint32(4, true) !== FORMAT_VERSION || data.byteLength !== HEADER_BYTES + n * BYTES_PER_BUCKET) {
    throw new Error(`Unreadable packed roll-up month ${month}`);
  }
  const uint32s = HEADER_BYTES + 4 * n * 8;
  return {
    month,
    level,
    min: new Float64Array(buffer, HEADER_BYTES, n),
    max: new Float64Array(buffer, HEADER_BYTES + n * 8, n),
    sum: new Float64Array(buffer, HEADER_BYTES + 2 * n * 8, n),
    last: new Float64Array(buffer, HEADER_BYTES + 3 * n * 8, n),
    count: new Uint32Array(buffer, uint32s, n),
    lastOffset: new Uint32Array(buffer, uint32s + n * 4, n),
    slot: new Uint16Array(buffer, uint32s + 2 * n * 4, n),
  };
}

/** The buckets of a packed month as rows of the roll-up tables. */
export function bucketRows(deviceId: string, code: string, packed: PackedBuckets): LogRollupTable[] {
  return Array.from(packed.slot, (slot, i) => {
    const t = packed.month + slot * packed.level;
    return {
      device_id: deviceId,
      code,
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

/** Rows of `logs_rollup_months` of some channels of a device whose months overlap `[from, to)` at `level`. */
export function packedMonths(
  db: Kysely<Database>,
  deviceId: string,
  codes: readonly string[],
  level: number,
  from: number,
  to: number,
) {
  return db
    .selectFrom('logs_rollup_months')
    .select(['code', 't', 'data'])
    .where('device_id', '=', deviceId)
    .where('code', 'in', codes)
    .where('level', '=', level)
    .where('t', '>=', monthStartOf(from))
    .where('t', '<', to)
    .execute();
}

/**
 * Packs one month of one channel's roll-up at one level, in one short transaction: its rows leave the
 * roll-up table (deleted, and what was deleted is what is packed, so a bucket a concurrent insert adds
 * meanwhile is never lost: it waits for the delete and then makes a new row) and join the month's
 * packed row, combined with any bucket packed before. Answers the buckets moved.
 */
async function packMonth(
  db: Kysely<Database>,
  table: (typeof ROLLUP_LEVELS)[number]['table'],
  level: number,
  deviceId: string,
  code: string,
  month: number,
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const { rows: moved } = await sql<LogRollupTable>`delete from ${sql.table(table)}
      where device_id = ${deviceId} and code = ${code} and t >= ${month} and t < ${monthStartOf(month, 1)}
      returning device_id, code, t, min_value, max_value, sum_value, sample_count, last_t, last_value`.execute(trx);
    if (moved.length === 0) return 0;
    const key = { device_id: deviceId, code, level, t: month };
    const packed = await trx
      .selectFrom('logs_rollup_months')
      .select('data')
      .where((eb) => eb.and(key))
      .executeTakeFirst();
    const earlier = packed ? bucketRows(deviceId, code, unpackBuckets(month, level, packed.data)) : [];
    const data = packBuckets(month, level, mergeBuckets(earlier, moved));
    await trx
      .insertInto('logs_rollup_months')
      .values({ ...key, data })
      .onConflict((conflict) => conflict.columns(['device_id', 'code', 'level', 't']).doUpdateSet({ data }))
      .execute();
    return moved.length;
  });
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Packs a device's roll-up buckets of the months that start before `closedBefore` (a month start),
 * month by month: those never packed, and those of samples that came late for a month already packed.
 * Answers the buckets moved.
 */
export async function packClosedMonths(db: Kysely<Database>, deviceId: string, closedBefore: number): Promise<number> {
  let moved = 0;
  for (const { table, width } of ROLLUP_LEVELS) {
    const channels = await db
      .selectFrom(table)
      .select('code')
      .select((eb) => eb.fn.min('t').as('first'))
      .where('device_id', '=', deviceId)
      .where('t', '<', closedBefore)
      .groupBy('code')
      .execute();
    for (const { code, first } of channels) {
      let next: number | undefined = Number(first);
      while (next !== undefined) {
        const month = monthStartOf(next);
        moved += await packMonth(db, table, width, deviceId, code, month);
        await yieldToEventLoop();
        const after = await db
          .selectFrom(table)
          .select((eb) => eb.fn.min('t').as('t'))
          .where('device_id', '=', deviceId)
          .where('code', '=', code)
          .where('t', '>=', monthStartOf(month, 1))
          .where('t', '<', closedBefore)
          .executeTakeFirst();
        next = after?.t === null || after?.t === undefined ? undefined : Number(after.t);
      }
    }
  }
  return moved;
}

/**
 * Removes a device's packed buckets that start before `cutoff`: whole months by their rows, the month
 * holding `cutoff` by packing again what it keeps. Answers the buckets removed.
 */
export async function deletePackedBefore(db: Kysely<Database>, deviceId: string, cutoff: number): Promise<number> {
  const cutMonth = monthStartOf(cutoff);
  const rows = await db
    .selectFrom('logs_rollup_months')
    .select(['code', 'level', 't', 'data'])
    .where('device_id', '=', deviceId)
    .where('t', '<=', cutMonth)
    .execute();
  let removed = 0;
  for (const { code, level, t, data } of rows) {
    const buckets = bucketRows(deviceId, code, unpackBuckets(t, level, data));
    const kept = buckets.filter((bucket) => bucket.t >= cutoff);
    if (kept.length === buckets.length) continue;
    const month = { device_id: deviceId, code, level, t };
    if (kept.length === 0)
      await db
        .deleteFrom('logs_rollup_months')
        .where((eb) => eb.and(month))
        .execute();
    else {
      const data = packBuckets(t, level, kept);
      await db
        .updateTable('logs_rollup_months')
        .set({ data })
        .where((eb) => eb.and(month))
        .execute();
    }
    removed += buckets.length - kept.length;
    await yieldToEventLoop();
  }
  return removed;
}
