import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { Dialect } from '../../db/database';
import type { LogRetention } from '../../config';
import type { JobLogger, JobQueue } from '../../jobs/job-queue';
import { channelsOf, deletePackedBefore, monthStartOf, packClosedMonths } from './rollup-packs';

/** The job kind that keeps the log's partitions and retention (one run per period, cluster-wide). */
export const LOG_MAINTENANCE_JOB = 'logs.maintain';

const DAY_MS = 86_400_000;
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

/** A monthly partition of `logs` on PostgreSQL: its table and its range of `t`, unix ms. */
export interface LogPartition {
  name: string;
  from: number;
  to: number;
}

/** What one maintenance run did. */
export interface MaintenanceSummary {
  created: string[];
  detached: string[];
  deleted: { logs: number; rollups: number };
  /** Roll-up buckets moved into packed periods. */
  packed: number;
}

/** `logs_p202611`: the partition of November 2026 (the name the migration gives it too). */
export function partitionNameOf(monthStart: number): string {
  const date = new Date(monthStart);
  return `logs_p${date.getUTCFullYear()}${String(date.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** The monthly partitions of `logs` (the default partition left out), oldest first. */
export async function logPartitions(db: Kysely<Database>): Promise<LogPartition[]> {
  const { rows } = await sql<{ name: string; bound: string }>`
    select c.relname as name, pg_get_expr(c.relpartbound, c.oid) as bound
    from pg_inherits i join pg_class c on c.oid = i.inhrelid
    where i.inhparent = 'logs'::regclass`.execute(db);
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
 * follow their own, longer retention, so long charts outlive the raw samples. Run as a job of the
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
          summary.deleted.rollups +
          summary.packed;
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
    const summary: MaintenanceSummary = { created: [], detached: [], deleted: { logs: 0, rollups: 0 }, packed: 0 };
    const plans = Object.entries(this.retention) as [keyof LogRetention, LogRetention[keyof LogRetention]][];
    // Data kept by some plan forever pins every partition.
    const longestRawDays = plans.some(([, kept]) => kept.rawDays === 0)
      ? 0
      : Math.max(...plans.map(([, kept]) => kept.rawDays));
    if (this.dialect === 'postgres') {
      summary.created = await this.createPartitionsAhead(now);
      if (longestRawDays > 0) {
        const cutoff = now - longestRawDays * DAY_MS;
        summary.detached = await this.detachExpiredPartitions(cutoff);
        summary.deleted.logs += await this.deleteStrayRows(cutoff);
      }
    }
    for (const [plan, kept] of plans) {
      const devices = await this.devicesOfPlan(plan);
      // On PostgreSQL the longest-kept plan's old rows go with their partitions (at most a month late).
      const byPartition = this.dialect === 'postgres' && kept.rawDays === longestRawDays;
      if (kept.rawDays > 0 && !byPartition) {
        summary.deleted.logs += await this.deleteOlder('logs', devices, now - kept.rawDays * DAY_MS);
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
    return summary;
  }

  /** Creates the missing monthly partitions from this month on, moving stray rows out of the default. */
  private async createPartitionsAhead(now: number): Promise<string[]> {
    const existing = new Set((await logPartitions(this.db)).map((partition) => partition.from));
    const created: string[] = [];
    for (let ahead = 0; ahead <= PARTITION_MONTHS_AHEAD; ahead += 1) {
      const from = monthStartOf(now, ahead);
      if (existing.has(from)) continue;
      const to = monthStartOf(now, ahead + 1);
      const name = partitionNameOf(from);
      await this.db.transaction().execute(async (trx) => {
        await sql`set local lock_timeout = ${sql.lit(DDL_LOCK_TIMEOUT)}`.execute(trx);
        // Rows of that month may sit in the default partition (the server was down for months, or a
        // device's clock ran ahead): they move into the new partition, which is attached afterwards.
        await sql`create table ${sql.table(name)} (like logs including defaults including constraints)`.execute(trx);
        await sql`with moved as (delete from logs_default where t >= ${from} and t < ${to} returning *)
          insert into ${sql.table(name)} select * from moved`.execute(trx);
        await sql`alter table logs attach partition ${sql.table(name)}
          for values from (${sql.lit(from)}) to (${sql.lit(to)})`.execute(trx);
      });
      created.push(name);
    }
    return created;
  }

  /** Detaches and drops the partitions whose whole month ended before `cutoff`. */
  private async detachExpiredPartitions(cutoff: number): Promise<string[]> {
    const detached: string[] = [];
    for (const partition of await logPartitions(this.db)) {
      if (partition.to > cutoff) break;
      await this.db.transaction().execute(async (trx) => {
        await sql`set local lock_timeout = ${sql.lit(DDL_LOCK_TIMEOUT)}`.execute(trx);
        await sql`alter table logs detach partition ${sql.table(partition.name)}`.execute(trx);
        await sql`drop table ${sql.table(partition.name)}`.execute(trx);
      });
      detached.push(partition.name);
    }
    return detached;
  }

  /** Deletes the default partition's rows older than `cutoff` (stamped by clocks that were never set). */
  private async deleteStrayRows(cutoff: number): Promise<number> {
    let deleted = 0;
    for (;;) {
      const { rows } = await sql<{ n: number }>`
        with gone as (
          delete from logs_default where ctid in (
            select ctid from logs_default where t < ${cutoff} limit ${DELETE_BATCH})
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
    table: 'logs' | 'logs_hourly' | 'logs_daily',
    deviceIds: readonly string[],
    cutoff: number,
  ): Promise<number> {
    let deleted = 0;
    for (const deviceId of deviceIds) {
      for (const code of await channelsOf(this.db, deviceId)) {
        for (;;) {
          const bound = await this.db
            .selectFrom(table)
            .select('t')
            .where('device_id', '=', deviceId)
            .where('code', '=', code)
            .where('t', '<', cutoff)
            .orderBy('t')
            .limit(1)
            .offset(DELETE_BATCH - 1)
            .executeTakeFirst();
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
