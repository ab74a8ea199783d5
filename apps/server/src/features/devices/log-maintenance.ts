import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { Dialect } from '../../db/database';
import type { LogRetention } from '../../config';
import type { JobLogger, JobQueue } from '../../jobs/job-queue';
import { channelsOf, deletePackedBefore, monthStartOf, packClosedMonths } from './rollup-packs';
import { COMPACT_AFTER_MS, compactHour, hourOf } from '../../db/log-blocks';
import { DAY_MS, HOUR_MS } from '@fieldlink/domain/timestamps';

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
 * Rows deleted per statement: each is one short transaction, so ingest's next batch never waits long
 * for the write lock (SQLite) or the rows (PostgreSQL).
 */
const DELETE_BATCH = 2000;
/** A partition DDL statement gives up rather than queue ingest behind it; the next run tries again. */
const DDL_LOCK_TIMEOUT = '2s';

/** A monthly partition of `logs` or `log_blocks` on PostgreSQL: its table and its range of `t`, unix ms. */
export interface LogPartition {
  name: string;
  from: number;
  to: number;
}

/** What one maintenance run did. */
export interface MaintenanceSummary {
  created: string[];
  detached: string[];
  deleted: { logs: number; blocks: number; rollups: number };
  /** Roll-up buckets moved into packed periods. */
  packed: number;
  /** Samples moved from rows into hourly blocks. */
  compacted: number;
}

/** `logs_p202611`: the partition of November 2026 (the name the migrations give it too). */
export function partitionNameOf(monthStart: number, table: PartitionedTable = 'logs'): string {
  const date = new Date(monthStart);
  return `${table}_p${date.getUTCFullYear()}${String(date.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** The monthly partitions of `logs` or `log_blocks` (the default partition left out), oldest first. */
export async function logPartitions(db: Kysely<Database>, table: PartitionedTable = 'logs'): Promise<LogPartition[]> {
  const { rows } = await sql<{ name: string; bound: string }>`
    select c.relname as name, pg_get_expr(c.relpartbound, c.oid) as bound
    from pg_inherits i join pg_class c on c.oid = i.inhrelid
    where i.inhparent = ${table}::regclass`.execute(db);
  const partitions: LogPartition[] = [];
  for (const { name, bound } of rows) {
    const range = /FROM \('?(-?\d+)'?\) TO \('?(-?\d+)'?\)/.exec(bound);
    if (range) partitions.push({ name, from: Number(range[1]), to: Number(range[2]) });
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
 * one channel's hour per short transaction (db/log-blocks.ts). Run as a job of the
 * jobs table, once an hour, by whichever instance claims it (docs/decisions.md, "Logs at scale").
 */
export class LogMaintenance {
  private timer: NodeJS.Timeout | null = null;
  private everyMs = 3_600_000;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
    private readonly retention: LogRetention,
    private readonly logger: JobLogger,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Declares the job with the queue, and queues a run every `everyMinutes` from shortly after start
   * (0: never; another instance may still queue it, and this one run it).
   */
  start(jobs: JobQueue, everyMinutes: number): void {
    jobs.register(
      LOG_MAINTENANCE_JOB,
      async () => {
        const summary = await this.run();
        const changed =
          summary.created.length +
          summary.detached.length +
          summary.deleted.logs +
          summary.deleted.blocks +
          summary.deleted.rollups +
          summary.packed +
          summary.compacted;
        if (changed > 0) this.logger.info({ ...summary }, 'Log maintenance');
      },
      { maxAttempts: 3 },
    );
    if (everyMinutes <= 0) return;
    this.everyMs = everyMinutes * 60_000;
    const every = () => {
      void this.queueRun(jobs).catch((error: unknown) =>
        this.logger.warn({ err: error }, 'Log maintenance not queued'),
      );
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

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  async run(): Promise<MaintenanceSummary> {
    const now = this.now();
    const summary: MaintenanceSummary = {
      created: [],
      detached: [],
      deleted: { logs: 0, blocks: 0, rollups: 0 },
      packed: 0,
      compacted: 0,
    };
    const plans = Object.entries(this.retention) as [keyof LogRetention, LogRetention[keyof LogRetention]][];
    // Data kept by some plan forever pins every partition.
    const longestRawDays = plans.some(([, kept]) => kept.rawDays === 0)
      ? 0
      : Math.max(...plans.map(([, kept]) => kept.rawDays));
    if (this.dialect === 'postgres') {
      // Blocks get a partition for every month the samples have one for.
      summary.created = await this.createPartitionsAhead('logs', now);
      summary.created.push(...(await this.createPartitionsAhead('log_blocks', now)));
      if (longestRawDays > 0) {
        const cutoff = now - longestRawDays * DAY_MS;
        for (const table of PARTITIONED) summary.detached.push(...(await this.detachExpiredPartitions(table, cutoff)));
        summary.deleted.logs += await this.deleteStrayRows('logs', cutoff);
        summary.deleted.blocks += await this.deleteStrayRows('log_blocks', blockCutoff(cutoff));
      }
    }
    for (const [plan, kept] of plans) {
      const devices = await this.devicesOfPlan(plan);
      // On PostgreSQL the longest-kept plan's old rows go with their partitions (at most a month late).
      const byPartition = this.dialect === 'postgres' && kept.rawDays === longestRawDays;
      if (kept.rawDays > 0 && !byPartition) {
        const cutoff = now - kept.rawDays * DAY_MS;
        summary.deleted.logs += await this.deleteOlder('logs', devices, cutoff);
        summary.deleted.blocks += await this.deleteOlder('log_blocks', devices, blockCutoff(cutoff));
      }
      if (kept.rollupDays > 0) {
        const cutoff = now - kept.rollupDays * DAY_MS;
        summary.deleted.rollups += await this.deleteOlder('logs_hourly', devices, cutoff);
        summary.deleted.rollups += await this.deleteOlder('logs_daily', devices, cutoff);
        for (const deviceId of devices) summary.deleted.rollups += await deletePackedBefore(this.db, deviceId, cutoff);
      }
    }
    // Closed months of the roll-ups are packed, one row per channel, level and month (and the late
    // buckets of months packed before join them).
    const closedBefore = monthStartOf(now);
    for (const { id } of await this.db.selectFrom('devices').select('id').execute()) {
      summary.packed += await packClosedMonths(this.db, id, closedBefore);
    }
    summary.compacted = await this.compact(hourOf(now - COMPACT_AFTER_MS));
    return summary;
  }

  /**
   * Moves every sample older than `before` (a whole hour) from rows into hourly blocks, one channel's
   * hour per short transaction, yielding to ingest between them; answers how many samples moved. A
   * sample that arrived late for an hour already compacted is merged into its block here.
   */
  private async compact(before: number): Promise<number> {
    let moved = 0;
    const devices = await this.db.selectFrom('devices').select('id').orderBy('id').execute();
    for (const { id: deviceId } of devices) {
      for (const code of await channelsOf(this.db, deviceId)) {
        for (;;) {
          const oldest = await this.db
            .selectFrom('logs')
            .select('t')
            .where('device_id', '=', deviceId)
            .where('code', '=', code)
            .where('t', '<', before)
            .orderBy('t')
            .limit(1)
            .executeTakeFirst();
          if (!oldest) break;
          moved += await compactHour(this.db, deviceId, code, hourOf(oldest.t));
          await new Promise((resolve) => setImmediate(resolve));
        }
      }
    }
    return moved;
  }

  /**
   * Creates a table's missing monthly partitions from this month on (for `log_blocks`, also those of
   * every month `logs` has a partition for), moving stray rows out of the default partition.
   */
  private async createPartitionsAhead(table: PartitionedTable, now: number): Promise<string[]> {
    const existing = new Set((await logPartitions(this.db, table)).map((partition) => partition.from));
    const months = new Set<number>();
    if (table === 'log_blocks') for (const { from } of await logPartitions(this.db)) months.add(from);
    for (let ahead = 0; ahead <= PARTITION_MONTHS_AHEAD; ahead += 1) months.add(monthStartOf(now, ahead));
    const created: string[] = [];
    for (const from of [...months].sort((a, b) => a - b)) {
      if (existing.has(from)) continue;
      const to = monthStartOf(from, 1);
      const name = partitionNameOf(from, table);
      const fallback = sql.table(`${table}_default`);
      await this.db.transaction().execute(async (trx) => {
        await sql`set local lock_timeout = ${sql.lit(DDL_LOCK_TIMEOUT)}`.execute(trx);
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
      created.push(name);
    }
    return created;
  }

  /** Detaches and drops a table's partitions whose whole month ended before `cutoff`. */
  private async detachExpiredPartitions(table: PartitionedTable, cutoff: number): Promise<string[]> {
    const detached: string[] = [];
    for (const partition of await logPartitions(this.db, table)) {
      if (partition.to > cutoff) break;
      await this.db.transaction().execute(async (trx) => {
        await sql`set local lock_timeout = ${sql.lit(DDL_LOCK_TIMEOUT)}`.execute(trx);
        await sql`alter table ${sql.table(table)} detach partition ${sql.table(partition.name)}`.execute(trx);
        await sql`drop table ${sql.table(partition.name)}`.execute(trx);
      });
      detached.push(partition.name);
    }
    return detached;
  }

  /** Deletes a default partition's rows older than `cutoff` (stamped by clocks that were never set). */
  private async deleteStrayRows(table: PartitionedTable, cutoff: number): Promise<number> {
    const fallback = sql.table(`${table}_default`);
    let deleted = 0;
    for (;;) {
      const { rows } = await sql<{ n: number }>`
        with gone as (
          delete from ${fallback} where ctid in (
            select ctid from ${fallback} where t < ${cutoff} limit ${DELETE_BATCH})
          returning 1)
        select count(*)::int as n from gone`.execute(this.db);
      const n = rows[0]?.n ?? 0;
      deleted += n;
      if (n < DELETE_BATCH) return deleted;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** Ids of the devices on a plan; anything but PREMIUM is FREE (core §2). */
  private async devicesOfPlan(plan: keyof LogRetention): Promise<string[]> {
    const rows = await this.db
      .selectFrom('devices')
      .select('id')
      .$if(plan === 'PREMIUM', (query) => query.where('plan', '=', 'PREMIUM'))
      .$if(plan !== 'PREMIUM', (query) => query.where('plan', '!=', 'PREMIUM'))
      .execute();
    return rows.map((row) => row.id);
  }

  /**
   * Deletes the rows of these devices older than `cutoff`, channel by channel, at most
   * {@link DELETE_BATCH} per statement: each batch is a range of the primary key, found by the key.
   */
  private async deleteOlder(
    table: 'logs' | 'log_blocks' | 'logs_hourly' | 'logs_daily',
    deviceIds: readonly string[],
    cutoff: number,
  ): Promise<number> {
    let deleted = 0;
    for (const deviceId of deviceIds) {
      for (const code of await channelsOf(this.db, deviceId)) {
        // The time of the channel's (n+1)-th row older than the cutoff, if it has one.
        const olderRow = (n: number) =>
          this.db
            .selectFrom(table)
            .select('t')
            .where('device_id', '=', deviceId)
            .where('code', '=', code)
            .where('t', '<', cutoff)
            .orderBy('t')
            .limit(1)
            .offset(n)
            .executeTakeFirst();
        for (;;) {
          const bound = await olderRow(DELETE_BATCH - 1);
          // Nothing older than the cutoff (the common case): no DELETE, so no write lock that
          // SQLite's ingest writer thread would wait behind, once per channel and table.
          if (!bound && !(await olderRow(0))) break;
          const result = await this.db
            .deleteFrom(table)
            .where('device_id', '=', deviceId)
            .where('code', '=', code)
            .where('t', bound ? '<=' : '<', bound ? bound.t : cutoff)
            .executeTakeFirst();
          deleted += Number(result.numDeletedRows);
          if (!bound) break;
          // Let ingest's next batch in between two deletes.
          await new Promise((resolve) => setImmediate(resolve));
        }
      }
    }
    return deleted;
  }
}

/**
 * The blocks to delete for samples older than `cutoff`: those whose whole hour ended by then, so a
 * block's samples are kept at most an hour past their retention rather than deleted early.
 */
function blockCutoff(cutoff: number): number {
  return cutoff - HOUR_MS + 1;
}
