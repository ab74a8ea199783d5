import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import type { Dialect } from '../../db/database';
import type { LogRetention } from '../../config';
import type { JobLogger, JobQueue } from '../../jobs/job-queue';
import { channelsOf, deletePackedBefore, firstRowsBefore, monthStartOf, packClosedMonths } from './rollup-packs';
import { COMPACT_AFTER_MS, compactHours, hourOf } from '../../db/log-blocks';
import { DAY_MS, HOUR_MS } from '@fieldlink/domain/timestamps';
import { PaceStopped, WorkPace, type PaceStats, type WorkPaceOptions } from '../../jobs/work-pace';

/** The job kind that keeps the log's partitions and retention (one run per period, cluster-wide). */
export const LOG_MAINTENANCE_JOB = 'logs.maintain';

/** The partitioned tables of the log on PostgreSQL: samples as rows, and as hourly blocks. */
const PARTITIONED = ['logs', 'log_blocks'] as const;
type PartitionedTable = (typeof PARTITIONED)[number];
/** How long after start the first run is queued. */
const FIRST_RUN_AFTER_MS = 60_000;
/** Monthly partitions kept ready beyond the current month. */
export const PARTITION_MONTHS_AHEAD = 3;
/**
 * Rows a slice deletes, or moves into blocks, about: each slice is one short transaction, so ingest's
 * next batch never waits long for the write lock (SQLite) or shares the machine long with a burst of
 * work (PostgreSQL). Compaction takes a channel's whole hours holding at most this many rows (at
 * least one hour), so a backlog of sparse channels takes few transactions.
 */
const SLICE_ROWS = 1000;
/**
 * How long a partition DDL statement waits for its lock before giving up, so ingest never queues
 * behind it for longer (a waiting ACCESS EXCLUSIVE request holds back every insert that comes after
 * it); it tries again after a pause, at most {@link DDL_ATTEMPTS} times in a run.
 */
const DDL_LOCK_TIMEOUT = '100ms';
const DDL_ATTEMPTS = 20;
/** The storage parameter of a `logs` partition still written into: vacuum leaves its index alone. */
const NO_INDEX_CLEANUP = 'vacuum_index_cleanup=off';
/** The pace of the one vacuum that cleans a month's index: autovacuum's own default (2 ms). */
const INDEX_CLEANUP_COST_DELAY = '2ms';
/**
 * The share of the time a run works: after each slice it rests four times the slice's time
 * (jobs/work-pace.ts), so ingest beside it keeps the rest of the machine and, on SQLite, of the write
 * lock (docs/decisions.md, "Maintenance beside ingest").
 */
export const MAINTENANCE_WORK_SHARE = 0.2;

/** One run's parameters, as a {@link MaintenanceRunner} is handed them. */
export interface MaintenanceRequest {
  now: number;
  retention: LogRetention;
  share: number;
}

/**
 * Where SQLite's runs go when a writer thread writes ingest's batches (ingest/sqlite-writer-thread.ts):
 * into that thread, whose queue the run's slices share with the batches, so a batch waits for at most
 * one slice and never for SQLite's write lock (docs/decisions.md, "Maintenance beside ingest").
 */
export interface MaintenanceRunner {
  maintain(request: MaintenanceRequest): Promise<MaintenanceSummary>;
  /** The run under way stops between two slices. */
  stopMaintenance(): void;
}

/**
 * The turns of a queue the run shares with other work (the writer thread's): a slice runs only while
 * the run holds a turn, taken after each rest; `take` answers the release of the turn.
 */
export interface WorkTurns {
  take(): Promise<() => void>;
}

export interface LogMaintenanceOptions {
  now?: () => number;
  /** The share of the time a run works ({@link MAINTENANCE_WORK_SHARE}). */
  workShare?: number;
  /** Runs go there instead of running here. */
  runner?: MaintenanceRunner;
  /** Each slice of a run here waits for a turn of this queue. */
  turns?: WorkTurns;
  /** How a run here rests between slices (a test's rest that ends only when the run is stopped). */
  rest?: WorkPaceOptions['sleep'];
}

/** A monthly partition of `logs` or `log_blocks` on PostgreSQL: its table and its range of `t`, unix ms. */
export interface LogPartition {
  name: string;
  from: number;
  to: number;
  /** Vacuum leaves its index alone (`vacuum_index_cleanup=off`): a month of `logs` still written. */
  indexCleanupOff: boolean;
}

/** One run under way: the connection it works on, what it did so far, and the pause between slices. */
interface RunContext {
  db: Kysely<Database>;
  summary: MaintenanceSummary;
  pause: () => Promise<void>;
  /** A device's channels, read once a run. */
  codesOf: (deviceId: string) => Promise<string[]>;
}

/** What one maintenance run did. */
export interface MaintenanceSummary {
  created: string[];
  detached: string[];
  /** Partitions of `logs` whose index was cleaned, once past compaction ({@link LogMaintenance}). */
  cleaned: string[];
  deleted: { logs: number; blocks: number; rollups: number };
  /** Roll-up buckets moved into packed periods. */
  packed: number;
  /** Samples moved from rows into hourly blocks. */
  compacted: number;
  /** Its slices, the time they took and the time it rested between them. */
  pace: PaceStats;
  /** Stopped between two slices by the shutdown; the next run carries on. */
  stopped: boolean;
}

/** `logs_p202611`: the partition of November 2026 (the name the migrations give it too). */
export function partitionNameOf(monthStart: number, table: PartitionedTable = 'logs'): string {
  const date = new Date(monthStart);
  return `${table}_p${date.getUTCFullYear()}${String(date.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** The monthly partitions of `logs` or `log_blocks` (the default partition left out), oldest first. */
export async function logPartitions(db: Kysely<Database>, table: PartitionedTable = 'logs'): Promise<LogPartition[]> {
  const { rows } = await sql<{ name: string; bound: string; off: boolean }>`
    select c.relname as name, pg_get_expr(c.relpartbound, c.oid) as bound,
      coalesce(${NO_INDEX_CLEANUP} = any(c.reloptions), false) as off
    from pg_inherits i join pg_class c on c.oid = i.inhrelid
    where i.inhparent = ${table}::regclass`.execute(db);
  const partitions: LogPartition[] = [];
  for (const { name, bound, off } of rows) {
    const range = /FROM \('?(-?\d+)'?\) TO \('?(-?\d+)'?\)/.exec(bound);
    if (range) partitions.push({ name, from: Number(range[1]), to: Number(range[2]), indexCleanupOff: off });
  }
  return partitions.sort((a, b) => a.from - b.from);
}

/**
 * Keeps the log within its retention and, on PostgreSQL, its monthly partitions ready: the current
 * month and {@link PARTITION_MONTHS_AHEAD} ahead exist, and a partition whose whole month lies beyond
 * every plan's retention is detached and dropped. Within the kept months (and on SQLite, which keeps
 * one table) older rows of a plan with a shorter retention are deleted in small batches. Roll-ups
 * follow their own, longer retention, so long charts outlive the raw samples. Samples older than
 * {@link COMPACT_AFTER_MS} then move from rows into hourly blocks (`log_blocks`, partitioned alike),
 * a channel's whole hours per short transaction (db/log-blocks.ts). Run as a job of the jobs table,
 * once an hour, by whichever instance claims it (docs/decisions.md, "Logs at scale"), at a pace that
 * leaves ingest the machine ("Maintenance beside ingest").
 */
export class LogMaintenance {
  private timer: NodeJS.Timeout | null = null;
  private everyMs = 3_600_000;
  /** The pace of the run under way. */
  private pace: WorkPace | null = null;
  private readonly now: () => number;
  private readonly workShare: number;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
    private readonly retention: LogRetention,
    private readonly options: LogMaintenanceOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.workShare = options.workShare ?? MAINTENANCE_WORK_SHARE;
  }

  /**
   * Declares the job with the queue, and queues a run every `everyMinutes` from shortly after start
   * (0: never; another instance may still queue it, and this one run it).
   */
  start(jobs: JobQueue, everyMinutes: number, logger: JobLogger): void {
    jobs.register(
      LOG_MAINTENANCE_JOB,
      async () => {
        const summary = await this.run();
        const changed =
          summary.created.length +
          summary.detached.length +
          summary.cleaned.length +
          summary.deleted.logs +
          summary.deleted.blocks +
          summary.deleted.rollups +
          summary.packed +
          summary.compacted;
        if (changed > 0 || summary.stopped) logger.info({ ...summary }, 'Log maintenance');
      },
      { maxAttempts: 3 },
    );
    if (everyMinutes <= 0) return;
    this.everyMs = everyMinutes * 60_000;
    const every = () => {
      void this.queueRun(jobs).catch((error: unknown) => logger.warn({ err: error }, 'Log maintenance not queued'));
      this.timer = setTimeout(every, this.everyMs);
      this.timer.unref();
    };
    this.timer = setTimeout(every, FIRST_RUN_AFTER_MS);
    this.timer.unref();
  }

  /** Queues this period's run; whichever instance asks first adds it, as the job's id names the period. */
  async queueRun(jobs: JobQueue): Promise<void> {
    const period = Math.floor(this.now() / this.everyMs);
    await jobs.enqueue(LOG_MAINTENANCE_JOB, {}, { key: `${LOG_MAINTENANCE_JOB}:${period}` });
    jobs.nudge();
  }

  /** Stops queueing runs; a run under way stops between two slices (the next run carries on). */
  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.pace?.stop();
    this.options.runner?.stopMaintenance();
  }

  /**
   * One run, in short slices (a transaction or a read each) at the pace of {@link MAINTENANCE_WORK_SHARE}:
   * each step can stop between two slices and the next run finds what is left.
   */
  async run(): Promise<MaintenanceSummary> {
    const { runner, turns } = this.options;
    if (runner) return runner.maintain({ now: this.now(), retention: this.retention, share: this.workShare });
    const pace = new WorkPace(this.workShare, this.options.rest ? { sleep: this.options.rest } : {});
    this.pace = pace;
    const summary: MaintenanceSummary = {
      created: [],
      detached: [],
      cleaned: [],
      deleted: { logs: 0, blocks: 0, rollups: 0 },
      packed: 0,
      compacted: 0,
      pace: pace.stats,
      stopped: false,
    };
    // Sharing a queue, the run holds a turn from one pause to the next, none while it rests, and its
    // wait for a turn is not its work.
    let release = turns ? await turns.take() : null;
    const takeTurn = turns
      ? async () => {
          release = await turns.take();
        }
      : undefined;
    const pause = async () => {
      release?.();
      release = null;
      await pace.pause(takeTurn);
    };
    const channels = new Map<string, Promise<string[]>>();
    const codesOf = (db: Kysely<Database>) => (deviceId: string) => {
      let codes = channels.get(deviceId);
      if (!codes) channels.set(deviceId, (codes = channelsOf(db, deviceId)));
      return codes;
    };
    try {
      if (this.dialect === 'postgres') {
        // One connection of the pool for the whole run, its commits asynchronous: a commit of the run
        // does not flush the WAL itself (the WAL writer does, within 200 ms, or ingest's next commit),
        // so thousands of small commits add no fsync beside ingest's. A crash can lose the run's last
        // transactions, each whole (rows still rows, roll-ups still unpacked): the next run redoes them.
        await this.db.connection().execute(async (db) => {
          await sql`set synchronous_commit = off`.execute(db);
          try {
            await this.runSteps({ db, summary, pause, codesOf: codesOf(db) });
          } finally {
            await sql`reset synchronous_commit`.execute(db);
          }
        });
      } else {
        await this.runSteps({ db: this.db, summary, pause, codesOf: codesOf(this.db) });
      }
    } catch (error) {
      if (!(error instanceof PaceStopped)) throw error;
      summary.stopped = true;
    } finally {
      release?.();
      this.pace = null;
    }
    return summary;
  }

  private async runSteps(run: RunContext): Promise<void> {
    const { db, summary, pause } = run;
    const now = this.now();
    // Samples older than this (a whole hour) move into blocks; months ending after it are still written.
    const compactBefore = hourOf(now - COMPACT_AFTER_MS);
    const plans = Object.entries(this.retention) as [keyof LogRetention, LogRetention[keyof LogRetention]][];
    // Data kept by some plan forever pins every partition.
    const longestRawDays = plans.some(([, kept]) => kept.rawDays === 0)
      ? 0
      : Math.max(...plans.map(([, kept]) => kept.rawDays));
    if (this.dialect === 'postgres') {
      // Blocks get a partition for every month the samples have one for.
      await this.createPartitionsAhead(run, 'logs', now);
      await this.createPartitionsAhead(run, 'log_blocks', now);
      await this.leaveWrittenIndexes(run, compactBefore);
      if (longestRawDays > 0) {
        const cutoff = now - longestRawDays * DAY_MS;
        for (const table of PARTITIONED) await this.detachExpiredPartitions(run, table, cutoff);
        summary.deleted.logs += await this.deleteStrayRows(run, 'logs', cutoff);
        summary.deleted.blocks += await this.deleteStrayRows(run, 'log_blocks', blockCutoff(cutoff));
      }
    }
    for (const [plan, kept] of plans) {
      const devices = await devicesOfPlan(db, plan);
      // On PostgreSQL the longest-kept plan's old rows go with their partitions (at most a month late).
      const byPartition = this.dialect === 'postgres' && kept.rawDays === longestRawDays;
      if (kept.rawDays > 0 && !byPartition) {
        const cutoff = now - kept.rawDays * DAY_MS;
        await this.deleteOlder(run, 'logs', devices, cutoff);
        await this.deleteOlder(run, 'log_blocks', devices, blockCutoff(cutoff));
      }
      if (kept.rollupDays > 0) {
        const cutoff = now - kept.rollupDays * DAY_MS;
        await this.deleteOlder(run, 'logs_hourly', devices, cutoff);
        await this.deleteOlder(run, 'logs_daily', devices, cutoff);
        for (const deviceId of devices) {
          summary.deleted.rollups += await deletePackedBefore(db, deviceId, cutoff, pause);
          await pause();
        }
      }
    }
    // Closed months of the roll-ups are packed, one row per channel, level and month (and the late
    // buckets of months packed before join them).
    const closedBefore = monthStartOf(now);
    const deviceIds = (await db.selectFrom('devices').select('id').orderBy('id').execute()).map(({ id }) => id);
    for (const id of deviceIds) {
      summary.packed += await packClosedMonths(db, id, closedBefore, pause);
      await pause();
    }
    await this.compact(run, deviceIds, compactBefore);
    if (this.dialect === 'postgres') await this.cleanCompactedIndexes(run, compactBefore);
  }

  /**
   * Moves every sample of these devices older than `before` (a whole hour) from rows into hourly
   * blocks, a channel's whole hours of about {@link SLICE_ROWS} rows per short transaction, pausing
   * between them; counts the samples moved. A sample that arrived late for an hour already compacted is merged into
   * its block here.
   */
  private async compact(
    { db, summary, pause, codesOf }: RunContext,
    deviceIds: readonly string[],
    before: number,
  ): Promise<void> {
    for (const deviceId of deviceIds) {
      const due = await firstRowsBefore(db, 'logs', deviceId, await codesOf(deviceId), before);
      await pause();
      for (const code of due.keys()) {
        const olderRow = (n: number) => nthRowBefore(db, 'logs', deviceId, code, before, n);
        for (let oldest = due.get(code); oldest !== undefined; oldest = (await olderRow(0))?.t) {
          const from = hourOf(oldest);
          // Whole hours before the hour of the batch's last row; the first hour whole, however full.
          const last = await olderRow(SLICE_ROWS);
          const to = last ? Math.max(hourOf(last.t), from + HOUR_MS) : before;
          summary.compacted += await compactHours(db, deviceId, code, from, to);
          await pause();
        }
      }
    }
  }

  /**
   * Creates a table's missing monthly partitions from this month on (for `log_blocks`, also those of
   * every month `logs` has a partition for), moving stray rows out of the default partition; adds
   * their names to `created`.
   */
  private async createPartitionsAhead(run: RunContext, table: PartitionedTable, now: number): Promise<void> {
    const { db, summary, pause } = run;
    const existing = new Set((await logPartitions(db, table)).map((partition) => partition.from));
    const months = new Set<number>();
    if (table === 'log_blocks') for (const { from } of await logPartitions(db)) months.add(from);
    for (let ahead = 0; ahead <= PARTITION_MONTHS_AHEAD; ahead += 1) months.add(monthStartOf(now, ahead));
    for (const from of [...months].sort((a, b) => a - b)) {
      if (existing.has(from)) continue;
      const to = monthStartOf(from, 1);
      const name = partitionNameOf(from, table);
      const fallback = sql.table(`${table}_default`);
      await partitionDdl(run, async (trx) => {
        // Rows of that month may sit in the default partition (the server was down for months, or a
        // device's clock ran ahead): they move into the new partition, which is attached afterwards.
        await sql`create table ${sql.table(name)} (like ${sql.table(table)} including defaults including constraints)`.execute(
          trx,
        );
        await sql`with moved as (delete from ${fallback} where t >= ${from} and t < ${to} returning *)
          insert into ${sql.table(name)} select * from moved`.execute(trx);
        await sql`alter table ${sql.table(table)} attach partition ${sql.table(name)}
          for values from (${sql.lit(from)}) to (${sql.lit(to)})`.execute(trx);
      });
      summary.created.push(name);
      await pause();
    }
  }

  /**
   * Keeps vacuum away from the index of every partition of `logs` that ingest or compaction still
   * writes into (its month ends after the compaction horizon): compaction deletes an hour of every
   * channel each run, and a vacuum that then cleans the month's whole primary key beside ingest stalls
   * it (docs/decisions.md, "The job's own stall: vacuum of the month's index"). Runs after the
   * partitions ahead are made, so a new month gets it before ingest writes into it.
   */
  private async leaveWrittenIndexes(run: RunContext, compactBefore: number): Promise<void> {
    for (const partition of await logPartitions(run.db)) {
      if (partition.to <= compactBefore || partition.indexCleanupOff) continue;
      await partitionDdl(run, async (trx) => {
        await sql`alter table ${sql.table(partition.name)} set (${sql.raw(NO_INDEX_CLEANUP)})`.execute(trx);
      });
      await run.pause();
    }
  }

  /**
   * Cleans once the index of each partition of `logs` that {@link leaveWrittenIndexes} kept from
   * vacuum and that is now wholly past the compaction horizon (its rows are blocks), at autovacuum's
   * pace; vacuum decides as usual from then on. Adds them to `cleaned`.
   */
  private async cleanCompactedIndexes(run: RunContext, compactBefore: number): Promise<void> {
    const { db, summary, pause } = run;
    for (const partition of await logPartitions(db)) {
      if (partition.to > compactBefore || !partition.indexCleanupOff) continue;
      const table = sql.table(partition.name);
      // Outside a transaction, as VACUUM must be, at autovacuum's cost-based pace (a manual VACUUM has
      // none by default).
      await sql`set vacuum_cost_delay = ${sql.lit(INDEX_CLEANUP_COST_DELAY)}`.execute(db);
      try {
        await sql`vacuum (index_cleanup on) ${table}`.execute(db);
      } finally {
        await sql`reset vacuum_cost_delay`.execute(db);
      }
      await partitionDdl(run, async (trx) => {
        await sql`alter table ${table} reset (vacuum_index_cleanup)`.execute(trx);
      });
      summary.cleaned.push(partition.name);
      await pause();
    }
  }

  /** Detaches and drops a table's partitions whose whole month ended before `cutoff`. */
  private async detachExpiredPartitions(run: RunContext, table: PartitionedTable, cutoff: number): Promise<void> {
    for (const partition of await logPartitions(run.db, table)) {
      if (partition.to > cutoff) break;
      await partitionDdl(run, async (trx) => {
        await sql`alter table ${sql.table(table)} detach partition ${sql.table(partition.name)}`.execute(trx);
        await sql`drop table ${sql.table(partition.name)}`.execute(trx);
      });
      run.summary.detached.push(partition.name);
      await run.pause();
    }
  }

  /** Deletes a default partition's rows older than `cutoff` (stamped by clocks that were never set). */
  private async deleteStrayRows({ db, pause }: RunContext, table: PartitionedTable, cutoff: number): Promise<number> {
    const fallback = sql.table(`${table}_default`);
    let deleted = 0;
    for (;;) {
      const { rows } = await sql<{ n: number }>`
        with gone as (
          delete from ${fallback} where ctid in (
            select ctid from ${fallback} where t < ${cutoff} limit ${SLICE_ROWS})
          returning 1)
        select count(*)::int as n from gone`.execute(db);
      const n = rows[0]?.n ?? 0;
      deleted += n;
      await pause();
      if (n < SLICE_ROWS) return deleted;
    }
  }

  /**
   * Deletes the rows of these devices older than `cutoff`, channel by channel, at most
   * {@link SLICE_ROWS} per statement: each batch is a range of the primary key, found by the key.
   * Counts them in the summary.
   */
  private async deleteOlder(
    { db, summary, pause, codesOf }: RunContext,
    table: 'logs' | 'log_blocks' | 'logs_hourly' | 'logs_daily',
    deviceIds: readonly string[],
    cutoff: number,
  ): Promise<void> {
    const count = table === 'logs' ? 'logs' : table === 'log_blocks' ? 'blocks' : 'rollups';
    for (const deviceId of deviceIds) {
      // Nothing older than the cutoff (the common case): one read for the device, no DELETE, so no
      // write lock that SQLite's ingest writer thread would wait behind.
      const due = await firstRowsBefore(db, table, deviceId, await codesOf(deviceId), cutoff);
      await pause();
      for (const code of due.keys()) {
        const olderRow = (n: number) => nthRowBefore(db, table, deviceId, code, cutoff, n);
        for (let first = true; ; first = false) {
          const bound = await olderRow(SLICE_ROWS - 1);
          // After a full slice the rest may be nothing: then no empty DELETE (it takes the write lock).
          if (!bound && !first && !(await olderRow(0))) break;
          const result = await db
            .deleteFrom(table)
            .where('device_id', '=', deviceId)
            .where('code', '=', code)
            .where('t', bound ? '<=' : '<', bound ? bound.t : cutoff)
            .executeTakeFirst();
          summary.deleted[count] += Number(result.numDeletedRows);
          // Ingest's next batches go in between two deletes.
          await pause();
          if (!bound) break;
        }
      }
    }
  }
}

/**
 * The blocks to delete for samples older than `cutoff`: those whose whole hour ended by then, so a
 * block's samples are kept at most an hour past their retention rather than deleted early.
 */
function blockCutoff(cutoff: number): number {
  return cutoff - HOUR_MS + 1;
}

/** The channel's (n+1)-th row of `table` before `before`, oldest first, if it has one: a seek of the key. */
function nthRowBefore(
  db: Kysely<Database>,
  table: 'logs' | 'log_blocks' | 'logs_hourly' | 'logs_daily',
  deviceId: string,
  code: string,
  before: number,
  n: number,
): Promise<{ t: number } | undefined> {
  return db
    .selectFrom(table)
    .select('t')
    .where('device_id', '=', deviceId)
    .where('code', '=', code)
    .where('t', '<', before)
    .orderBy('t')
    .limit(1)
    .offset(n)
    .executeTakeFirst();
}

/** Ids of the devices on a plan; anything but PREMIUM is FREE (core §2). */
async function devicesOfPlan(db: Kysely<Database>, plan: keyof LogRetention): Promise<string[]> {
  const rows = await db
    .selectFrom('devices')
    .select('id')
    .$if(plan === 'PREMIUM', (query) => query.where('plan', '=', 'PREMIUM'))
    .$if(plan !== 'PREMIUM', (query) => query.where('plan', '!=', 'PREMIUM'))
    .execute();
  return rows.map((row) => row.id);
}

/**
 * Runs a partition DDL transaction under {@link DDL_LOCK_TIMEOUT}: while ingest holds the table, it
 * gives up, pauses and tries again, at most {@link DDL_ATTEMPTS} times.
 */
async function partitionDdl(run: RunContext, body: (trx: Transaction<Database>) => Promise<void>): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await run.db.transaction().execute(async (trx) => {
        await sql`set local lock_timeout = ${sql.lit(DDL_LOCK_TIMEOUT)}`.execute(trx);
        await body(trx);
      });
      return;
    } catch (error) {
      const lockNotAvailable = (error as { code?: unknown }).code === '55P03';
      if (!lockNotAvailable || attempt >= DDL_ATTEMPTS) throw error;
    }
    await run.pause();
  }
}
