import { sql, type Kysely } from 'kysely';
import { withoutCompacted } from './log-blocks';
import {
  bigints,
  bucketStart,
  doubles,
  insertedSamples,
  LATEST_CONFLICT,
  ROLLUP_COLUMNS,
  ROLLUP_LEVELS,
  rollupConflict,
  texts,
} from './log-writes';
import type { Database, LatestValuesTable, LogsTable } from './schema';
import { HOUR_MS } from '@fieldlink/domain/timestamps';
import { REAL_TIMERS, type Timer, type Timers } from '../timers';

/**
 * PostgreSQL's roll-up inbox (docs/decisions.md, "Issue 41 item 2: the roll-ups and latest values of
 * PostgreSQL's batches go through an inbox"). Every batch of the frame writer holds about one sample
 * of every channel, so a batch that upserted the hourly and daily roll-ups and the latest values
 * updated three rows per sample (an index probe, a row lock and a new row version each: three
 * quarters of PostgreSQL's CPU per batch), and the batches written side by side waited on each
 * other's locks of those rows until each committed. Now a batch's one statement inserts its samples
 * into `logs` and appends what they add to the roll-ups (one row per channel and hour of the batch)
 * and its latest values (on those rows: {@link insertLogsToRollupInbox}) to
 * `log_rollup_latest_inbox`, a table without key or index that no two batches share a row of; PUBACK
 * still waits for that commit. (`log_rollup_inbox`, with the latest values as rows of their own, holds
 * the previous release's batches during a rolling upgrade; every move empties both.) A move
 * ({@link moveRollupInbox}) then takes the inbox's rows and folds them into `logs_hourly`,
 * `logs_daily` and `latest_values` in one statement: a row is always either in the inbox or folded,
 * never both, never neither (a crash leaves it in the inbox for the next move). A mover ({@link RollupInboxMover}) moves about once a second, so a
 * channel's roll-up rows are updated once a second rather than once a batch; readers of roll-ups and
 * latest values move first (`moveInbox`, db/log-inbox.ts), so they read them as if every batch had
 * updated them.
 */

/** The mover moves each device's rows about this often, in ms. */
export const ROLLUP_INBOX_CYCLE_MS = 1000;

/**
 * The inbox's slices: `log_rollup_latest_inbox`'s partitions by a hash of the device (its migration).
 * The mover moves one slice every `ROLLUP_INBOX_CYCLE_MS / ROLLUP_INBOX_SLICES`, so a move folds a
 * quarter of a second's rows, not a second's in one burst, while each channel's roll-up rows are still
 * updated once a second.
 */
export const ROLLUP_INBOX_SLICES = 4;

const INBOX_COLUMNS = [...ROLLUP_COLUMNS, 'latest_t', 'latest_value', 'extra'] as const;

/**
 * Inserts samples into `logs` (those already stored skipped) and appends what the inserted ones add
 * to the roll-ups, and the latest values, to the inbox: one statement (its own transaction outside
 * one), sharing no row with a batch beside it. Answers how many samples were inserted.
 *
 * A channel's latest value rides on the row of its hour (`latest_t`, `latest_value`, `extra`) rather
 * than being a row of its own: half the inbox's rows in the steady stream, where every frame's samples
 * are its latest values, appended by the batch and deleted by the move (docs/decisions.md, "Issue 41
 * item 2: the latest values ride on the inbox's roll-up rows"). It is the latest value as given, so a
 * frame sent again at a time already stored (no sample inserted) still replaces the stored one (core
 * §4); such a row has `sample_count` 0. `latest` holds at most one value per channel.
 */
export async function insertLogsToRollupInbox(
  db: Kysely<Database>,
  samples: readonly LogsTable[],
  latest: readonly LatestValuesTable[] = [],
): Promise<number> {
  if (samples.length === 0 && latest.length === 0) return 0;
  // A late sample at a time an hourly block already holds is a duplicate too (db/log-blocks.ts).
  const fresh = await withoutCompacted(db, samples);
  // The inserted samples and the latest values grouped together by channel and hour: one grouping and
  // no join (a join of the two cost the batch more than the rows it saved). Grouped by bytes (`collate
  // "C"`: the same groups, the database's collation being deterministic) and the last value taken as
  // the greatest [t, value] (no ordered aggregate), so PostgreSQL hashes instead of sorting by the
  // collation.
  const { rows } = await sql<{ n: string }>`with inserted as (${insertedSamples(fresh)}),
    appended as (insert into log_rollup_latest_inbox (${sql.raw(INBOX_COLUMNS.join(', '))})
      select device_id collate "C", code collate "C", ${bucketStart(HOUR_MS)} as b, min(value) filter (where sample),
        max(value) filter (where sample), sum(value) filter (where sample), count(*) filter (where sample),
        max(t) filter (where sample), (max(array[t, value]) filter (where sample))[2],
        max(t) filter (where not sample), max(value) filter (where not sample), max(extra) filter (where not sample)
      from (select device_id, code, t, value, null::text, true from inserted
        union all select *, false from unnest(${texts(latest, 'device_id')}, ${texts(latest, 'code')},
          ${bigints(latest, 't')}, ${doubles(latest, 'value')}, ${sql`${latest.map((row) => row.extra)}::text[]`})
        ) as s(device_id, code, t, value, extra, sample)
      group by device_id collate "C", code collate "C", b)
    select count(*) as n from inserted`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/**
 * Folds the inbox's rows (of `deviceIds` only, when given; of one slice's devices, when `slice` is
 * given, and the previous release's rows of every device) into the roll-ups and latest values, in
 * one statement: the rows it deletes are the rows it folds. Buckets and latest values are upserted in
 * key order, as every writer does, so two moves (two readers, or two instances) never deadlock; a
 * move that meets rows another is deleting waits for it and skips them. Of two latest values of one
 * time the later appended is kept, as a later batch's replaces it (an equal time replaces: core §4).
 * Answers how many rows moved.
 */
export async function moveRollupInbox(
  db: Kysely<Database>,
  deviceIds?: readonly string[],
  slice?: number,
): Promise<number> {
  const which = deviceIds ? sql`where device_id = any(${[...deviceIds]}::text[])` : sql``;
  // A slice is one partition: its delete reads no other's rows.
  const inbox = sql.raw(slice === undefined ? 'log_rollup_latest_inbox' : `log_rollup_latest_inbox_${slice}`);
  // The finest level is folded from the moved rows, each coarser one from the level before it (its
  // buckets nest: an hour lies in one UTC day), so the moved rows are grouped once, not once a level.
  const levels = ROLLUP_LEVELS.map(({ table, width }, i) => {
    const bucket = bucketStart(width);
    const source =
      i === 0
        ? sql`select device_id, code, ${bucket} as b, min_value, max_value, sum_value, sample_count, last_t, last_value
          from moved where sample_count > 0`
        : sql`select device_id, code, ${bucket} as b, min_value, max_value, sum_value, sample_count, last_t, last_value
          from ${sql.raw(`${ROLLUP_LEVELS[0].table}_folded`)} as f(device_id, code, t, min_value, max_value, sum_value,
            sample_count, last_t, last_value)`;
    const folded = sql.raw(`${table}_folded`);
    return sql`, ${folded} as materialized (select device_id, code, b, min(min_value), max(max_value), sum(sum_value),
        sum(sample_count)::bigint, max(last_t), (array_agg(last_value order by last_t desc))[1]
      from (${source}) as s group by device_id, code, b),
      ${sql.raw(`${table}_added`)} as (insert into ${sql.table(table)} (${sql.raw(ROLLUP_COLUMNS.join(', '))})
      select * from ${folded} order by 1, 2, 3
      ${sql.raw(rollupConflict(table, false))})`;
  });
  // This release's rows, and the previous release's (a rolling upgrade: its latest values are rows of
  // their own, `sample_count` 0).
  const { rows } = await sql<{ n: string }>`with moved_latest as (delete from ${inbox} ${which}
      returning id, device_id, code, t, min_value, max_value, sum_value, sample_count, last_t, last_value,
        latest_t, latest_value, extra),
    moved_before as (delete from log_rollup_inbox ${which}
      returning id, device_id, code, t, min_value, max_value, sum_value, sample_count, last_t, last_value,
        case when sample_count = 0 then last_t end, case when sample_count = 0 then last_value end, extra),
    moved as (select * from moved_latest union all select * from moved_before)
    ${sql.join(levels, sql``)},
    latest as (insert into latest_values (device_id, code, t, value, extra)
      select distinct on (device_id, code) device_id, code, latest_t, latest_value, extra
      from moved where latest_t is not null order by device_id, code, latest_t desc, id desc
      ${sql.raw(LATEST_CONFLICT)})
    select count(*) as n from moved`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/**
 * Vacuums one slice of the inbox (its partition), so that the space of the rows its move deleted is
 * used again by the next batches. Every row of the inbox is appended once and deleted within about a
 * second, and a move's delete reads its whole partition: left to autovacuum (once a minute at most,
 * `autovacuum_naptime`), a partition grows by every row appended in between, and after a burst (the
 * maximum-rate stages) stays that large, each move reading thousands of pages of dead rows
 * (docs/decisions.md, "Issue 41 item 2: the roll-up inbox vacuumed after each move"). `truncate false`:
 * shrinking the file takes a lock that would stop the batches' inserts (autovacuum still shrinks it
 * when it can); `skip_locked`: a slice autovacuum is working on is left to it rather than waited for.
 * A role that does not own the table gets a warning, not an error, and nothing is vacuumed.
 */
export async function vacuumRollupInboxSlice(db: Kysely<Database>, slice: number): Promise<void> {
  await sql.raw(`vacuum (truncate false, skip_locked) log_rollup_latest_inbox_${slice}`).execute(db);
}

/**
 * Moves PostgreSQL's roll-up inbox a slice at a time, one slice every `cycleMs` /
 * {@link ROLLUP_INBOX_SLICES} (each slice about every `cycleMs`), one move at a time, each followed by
 * a vacuum of its slice ({@link vacuumRollupInboxSlice}), and once more,
 * whole, when closed (after the frame writer's last batch), so a shutdown leaves nothing to fold. A
 * move that fails is tried again at the slice's next turn: its rows stay in the inbox.
 */
export class RollupInboxMover {
  private timer: Timer | null = null;
  private moving: Promise<void> | null = null;
  private closed = false;
  private readonly timers: Timers;
  private readonly cycleMs: number;
  /** The slice the next move takes. */
  private slice = 0;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly options: { cycleMs?: number; onError?: (error: unknown) => void; timers?: Timers } = {},
  ) {
    this.timers = options.timers ?? REAL_TIMERS;
    this.cycleMs = options.cycleMs ?? ROLLUP_INBOX_CYCLE_MS;
    this.schedule(0);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.timer?.cancel();
    this.timer = null;
    await this.moving;
    await moveRollupInbox(this.db);
  }

  private schedule(delayMs: number): void {
    if (this.closed) return;
    this.timer = this.timers.setTimeout(() => {
      this.timer = null;
      const slice = this.slice;
      this.slice = (slice + 1) % ROLLUP_INBOX_SLICES;
      this.moving = moveRollupInbox(this.db, undefined, slice)
        .then(() => vacuumRollupInboxSlice(this.db, slice))
        .then(
          () => undefined,
          (error: unknown) => this.options.onError?.(error),
        )
        .finally(() => {
          this.moving = null;
          this.schedule(this.cycleMs / ROLLUP_INBOX_SLICES);
        });
    }, delayMs);
    // The mover never keeps the process alive by itself.
    this.timer.unref();
  }
}
