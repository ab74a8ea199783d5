import type { Kysely } from 'kysely';
import { isSqlite } from './dialect';
import type { Database, LogsTable } from './schema';
import { decodeSampleBlock, encodeSampleBlock } from './sample-block-codec';
import { DAY_MS, HOUR_MS } from '@fieldlink/domain/timestamps';

/**
 * The samples of the log in their two stored forms: rows of `logs` (one per sample, as ingest writes
 * them) and blocks of `log_blocks` (one per device, channel and UTC hour, the hour's samples encoded
 * together), into which the log maintenance job moves samples older than {@link COMPACT_AFTER_MS}.
 * Every reader of samples reads both through {@link storedSamples}, so what it answers does not
 * depend on which form a sample is in (docs/decisions.md, "Logs at scale").
 */

/**
 * Samples older than this (7 days) are moved into blocks: charts of the last week, which ingest
 * still writes into and which are read most, stay rows.
 */
export const COMPACT_AFTER_MS = 7 * DAY_MS;

/** Blocks read per statement when a reader wants only the first few samples. */
const BLOCK_PAGE = 64;

/** One stored sample of a channel. */
export interface StoredSample {
  code: string;
  t: number;
  value: number;
}

/** Some channels of one device over `[from, to)`, unix ms. */
export interface SampleWindow {
  deviceId: string;
  codes: readonly string[];
  from: number;
  to: number;
}

/** A sample's time and value. */
export interface TimedValue {
  t: number;
  value: number;
}

/** Start of the UTC hour holding `t`. */
export function hourOf(t: number): number {
  return Math.max(Math.floor(t / HOUR_MS) * HOUR_MS, Number.MIN_SAFE_INTEGER);
}

/**
 * Two lists of samples of one channel, each in order (by time, newest first when `descending`),
 * merged in that order. A time in both is answered once, from `kept`: the form that held it first
 * (a block holds samples stored before the row arrived late for its hour), as `insertLogs` keeps the
 * sample already stored.
 */
function mergeSamples(kept: readonly TimedValue[], rows: readonly TimedValue[], descending: boolean): TimedValue[] {
  if (kept.length === 0) return [...rows];
  if (rows.length === 0) return [...kept];
  const sign = descending ? -1 : 1;
  const merged: TimedValue[] = [];
  let k = 0;
  let r = 0;
  while (k < kept.length || r < rows.length) {
    const a = kept[k];
    const b = rows[r];
    if (b === undefined || (a !== undefined && sign * (a.t - b.t) <= 0)) {
      merged.push(a!);
      k += 1;
      if (b !== undefined && a!.t === b.t) r += 1;
    } else {
      merged.push(b);
      r += 1;
    }
  }
  return merged;
}

/** A block's samples within `[from, to)`, oldest first (newest first when `descending`). */
function blockSamples(block: Uint8Array, from: number, to: number, descending: boolean): TimedValue[] {
  const { times, values } = decodeSampleBlock(block);
  const samples: TimedValue[] = [];
  for (let i = 0; i < times.length; i += 1) {
    const t = times[i]!;
    if (t >= from && t < to) samples.push({ t, value: values[i]! });
  }
  return descending ? samples.reverse() : samples;
}

/**
 * The stored samples of some channels of a device over a window, rows and blocks alike: per channel
 * (in the order of `codes`) oldest first, or newest first when `descending`, at most `limit` per
 * channel. Each channel's rows come by a range scan of the primary key of `logs` and its blocks by one
 * of `log_blocks` (only as many blocks as the limit needs).
 */
export async function storedSamples(
  db: Kysely<Database>,
  window: SampleWindow,
  { limit = Infinity, descending = false }: { limit?: number; descending?: boolean } = {},
): Promise<StoredSample[]> {
  const { deviceId, from, to } = window;
  const codes = [...new Set(window.codes)];
  if (codes.length === 0 || from >= to || limit <= 0) return [];
  const answer: StoredSample[] = [];
  if (Number.isFinite(limit)) {
    for (const code of codes) {
      for (const sample of await limitedSamples(db, deviceId, code, from, to, limit, descending)) {
        answer.push({ code, t: sample.t, value: sample.value });
      }
    }
    return answer;
  }
  const direction = descending ? 'desc' : 'asc';
  const rows = await db
    .selectFrom('logs')
    .select(['code', 't', 'value'])
    .where('device_id', '=', deviceId)
    .where('code', 'in', codes)
    .where('t', '>=', from)
    .where('t', '<', to)
    .orderBy('code')
    .orderBy('t', direction)
    .execute();
  const blocks = await db
    .selectFrom('log_blocks')
    .select(['code', 'block'])
    .where('device_id', '=', deviceId)
    .where('code', 'in', codes)
    .where('t', '>=', hourOf(from))
    .where('t', '<', to)
    .orderBy('code')
    .orderBy('t', direction)
    .execute();
  const rowsOf = new Map<string, TimedValue[]>();
  for (const row of rows) {
    const list = rowsOf.get(row.code);
    if (list) list.push(row);
    else rowsOf.set(row.code, [row]);
  }
  const blocksOf = new Map<string, TimedValue[]>();
  for (const { code, block } of blocks) {
    const samples = blockSamples(block, from, to, descending);
    const list = blocksOf.get(code);
    if (list) list.push(...samples);
    else blocksOf.set(code, samples);
  }
  for (const code of codes) {
    for (const sample of mergeSamples(blocksOf.get(code) ?? [], rowsOf.get(code) ?? [], descending)) {
      answer.push({ code, t: sample.t, value: sample.value });
    }
  }
  return answer;
}

/** The first `limit` samples of one channel in the window (the last, when `descending`). */
async function limitedSamples(
  db: Kysely<Database>,
  deviceId: string,
  code: string,
  from: number,
  to: number,
  limit: number,
  descending: boolean,
): Promise<TimedValue[]> {
  const direction = descending ? 'desc' : 'asc';
  // Blocks in order until they hold `limit` samples of the window: no sample past them can be among
  // the first `limit`.
  const kept: TimedValue[] = [];
  let lo = hourOf(from);
  let hi = to;
  const page = Math.min(BLOCK_PAGE, limit + 1);
  for (;;) {
    const blocks = await db
      .selectFrom('log_blocks')
      .select(['t', 'block'])
      .where('device_id', '=', deviceId)
      .where('code', '=', code)
      .where('t', '>=', lo)
      .where('t', '<', hi)
      .orderBy('t', direction)
      .limit(page)
      .execute();
    for (const { block } of blocks) {
      if (kept.length >= limit) break;
      kept.push(...blockSamples(block, from, to, descending));
    }
    const last = blocks[blocks.length - 1];
    if (kept.length >= limit || blocks.length < page || !last) break;
    if (descending) hi = last.t;
    else lo = last.t + 1;
  }
  // Rows likewise; a row at a time a block holds is answered once, so more rows are read while
  // such duplicates leave the answer short.
  for (let rowLimit = limit; ; rowLimit *= 2) {
    const rows = await db
      .selectFrom('logs')
      .select(['t', 'value'])
      .where('device_id', '=', deviceId)
      .where('code', '=', code)
      .where('t', '>=', from)
      .where('t', '<', to)
      .orderBy('t', direction)
      .limit(rowLimit)
      .execute();
    const merged = mergeSamples(kept, rows, descending);
    if (merged.length >= limit || rows.length < rowLimit) return merged.slice(0, limit);
  }
}

/** Whether any block of the channel may hold samples of `[from, to)`. */
export async function hasSampleBlocks(
  db: Kysely<Database>,
  deviceId: string,
  code: string,
  from: number,
  to: number,
): Promise<boolean> {
  const row = await db
    .selectFrom('log_blocks')
    .select('t')
    .where('device_id', '=', deviceId)
    .where('code', '=', code)
    .where('t', '>=', hourOf(from))
    .where('t', '<', to)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Moves one channel's samples of the whole UTC hours in `[from, to)` from rows into their hourly
 * blocks, in one short transaction: the rows are deleted and answered by one statement (so a row
 * inserted meanwhile is either moved or stays, never lost), each hour's merged into its block if it
 * has one (a late sample: the block's sample at the same time is kept, the row's skipped), encoded
 * and stored by one statement. Answers how many rows moved.
 */
export async function compactHours(
  db: Kysely<Database>,
  deviceId: string,
  code: string,
  from: number,
  to: number,
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const rows = await trx
      .deleteFrom('logs')
      .where('device_id', '=', deviceId)
      .where('code', '=', code)
      .where('t', '>=', from)
      .where('t', '<', to)
      .returning(['t', 'value'])
      .execute();
    if (rows.length === 0) return 0;
    const rowsOf = new Map<number, TimedValue[]>();
    for (const row of rows) {
      const hour = hourOf(row.t);
      const list = rowsOf.get(hour);
      if (list) list.push(row);
      else rowsOf.set(hour, [row]);
    }
    const existing = await trx
      .selectFrom('log_blocks')
      .select(['t', 'block'])
      .where('device_id', '=', deviceId)
      .where('code', '=', code)
      .where('t', 'in', [...rowsOf.keys()])
      .$if(!isSqlite(trx), (query) => query.forUpdate())
      .execute();
    const blockOf = new Map(existing.map((row) => [row.t, row.block]));
    const blocks = [...rowsOf].map(([hour, list]) => {
      list.sort((a, b) => a.t - b.t);
      const stored = blockOf.get(hour);
      const samples = stored ? mergeSamples(blockSamples(stored, hour, hour + HOUR_MS, false), list, false) : list;
      const encoded = encodeSampleBlock(
        samples.map((sample) => sample.t),
        samples.map((sample) => sample.value),
      );
      // Both drivers bind a Buffer as a blob (better-sqlite3 refuses a bare Uint8Array).
      const block = Buffer.from(encoded.buffer, encoded.byteOffset, encoded.byteLength);
      return { device_id: deviceId, code, t: hour, sample_count: samples.length, block };
    });
    await trx
      .insertInto('log_blocks')
      .values(blocks)
      .onConflict((conflict) =>
        conflict.columns(['device_id', 'code', 't']).doUpdateSet((eb) => ({
          sample_count: eb.ref('excluded.sample_count'),
          block: eb.ref('excluded.block'),
        })),
      )
      .execute();
    return rows.length;
  });
}

/**
 * Samples to insert without those a block already holds (same device, channel and time): the rule of
 * `insertLogs` (the sample stored first is kept) for samples that arrive late for an hour already
 * compacted, so the roll-ups never count such a sample twice. Only samples older than the compaction
 * age less a day (for clocks of other instances) are looked up; most batches have none.
 */
export async function withoutCompacted(
  db: Kysely<Database>,
  samples: readonly LogsTable[],
): Promise<readonly LogsTable[]> {
  const horizon = Date.now() - COMPACT_AFTER_MS + DAY_MS;
  const hours = new Map<string, { deviceId: string; code: string; hours: Set<number> }>();
  for (const { device_id, code, t } of samples) {
    if (t >= horizon) continue;
    const key = `${device_id}\u0000${code}`;
    let channel = hours.get(key);
    if (!channel) hours.set(key, (channel = { deviceId: device_id, code, hours: new Set<number>() }));
    channel.hours.add(hourOf(t));
  }
  if (hours.size === 0) return samples;
  const stored = new Set<string>();
  for (const [key, channel] of hours) {
    const blocks = await db
      .selectFrom('log_blocks')
      .select('block')
      .where('device_id', '=', channel.deviceId)
      .where('code', '=', channel.code)
      .where('t', 'in', [...channel.hours])
      .execute();
    for (const { block } of blocks) for (const t of decodeSampleBlock(block).times) stored.add(`${key}\u0000${t}`);
  }
  if (stored.size === 0) return samples;
  return samples.filter(({ device_id, code, t }) => !stored.has(`${device_id}\u0000${code}\u0000${t}`));
}
