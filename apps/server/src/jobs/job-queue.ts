import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema';
import type { Dialect } from '../db/database';
import { withClusterTables, type ClusterDatabase, type JobsTable } from '../cluster/cluster-tables';
import { newId } from '../security/secrets';

export interface JobLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

/** Runs one job; throwing schedules a retry until the job's attempts are used up. */
export type JobHandler = (payload: unknown, job: { id: string; attempt: number }) => Promise<void>;

export interface JobQueueOptions {
  /** How often due jobs are looked for when nothing nudges the queue. */
  pollMs?: number;
  /** A claimed job not finished by then is free for another instance (its holder died). */
  lockMs?: number;
  /** How often a running job's lease is renewed (real time); a third of `lockMs` unless given. */
  renewMs?: number;
  /** Jobs run at once: the slots of a started queue, and what `runDue` claims at a time. */
  batch?: number;
  now?: () => number;
}

export interface EnqueueOptions {
  runAt?: number;
  maxAttempts?: number;
  /**
   * The job's id, for a job that must exist once however many instances ask for it (a periodic job's
   * run for one period); a job with this id already waiting is kept and nothing is added.
   */
  key?: string;
}

/** Wait before attempt n + 1: 5 s, 10 s, 20 s … up to an hour. */
export function retryDelayMs(attempt: number): number {
  return Math.min(5000 * 2 ** Math.max(0, attempt - 1), 3_600_000);
}

/** A periodic job's first run comes this soon after start at most. */
const FIRST_PERIODIC_RUN_AFTER_MS = 60_000;

/**
 * Background jobs in the `jobs` table, run by every instance. On PostgreSQL a due job is claimed with
 * `FOR UPDATE SKIP LOCKED` inside one UPDATE, so each job goes to exactly one instance and claimers
 * never wait on each other; on SQLite (one process) the same UPDATE is atomic on its own. A claim is
 * a lease: a job whose holder died is claimed again when the lease ends, and the holder renews it
 * while the job runs, so a job longer than the lease (a large report, log maintenance over a big
 * backlog) is never run a second time beside itself. A job that succeeds is deleted; one that fails is
 * retried with back-off, then kept as `failed` with its last error.
 *
 * A started queue runs up to `batch` jobs at once in slots (as graphile-worker, pg-boss and BullMQ):
 * a job that ends frees its slot, which claims the next due job at once, so one slow job (a webhook
 * to a slow endpoint, an OTA step) never holds back the invitation mail queued after it. A nudge
 * claims into the free slots at once; the poll timer looks for due jobs every `pollMs`.
 */
export class JobQueue {
  private readonly db: ClusterDatabase;
  private readonly handlers = new Map<string, { run: JobHandler; maxAttempts: number }>();
  private timer: NodeJS.Timeout | null = null;
  /** The jobs running here, one a slot. */
  private readonly inFlight = new Set<Promise<void>>();
  /** The claim under way: one at a time, so two claims never fill the same free slots. */
  private claiming: Promise<void> | null = null;
  /** A slot freed or a job was added while claiming: claim again once that claim is in. */
  private again = false;
  /** Not polling: before start and after stop. */
  private stopped = true;
  private stopping = false;
  private lastFailureLog = 0;
  private readonly pollMs: number;
  private readonly lockMs: number;
  private readonly renewMs: number;
  private readonly batch: number;
  private readonly now: () => number;
  readonly counters = { succeeded: 0, retried: 0, failed: 0 };

  constructor(
    db: Kysely<Database>,
    private readonly dialect: Dialect,
    private readonly instanceId: string,
    private readonly logger: JobLogger,
    options: JobQueueOptions = {},
  ) {
    this.db = withClusterTables(db);
    this.pollMs = options.pollMs ?? 1000;
    this.lockMs = options.lockMs ?? 60_000;
    this.renewMs = options.renewMs ?? this.lockMs / 3;
    this.batch = options.batch ?? 10;
    this.now = options.now ?? Date.now;
  }

  /** Declares a kind of job and what runs it. */
  register(kind: string, run: JobHandler, { maxAttempts = 8 } = {}): void {
    this.handlers.set(kind, { run, maxAttempts });
  }

  /** Adds a job, inside the caller's transaction when given, so it exists exactly when the caller's rows do. */
  async enqueue(
    kind: string,
    payload: unknown,
    options: EnqueueOptions = {},
    trx?: Transaction<Database>,
  ): Promise<string> {
    const handler = this.handlers.get(kind);
    if (!handler) throw new Error(`No job kind "${kind}"`);
    const id = options.key ?? newId();
    const target = trx ? withClusterTables(trx) : this.db;
    await target
      .insertInto('jobs')
      .values({
        id,
        kind,
        payload: JSON.stringify(payload),
        state: 'queued',
        run_at: options.runAt ?? this.now(),
        attempts: 0,
        max_attempts: options.maxAttempts ?? handler.maxAttempts,
        locked_by: null,
        locked_until: null,
        last_error: null,
        created_at: this.now(),
      })
      .$if(options.key !== undefined, (query) => query.onConflict((oc) => oc.column('id').doNothing()))
      .execute();
    return id;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.timer = setInterval(() => this.fill(), this.pollMs);
    this.timer.unref();
    this.fill();
  }

  /** Stops claiming; waits for the jobs in hand, those of a claim under way too (they are leased here). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.claiming;
    await Promise.all(this.inFlight);
  }

  /** Queues this period's run of `kind`: keyed by the period, so one job exists however many instances ask. */
  async enqueuePeriod(kind: string, everyMs: number): Promise<void> {
    const period = Math.floor(this.now() / everyMs);
    await this.enqueue(kind, {}, { key: `${kind}:${period}` });
    this.nudge();
  }

  /**
   * Queues `kind` once a period of `everyMinutes` (the first a minute after start at most) until the
   * answered function is called; 0 queues nothing here (other instances queue it; it still runs here).
   */
  enqueueEvery(kind: string, everyMinutes: number): () => void {
    if (everyMinutes <= 0) return () => undefined;
    const everyMs = everyMinutes * 60_000;
    let timer: NodeJS.Timeout;
    const queue = () => {
      void this.enqueuePeriod(kind, everyMs).catch((error: unknown) =>
        this.logger.warn({ err: error, kind }, 'Periodic job not queued'),
      );
      timer = setTimeout(queue, everyMs);
      timer.unref();
    };
    timer = setTimeout(queue, Math.min(FIRST_PERIODIC_RUN_AFTER_MS, everyMs));
    timer.unref();
    return () => clearTimeout(timer);
  }

  /** Looks for due jobs now (a job was just added). */
  nudge(): void {
    this.fill();
  }

  /** Claims up to `limit` due jobs for this instance. */
  async claim(limit = this.batch): Promise<JobsTable[]> {
    const now = this.now();
    const postgres = this.dialect === 'postgres';
    return this.db
      .updateTable('jobs')
      .set((eb) => ({
        locked_by: this.instanceId,
        locked_until: now + this.lockMs,
        attempts: eb('attempts', '+', 1),
      }))
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('jobs')
          .select('id')
          .where('state', '=', 'queued')
          .where('run_at', '<=', now)
          .where((w) => w.or([w('locked_until', 'is', null), w('locked_until', '<', now)]))
          .orderBy('run_at')
          .limit(limit)
          .$if(postgres, (query) => query.forUpdate().skipLocked()),
      )
      .returningAll()
      .execute();
  }

  /**
   * Claims and runs due jobs, `batch` at a time, until none is left; answers how many ran. For tests
   * and callers that want everything due done now; a started queue runs its jobs in slots without it.
   */
  async runDue(): Promise<number> {
    let total = 0;
    for (;;) {
      const jobs = await this.claim();
      if (jobs.length === 0) return total;
      total += jobs.length;
      await Promise.all(jobs.map((job) => this.run(job)));
      if (this.stopping) return total;
    }
  }

  /** Counts of queued and failed jobs (metrics). */
  async depth(): Promise<{ queued: number; failed: number }> {
    const rows = await this.db
      .selectFrom('jobs')
      .select(['state', (eb) => eb.fn.countAll<number | string>().as('n')])
      .groupBy('state')
      .execute();
    const count = (state: string) => Number(rows.find((row) => row.state === state)?.n ?? 0);
    return { queued: count('queued'), failed: count('failed') };
  }

  private async execute(job: JobsTable): Promise<void> {
    const handler = this.handlers.get(job.kind);
    const renewal = setInterval(() => void this.renewLease(job.id), this.renewMs);
    renewal.unref();
    try {
      if (!handler) throw new Error(`No job kind "${job.kind}"`);
      await handler.run(JSON.parse(job.payload) as unknown, { id: job.id, attempt: job.attempts });
      await this.db.deleteFrom('jobs').where('id', '=', job.id).where('locked_by', '=', this.instanceId).execute();
      this.counters.succeeded += 1;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const final = job.attempts >= job.max_attempts;
      await this.db
        .updateTable('jobs')
        .set({
          state: final ? 'failed' : 'queued',
          run_at: final ? job.run_at : this.now() + retryDelayMs(job.attempts),
          locked_by: null,
          locked_until: null,
          last_error: message.slice(0, 1000),
        })
        .where('id', '=', job.id)
        .where('locked_by', '=', this.instanceId)
        .execute()
        .catch(() => undefined); // database away: the lease runs out and the job is claimed again
      if (final) this.counters.failed += 1;
      else this.counters.retried += 1;
      this.logger.warn({ job: job.id, kind: job.kind, attempt: job.attempts, final, error: message }, 'Job failed');
    } finally {
      clearInterval(renewal);
    }
  }

  /** Moves a running job's lease on, while this instance still holds it. */
  private async renewLease(id: string): Promise<void> {
    await this.db
      .updateTable('jobs')
      .set({ locked_until: this.now() + this.lockMs })
      .where('id', '=', id)
      .where('locked_by', '=', this.instanceId)
      .execute()
      .catch(() => undefined); // database away: the lease runs out and the job may be claimed again
  }

  /** Claims due jobs into the free slots and starts them. */
  private fill(): void {
    if (this.stopped) return;
    if (this.claiming) {
      this.again = true;
      return;
    }
    const free = this.batch - this.inFlight.size;
    if (free <= 0) return;
    this.claiming = this.claim(free)
      .then(
        (jobs) => {
          for (const job of jobs) void this.run(job);
        },
        (error: unknown) => {
          // The database is away: say so once a minute, keep polling.
          if (this.now() - this.lastFailureLog > 60_000) {
            this.lastFailureLog = this.now();
            this.logger.warn({ error: (error as Error).message }, 'Jobs not claimed');
          }
        },
      )
      .finally(() => {
        this.claiming = null;
        if (this.again) {
          this.again = false;
          this.fill();
        }
      });
  }

  /** Runs a claimed job in a slot; when it ends, the slot claims the next due job. */
  private run(job: JobsTable): Promise<void> {
    const running = this.execute(job).finally(() => {
      this.inFlight.delete(running);
      this.fill();
    });
    this.inFlight.add(running);
    return running;
  }
}
