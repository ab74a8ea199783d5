import { CompiledQuery, sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import { isSqlite } from './dialect';
import type { Database, LatestValuesTable, LogRollupTable, LogsTable } from './schema';
import { hasSampleBlocks, storedSamples, withoutCompacted } from './log-blocks';

/**
 * The one way samples enter the log: inserted (a sample already stored, same device, channel and
 * time, is skipped) and folded into the hourly and daily roll-ups in the same transaction, per batch
 * rather than per row; and the latest value of each channel (docs/decisions.md, "Ingest at higher
 * steady loads").
 *
 * Statements are of a few fixed shapes whatever the batch: on PostgreSQL one statement of array
 * parameters (`unnest`), planned once, where a VALUES list of thousands of rows costs a parse and plan
 * of thousands of parameters; on SQLite VALUES lists of a few fixed lengths, prepared once and reused.
 */

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** The roll-up tables and the width of their buckets. */
export const ROLLUP_LEVELS = [
  { table: 'logs_hourly', width: HOUR_MS },
  { table: 'logs_daily', width: DAY_MS },
] as const;

/**
 * Rows per SQLite statement, largest first: a batch is cut greedily into these lengths. SQLite allows
 * 32,766 bound values per statement: 2,000 rows of the 9 roll-up columns are 18,000.
 */
const SQLITE_CHUNKS = [2000, 400, 80, 16, 4, 1];

type RollupTable = (typeof ROLLUP_LEVELS)[number]['table'];

/**
 * Samples folded into buckets of `width` ms per device and channel (`t` of a bucket: its start, UTC).
 * The last value is the sample at the latest time; among samples at the same time, the later in order.
 * Buckets come out in key order (device, channel, start), the order in which writers lock them.
 */
export function rollUp(samples: readonly LogsTable[], width: number): LogRollupTable[] {
  const buckets = new Map<string, LogRollupTable>();
  for (const { device_id, code, t, value } of samples) {
    const start = Math.floor(t / width) * width;
    const key = `${device_id}\u0000${code}\u0000${start}`;
    const bucket = buckets.get(key);
    if (!bucket) {
      buckets.set(key, {
        device_id,
        code,
        t: start,
        min_value: value,
        max_value: value,
        sum_value: value,
        sample_count: 1,
        last_t: t,
        last_value: value,
      });
      continue;
    }
    if (value < bucket.min_value) bucket.min_value = value;
    if (value > bucket.max_value) bucket.max_value = value;
    bucket.sum_value += value;
    bucket.sample_count += 1;
    if (t >= bucket.last_t) {
      bucket.last_t = t;
      bucket.last_value = value;
    }
  }
  return [...buckets.values()].sort(compareKeys);
}

function compareKeys(a: { device_id: string; code: string; t: number }, b: typeof a): number {
  if (a.device_id !== b.device_id) return a.device_id < b.device_id ? -1 : 1;
  if (a.code !== b.code) return a.code < b.code ? -1 : 1;
  return a.t - b.t;
}

/**
 * Inserts samples into the log, skipping those already stored, and adds the inserted ones to the
 * roll-ups; answers how many were inserted. Runs in the caller's transaction, or in one of its own.
 */
export async function insertLogs(db: Kysely<Database>, samples: readonly LogsTable[]): Promise<number> {
  if (samples.length === 0) return 0;
  if (!db.isTransaction) return db.transaction().execute((trx) => insertLogs(trx, samples));
  const trx = db as Transaction<Database>;
  // A late sample at a time an hourly block already holds is a duplicate too (db/log-blocks.ts).
  const fresh = await withoutCompacted(trx, samples);
  if (fresh.length === 0) return 0;
  // The common case inserts every sample: its count says so, and the roll-ups take the samples as
  // given. Otherwise (a frame sent again, a sample twice in the batch) the insert is undone and made
  // again answering the rows it really inserted, so a skipped sample is never counted.
  await sql`savepoint fieldlink_logs`.execute(trx);
  let inserted: readonly LogsTable[] = fresh;
  if ((await insertSamples(trx, fresh, false)).length !== fresh.length) {
    await sql`rollback to savepoint fieldlink_logs`.execute(trx);
    inserted = await insertSamples(trx, fresh, true);
  }
  await sql`release savepoint fieldlink_logs`.execute(trx);
  for (const { table, width } of ROLLUP_LEVELS) await upsertRollups(trx, table, rollUp(inserted, width));
  return inserted.length;
}

/**
 * Makes a channel's roll-ups again from its stored samples, over whole UTC days around `from`..`to`
 * (unix ms): for samples loaded in bulk by SQL rather than through {@link insertLogs}. Buckets are
 * replaced, so it must not run beside a writer of the same channel, nor for months the log
 * maintenance job has packed already (features/devices/rollup-packs.ts: those are not replaced). Days
 * whose samples are partly in blocks (db/log-blocks.ts) are rolled up here from the decoded samples,
 * the others by the database.
 */
export async function rollUpStoredSamples(
  db: Kysely<Database>,
  channel: { deviceId: string; code: string; from: number; to: number },
): Promise<void> {
  const from = Math.floor(channel.from / DAY_MS) * DAY_MS;
  const to = Math.ceil(channel.to / DAY_MS) * DAY_MS;
  if (await hasSampleBlocks(db, channel.deviceId, channel.code, from, to)) {
    const samples = (await storedSamples(db, { deviceId: channel.deviceId, codes: [channel.code], from, to })).map(
      ({ code, t, value }) => ({ device_id: channel.deviceId, code, t, value }),
    );
    for (const { table, width } of ROLLUP_LEVELS) await replaceRollups(db, table, rollUp(samples, width));
    return;
  }
  for (const { table, width } of ROLLUP_LEVELS) {
    // The bucket of t, floored alike for times before 1970; its last value found again by its key.
    const bucket = sql.raw(`t - ((t % ${width}) + ${width}) % ${width}`);
    await sql`insert into ${sql.table(table)}
        (device_id, code, t, min_value, max_value, sum_value, sample_count, last_t, last_value)
      select a.device_id, a.code, a.b, a.mn, a.mx, a.sm, a.n, a.lt, l.value
      from (
        select device_id, code, ${bucket} as b, min(value) as mn, max(value) as mx, sum(value) as sm,
          count(*) as n, max(t) as lt
        from logs where device_id = ${channel.deviceId} and code = ${channel.code} and t >= ${from} and t < ${to}
        group by device_id, code, ${bucket}
      ) as a
      join logs as l on l.device_id = a.device_id and l.code = a.code and l.t = a.lt
      where true
      on conflict (device_id, code, t) do update set min_value = excluded.min_value,
        max_value = excluded.max_value, sum_value = excluded.sum_value, sample_count = excluded.sample_count,
        last_t = excluded.last_t, last_value = excluded.last_value`.execute(db);
  }
}

/** Rows per statement when replacing buckets: 9 columns each, within both databases' parameter limits. */
const REPLACE_CHUNK = 1000;

/** Stores buckets in a roll-up, replacing those of the same keys. */
async function replaceRollups(
  db: Kysely<Database>,
  table: RollupTable,
  buckets: readonly LogRollupTable[],
): Promise<void> {
  for (let at = 0; at < buckets.length; at += REPLACE_CHUNK) {
    await db
      .insertInto(table)
      .values(buckets.slice(at, at + REPLACE_CHUNK))
      .onConflict((conflict) =>
        conflict.columns(['device_id', 'code', 't']).doUpdateSet((eb) => ({
          min_value: eb.ref('excluded.min_value'),
          max_value: eb.ref('excluded.max_value'),
          sum_value: eb.ref('excluded.sum_value'),
          sample_count: eb.ref('excluded.sample_count'),
          last_t: eb.ref('excluded.last_t'),
          last_value: eb.ref('excluded.last_value'),
        })),
      )
      .execute();
  }
}

/**
 * Stores the latest value of each channel given (one row per device and channel); an older sample
 * never replaces the latest value (core §4). Rows in key order, so two writers lock them alike.
 */
export async function upsertLatestValues(
  trx: Transaction<Database>,
  rows: readonly LatestValuesTable[],
): Promise<void> {
  if (rows.length === 0) return;
  const sorted = [...rows].sort(compareKeys);
  const conflict = `on conflict (device_id, code) do update set t = excluded.t, value = excluded.value,
    extra = excluded.extra where excluded.t >= latest_values.t`;
  if (isSqlite(trx)) {
    await sqliteValues(trx, 'latest_values', ['device_id', 'code', 't', 'value', 'extra'], sorted, conflict, false);
    return;
  }
  await sql`insert into latest_values (device_id, code, t, value, extra)
    select * from unnest(${texts(sorted, 'device_id')}, ${texts(sorted, 'code')}, ${bigints(sorted, 't')},
      ${doubles(sorted, 'value')}, ${sql`${sorted.map((row) => row.extra)}::text[]`})
    ${sql.raw(conflict)}`.execute(trx);
}

const texts = <R>(rows: readonly R[], key: keyof R): RawBuilder<unknown> => sql`${rows.map((row) => row[key])}::text[]`;
const bigints = <R>(rows: readonly R[], key: keyof R): RawBuilder<unknown> =>
  sql`${rows.map((row) => row[key])}::bigint[]`;
const doubles = <R>(rows: readonly R[], key: keyof R): RawBuilder<unknown> =>
  sql`${rows.map((row) => row[key])}::double precision[]`;

/**
 * Inserts samples, duplicates skipped. With `answer`, answers the rows inserted; without, a list as
 * long as the number inserted (its contents are not read).
 */
async function insertSamples(
  trx: Transaction<Database>,
  samples: readonly LogsTable[],
  answer: boolean,
): Promise<readonly LogsTable[]> {
  const returning = answer ? ' returning device_id, code, t, value' : '';
  if (isSqlite(trx)) {
    const columns = ['device_id', 'code', 't', 'value'] as const;
    return sqliteValues(trx, 'logs', columns, samples, `on conflict do nothing${returning}`, answer);
  }
  const result = await sql<LogsTable>`insert into logs (device_id, code, t, value)
    select * from unnest(${texts(samples, 'device_id')}, ${texts(samples, 'code')}, ${bigints(samples, 't')},
      ${doubles(samples, 'value')})
    on conflict do nothing${sql.raw(returning)}`.execute(trx);
  return answer ? result.rows : new Array<LogsTable>(Number(result.numAffectedRows ?? 0));
}

/** Adds buckets (in key order: two instances lock the same buckets in the same order) to a roll-up. */
async function upsertRollups(
  trx: Transaction<Database>,
  table: RollupTable,
  buckets: readonly LogRollupTable[],
): Promise<void> {
  if (buckets.length === 0) return;
  const sqlite = isSqlite(trx);
  const [least, greatest] = sqlite ? ['min', 'max'] : ['least', 'greatest'];
  const conflict = `on conflict (device_id, code, t) do update set
    min_value = ${least}(${table}.min_value, excluded.min_value),
    max_value = ${greatest}(${table}.max_value, excluded.max_value),
    sum_value = ${table}.sum_value + excluded.sum_value,
    sample_count = ${table}.sample_count + excluded.sample_count,
    last_value = case when excluded.last_t >= ${table}.last_t then excluded.last_value else ${table}.last_value end,
    last_t = ${greatest}(${table}.last_t, excluded.last_t)`;
  const columns = [
    'device_id',
    'code',
    't',
    'min_value',
    'max_value',
    'sum_value',
    'sample_count',
    'last_t',
    'last_value',
  ] as const;
  if (sqlite) {
    await sqliteValues(trx, table, columns, buckets, conflict, false);
    return;
  }
  await sql`insert into ${sql.table(table)} (${sql.raw(columns.join(', '))})
    select * from unnest(${texts(buckets, 'device_id')}, ${texts(buckets, 'code')}, ${bigints(buckets, 't')},
      ${doubles(buckets, 'min_value')}, ${doubles(buckets, 'max_value')}, ${doubles(buckets, 'sum_value')},
      ${bigints(buckets, 'sample_count')}, ${bigints(buckets, 'last_t')}, ${doubles(buckets, 'last_value')})
    ${sql.raw(conflict)}`.execute(trx);
}

const sqliteTexts = new Map<string, string>();

/**
 * Rows into a SQLite table through VALUES lists of the lengths of {@link SQLITE_CHUNKS}: their texts
 * are made once, and the driver prepares each once. With `answer`, answers what the statements
 * return; without, a list as long as the rows they changed.
 */
async function sqliteValues<R, K extends keyof R & string>(
  trx: Transaction<Database>,
  table: string,
  columns: readonly K[],
  rows: readonly R[],
  tail: string,
  answer: boolean,
): Promise<R[]> {
  const answered: R[] = [];
  let changed = 0;
  for (let from = 0; from < rows.length;) {
    const length = SQLITE_CHUNKS.find((size) => size <= rows.length - from)!;
    const key = `${table}\u0000${tail}\u0000${length}`;
    let text = sqliteTexts.get(key);
    if (!text) {
      const row = `(${columns.map(() => '?').join(', ')})`;
      text = `insert into ${table} (${columns.join(', ')}) values ${Array.from({ length }, () => row).join(', ')} ${tail}`;
      sqliteTexts.set(key, text);
    }
    const parameters: unknown[] = [];
    for (let i = from; i < from + length; i += 1) for (const column of columns) parameters.push(rows[i]![column]);
    const result = await trx.executeQuery<R>(CompiledQuery.raw(text, parameters));
    if (answer) answered.push(...result.rows);
    else changed += Number(result.numAffectedRows ?? 0);
    from += length;
  }
  return answer ? answered : new Array<R>(changed);
}
