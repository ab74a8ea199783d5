import { CompiledQuery, sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import { isSqlite } from './dialect';
import type { Database, LatestValuesTable, LogRollupTable, LogsTable } from './schema';
import { hasSampleBlocks, storedSamples, withoutCompacted } from './log-blocks';
import { DAY_MS, HOUR_MS } from '@fieldlink/domain/timestamps';

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
 *
 * No key is built per sample (docs/decisions.md, issue 41): buckets are found through a map per
 * device and per channel keyed by the bucket's start, a number, and a sample of the same bucket as the
 * one before it (samples come sorted by key from the inbox) goes straight to that bucket.
 */
export function rollUp(samples: readonly LogsTable[], width: number): LogRollupTable[] {
  const devices = new Map<string, Map<string, Map<number, LogRollupTable>>>();
  let bucket: LogRollupTable | undefined;
  for (const { device_id, code, t, value } of samples) {
    const start = Math.floor(t / width) * width;
    if (bucket === undefined || bucket.t !== start || bucket.code !== code || bucket.device_id !== device_id) {
      let channels = devices.get(device_id);
      if (!channels) devices.set(device_id, (channels = new Map()));
      let starts = channels.get(code);
      if (!starts) channels.set(code, (starts = new Map()));
      bucket = starts.get(start);
      if (!bucket) {
        bucket = {
          device_id,
          code,
          t: start,
          min_value: value,
          max_value: value,
          sum_value: value,
          sample_count: 1,
          last_t: t,
          last_value: value,
        };
        starts.set(start, bucket);
        continue;
      }
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
  const buckets: LogRollupTable[] = [];
  for (const deviceId of [...devices.keys()].sort(compareTexts)) {
    const channels = devices.get(deviceId)!;
    for (const code of [...channels.keys()].sort(compareTexts)) {
      const starts = channels.get(code)!;
      for (const start of [...starts.keys()].sort((a, b) => a - b)) buckets.push(starts.get(start)!);
    }
  }
  return buckets;
}

const compareTexts = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Key order of samples and buckets: device, channel, time. */
export function compareKeys(a: { device_id: string; code: string; t: number }, b: typeof a): number {
  if (a.device_id !== b.device_id) return a.device_id < b.device_id ? -1 : 1;
  if (a.code !== b.code) return a.code < b.code ? -1 : 1;
  return a.t - b.t;
}

/**
 * Inserts samples into the log, skipping those already stored, and adds the inserted ones to the
 * roll-ups; with `latest`, stores those latest values too (an older sample never replaces a newer
 * latest value). Answers how many samples were inserted.
 *
 * On PostgreSQL it is one statement (docs/decisions.md, "Ingest at higher steady loads": "One statement
 * a batch"): the insert's `RETURNING` rows are folded into the roll-ups by the same statement, so only
 * samples really inserted are counted, and outside a transaction the statement is its own, holding
 * the roll-up and latest-value rows it shares with the batches written beside it only while it runs
 * and commits. On SQLite it runs in the caller's transaction, or in one of its own.
 */
export async function insertLogs(
  db: Kysely<Database>,
  samples: readonly LogsTable[],
  latest: readonly LatestValuesTable[] = [],
): Promise<number> {
  if (samples.length === 0 && latest.length === 0) return 0;
  if (!isSqlite(db)) {
    // A late sample at a time an hourly block already holds is a duplicate too (db/log-blocks.ts).
    return insertPostgres(db, await withoutCompacted(db, samples), latest);
  }
  if (!db.isTransaction) return db.transaction().execute((trx) => insertLogs(trx, samples, latest));
  const trx = db as Transaction<Database>;
  const inserted = await insertSqlite(trx, await withoutCompacted(trx, samples));
  await upsertLatestValues(trx, latest);
  return inserted;
}

/**
 * SQLite: the common case inserts every sample: its count says so, and the roll-ups take the samples
 * as given. Otherwise (a frame sent again, a sample twice in the batch) the insert is undone and made
 * again answering the rows it really inserted, so a skipped sample is never counted.
 *
 * Undoing needs a savepoint, and a savepoint (like the statement journal of any statement that may
 * abort half-way) copies every page of `logs` it changes into a sub-journal first, which SQLite
 * spills to a temporary file: about a tenth of the writer thread's time (docs/decisions.md, "Issue 41
 * items 1 and 3: the writer thread's statement journals"). So a batch that cannot meet a stored sample
 * nor repeat one of its own ({@link cannotRepeat}: the inbox's moves) is inserted without either.
 */
async function insertSqlite(trx: Transaction<Database>, fresh: readonly LogsTable[]): Promise<number> {
  if (fresh.length === 0) return 0;
  if (await cannotRepeat(trx, fresh)) {
    await sqliteValues(trx, 'logs', SAMPLE_COLUMNS, fresh, '', false, true);
    await upsertAllRollups(trx, fresh);
    return fresh.length;
  }
  await sql`savepoint fieldlink_logs`.execute(trx);
  let inserted: readonly LogsTable[] = fresh;
  if ((await insertSamples(trx, fresh, false)).length !== fresh.length) {
    await sql`rollback to savepoint fieldlink_logs`.execute(trx);
    inserted = await insertSamples(trx, fresh, true);
  }
  await sql`release savepoint fieldlink_logs`.execute(trx);
  await upsertAllRollups(trx, inserted);
  return inserted.length;
}

async function upsertAllRollups(trx: Transaction<Database>, inserted: readonly LogsTable[]): Promise<void> {
  for (const { table, width } of ROLLUP_LEVELS) await upsertRollups(trx, table, rollUp(inserted, width));
}

/** A batch is checked for repeats only if it holds at least this many samples per channel (on average). */
const SAMPLES_PER_CHECKED_CHANNEL = 4;

/**
 * SQLite: whether no sample of `samples` can be skipped as a repeat, so an insert of them all needs
 * no undo: each channel's samples come in one run of rising times (as the inbox's moves give them, in
 * key order), no stored sample of the channel is at or after the run's first time, and every sample is
 * plain (text keys, finite numbers: no constraint can fail). A batch of few samples per channel (a
 * frame's) is not checked: the check would cost more than the savepoint.
 */
async function cannotRepeat(trx: Transaction<Database>, samples: readonly LogsTable[]): Promise<boolean> {
  const firsts: [string, string, number][] = [];
  const channels = new Set<string>();
  let previous: LogsTable | undefined;
  for (const sample of samples) {
    const { device_id, code, t, value } = sample;
    if (typeof device_id !== 'string' || typeof code !== 'string' || !Number.isFinite(t) || !Number.isFinite(value))
      return false;
    if (previous && device_id === previous.device_id && code === previous.code) {
      if (t <= previous.t) return false;
    } else {
      const key = `${device_id}\u0000${code}`;
      if (channels.has(key)) return false;
      channels.add(key);
      if (channels.size * SAMPLES_PER_CHECKED_CHANNEL > samples.length) return false;
      firsts.push([device_id, code, t]);
    }
    previous = sample;
  }
  const { rows } = await trx.executeQuery(CompiledQuery.raw(STORED_FROM_FIRSTS, [JSON.stringify(firsts)]));
  return rows.length === 0;
}

/**
 * SQLite: a stored sample of a channel at or after a given time, for any of the `[device, code, t]`
 * given as JSON; a seek of `logs`' key each.
 */
const STORED_FROM_FIRSTS = `select 1 from json_each(?) as f where exists (select 1 from logs
    where device_id = f.value ->> 0 and code = f.value ->> 1 and t >= f.value ->> 2) limit 1`;

/** PostgreSQL: the start of the bucket of `width` ms a time `t` falls in, floored alike before 1970. */
export const bucketStart = (width: number) => sql.raw(`t - ((t % ${width}) + ${width}) % ${width}`);

/**
 * PostgreSQL: the body of an `inserted` step that inserts samples into `logs` (those already stored
 * skipped) and answers the rows it inserted.
 */
export const insertedSamples = (samples: readonly LogsTable[]) =>
  sql`insert into logs (device_id, code, t, value)
      select * from unnest(${texts(samples, 'device_id')}, ${texts(samples, 'code')}, ${bigints(samples, 't')},
        ${doubles(samples, 'value')})
      on conflict do nothing returning device_id, code, t, value`;

/**
 * PostgreSQL: what the `inserted` step's rows add to the roll-up of `width` ms, a row per device,
 * channel and bucket in {@link ROLLUP_COLUMNS}' order, its last value the one at the latest time (one
 * sample per time: the insert skips repeats).
 */
export const rollupOfInserted = (width: number) =>
  sql`select device_id, code, b, min(value), max(value), sum(value), count(*), max(t),
        (array_agg(value order by t desc))[1]
      from (select device_id, code, ${bucketStart(width)} as b, t, value from inserted) as s
      group by device_id, code, b`;

/**
 * PostgreSQL: samples, roll-ups and latest values in one statement of array parameters. Each roll-up
 * folds the rows the insert answers per device, channel and bucket (floored alike for times before
 * 1970), its last value the one at the latest time (one sample per time: the insert skips repeats),
 * and upserts the buckets in key order, as every writer does.
 */
async function insertPostgres(
  db: Kysely<Database>,
  samples: readonly LogsTable[],
  latest: readonly LatestValuesTable[],
): Promise<number> {
  const rollups = ROLLUP_LEVELS.map(
    ({ table, width }) =>
      sql`, ${sql.raw(`${table}_added`)} as (insert into ${sql.table(table)} (${sql.raw(ROLLUP_COLUMNS.join(', '))})
      ${rollupOfInserted(width)} order by device_id, code, b
      ${sql.raw(rollupConflict(table, false))})`,
  );
  const sorted = [...latest].sort(compareKeys);
  const latestValues =
    sorted.length === 0
      ? sql``
      : sql`, latest as (insert into latest_values (device_id, code, t, value, extra)
          select * from unnest(${texts(sorted, 'device_id')}, ${texts(sorted, 'code')}, ${bigints(sorted, 't')},
            ${doubles(sorted, 'value')}, ${sql`${sorted.map((row) => row.extra)}::text[]`})
          ${sql.raw(LATEST_CONFLICT)})`;
  const { rows } = await sql<{ n: string }>`with inserted as (${insertedSamples(samples)})
    ${sql.join(rollups, sql``)}${latestValues}
    select count(*) as n from inserted`.execute(db);
  return Number(rows[0]?.n ?? 0);
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
    const bucket = bucketStart(width);
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
 * The latest value of each channel (one row per device and channel): an older sample never replaces
 * it (core §4).
 */
export const LATEST_CONFLICT = `on conflict (device_id, code) do update set t = excluded.t, value = excluded.value,
    extra = excluded.extra where excluded.t >= latest_values.t`;

/** SQLite: stores latest values, in key order so two writers lock them alike. */
async function upsertLatestValues(trx: Transaction<Database>, rows: readonly LatestValuesTable[]): Promise<void> {
  if (rows.length === 0) return;
  const columns = ['device_id', 'code', 't', 'value', 'extra'] as const;
  await sqliteValues(trx, 'latest_values', columns, [...rows].sort(compareKeys), LATEST_CONFLICT, false);
}

export const texts = <R>(rows: readonly R[], key: keyof R): RawBuilder<unknown> =>
  sql`${rows.map((row) => row[key])}::text[]`;
export const bigints = <R>(rows: readonly R[], key: keyof R): RawBuilder<unknown> =>
  sql`${rows.map((row) => row[key])}::bigint[]`;
export const doubles = <R>(rows: readonly R[], key: keyof R): RawBuilder<unknown> =>
  sql`${rows.map((row) => row[key])}::double precision[]`;

/**
 * SQLite: inserts samples, duplicates skipped. With `answer`, answers the rows inserted; without, a
 * list as long as the number inserted (its contents are not read).
 */
async function insertSamples(
  trx: Transaction<Database>,
  samples: readonly LogsTable[],
  answer: boolean,
): Promise<readonly LogsTable[]> {
  const returning = answer ? ' returning device_id, code, t, value' : '';
  return sqliteValues(trx, 'logs', SAMPLE_COLUMNS, samples, `on conflict do nothing${returning}`, answer);
}

const SAMPLE_COLUMNS = ['device_id', 'code', 't', 'value'] as const;

export const ROLLUP_COLUMNS = [
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

/** How a bucket adds to the one already stored under its key. */
export function rollupConflict(table: RollupTable, sqlite: boolean): string {
  const [least, greatest] = sqlite ? ['min', 'max'] : ['least', 'greatest'];
  return `on conflict (device_id, code, t) do update set
    min_value = ${least}(${table}.min_value, excluded.min_value),
    max_value = ${greatest}(${table}.max_value, excluded.max_value),
    sum_value = ${table}.sum_value + excluded.sum_value,
    sample_count = ${table}.sample_count + excluded.sample_count,
    last_value = case when excluded.last_t >= ${table}.last_t then excluded.last_value else ${table}.last_value end,
    last_t = ${greatest}(${table}.last_t, excluded.last_t)`;
}

/** SQLite: adds buckets (in key order: two writers lock the same buckets in the same order) to a roll-up. */
async function upsertRollups(
  trx: Transaction<Database>,
  table: RollupTable,
  buckets: readonly LogRollupTable[],
): Promise<void> {
  if (buckets.length === 0) return;
  // Every bucket is inserted or updates the one stored (no condition on the update).
  await sqliteValues(trx, table, ROLLUP_COLUMNS, buckets, rollupConflict(table, true), false, true);
}

const sqliteTexts = new Map<string, string>();

/**
 * Rows into a SQLite table through VALUES lists of the lengths of {@link SQLITE_CHUNKS}: their texts
 * are made once, and the driver prepares each once. With `answer`, answers what the statements
 * return; without, a list as long as the rows they changed.
 *
 * `everyRow`: each statement must change every row it is given (rows that cannot meet a stored one, or
 * an upsert that updates what it meets), and throws otherwise, so the caller's transaction is undone as
 * if the statement had failed. It is then an `insert or ignore`: a statement of many rows that may fail
 * half-way (a NOT NULL column, a key) makes SQLite copy every page it changes into a statement journal
 * first, to undo its own part alone; one that ignores such a row never fails, and the count says
 * whether it ignored one (docs/decisions.md, "Issue 41 items 1 and 3: the writer thread's statement
 * journals").
 */
export async function sqliteValues<R, K extends keyof R & string>(
  trx: Transaction<Database>,
  table: string,
  columns: readonly K[],
  rows: readonly R[],
  tail: string,
  answer: boolean,
  everyRow = false,
): Promise<R[]> {
  if (everyRow && answer) throw new Error('A statement that must change every row answers no rows');
  const verb = everyRow ? 'insert or ignore' : 'insert';
  const answered: R[] = [];
  let changed = 0;
  for (let from = 0; from < rows.length;) {
    const length = SQLITE_CHUNKS.find((size) => size <= rows.length - from)!;
    const key = `${verb}\u0000${table}\u0000${tail}\u0000${length}`;
    let text = sqliteTexts.get(key);
    if (!text) {
      const row = `(${columns.map(() => '?').join(', ')})`;
      text = `${verb} into ${table} (${columns.join(', ')}) values ${Array.from({ length }, () => row).join(', ')} ${tail}`;
      sqliteTexts.set(key, text);
    }
    const parameters: unknown[] = [];
    for (let i = from; i < from + length; i += 1) for (const column of columns) parameters.push(rows[i]![column]);
    const result = await trx.executeQuery<R>(CompiledQuery.raw(text, parameters));
    if (answer) answered.push(...result.rows);
    else changed += Number(result.numAffectedRows ?? 0);
    from += length;
    if (everyRow && changed !== from) throw new Error(`A row given to ${table} was not written`);
  }
  return answer ? answered : new Array<R>(changed);
}
