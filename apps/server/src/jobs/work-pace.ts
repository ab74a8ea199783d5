/**
 * A cost-based pace for background work beside latency-sensitive work (log maintenance beside
 * ingest), after PostgreSQL's `vacuum_cost_delay`: the work goes in short slices, and after each the
 * worker rests in proportion to the time the slice took, so it keeps at most a set share of the
 * time. The cost of a slice is its wall time, waits included (for SQLite's write lock, a busy
 * PostgreSQL, the event loop): the harder the machine is pressed, the longer the same slice takes and
 * the longer the rest after it, so the pace yields more exactly when ingest needs it
 * (docs/decisions.md, "Maintenance beside ingest").
 */

/** Rests shorter than this are owed rather than taken (a timer costs about a millisecond anyway). */
export const MIN_REST_MS = 4;

/**
 * The rest owed for `workMs` of work so that work is `share` of the time: work / (work + rest) =
 * share. A share of 1 (or more) never rests; a share must be positive.
 */
export function restFor(workMs: number, share: number): number {
  if (!(share > 0)) throw new Error(`A work share must be positive, not ${share}`);
  if (share >= 1 || workMs <= 0) return 0;
  return (workMs * (1 - share)) / share;
}

/** What a paced run did: its slices, the time they took and the time it rested. */
export interface PaceStats {
  slices: number;
  workMs: number;
  restMs: number;
  longestSliceMs: number;
}

/** Ended by {@link WorkPace.stop}: the worker stops at its next pause, between two slices. */
export class PaceStopped extends Error {
  constructor() {
    super('Stopped');
  }
}

export interface WorkPaceOptions {
  clock?: () => number;
  /** Waits `ms` or until `wake` is called, whichever comes first. */
  sleep?: (ms: number, wake: (resume: () => void) => void) => Promise<void>;
}

const defaultSleep = (ms: number, wake: (resume: () => void) => void) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    wake(() => {
      clearTimeout(timer);
      resolve();
    });
  });

/**
 * One paced run. The worker calls {@link pause} between two slices (never inside a transaction): the
 * time since the last pause is the slice's work; the rest it owes is taken once it reaches
 * {@link MIN_REST_MS} (smaller debts add up; a pause always yields a turn of the event loop). A rest
 * longer than owed (a late timer) is not credited, so the share is an upper bound.
 */
export class WorkPace {
  private readonly clock: () => number;
  private readonly sleep: NonNullable<WorkPaceOptions['sleep']>;
  private sliceStart: number;
  private owed = 0;
  private stopped = false;
  private wakeRest: (() => void) | null = null;
  readonly stats: PaceStats = { slices: 0, workMs: 0, restMs: 0, longestSliceMs: 0 };

  constructor(
    readonly share: number,
    options: WorkPaceOptions = {},
  ) {
    restFor(0, share); // refuses a share that is not positive
    this.clock = options.clock ?? (() => performance.now());
    this.sleep = options.sleep ?? defaultSleep;
    this.sliceStart = this.clock();
  }

  /**
   * Ends the slice running: rests what it owes, then starts the next, after `before` if given (a wait
   * for a turn of a shared queue, say: counted neither as work nor as rest). Throws once stopped.
   */
  async pause(before?: () => Promise<void>): Promise<void> {
    if (this.stopped) throw new PaceStopped();
    const ended = this.clock();
    const work = ended - this.sliceStart;
    this.stats.slices += 1;
    this.stats.workMs += work;
    this.stats.longestSliceMs = Math.max(this.stats.longestSliceMs, work);
    this.owed += restFor(work, this.share);
    if (this.owed >= MIN_REST_MS) {
      await this.sleep(this.owed, (resume) => (this.wakeRest = resume));
      this.wakeRest = null;
      const rested = this.clock() - ended;
      this.stats.restMs += rested;
      this.owed = Math.max(0, this.owed - rested);
    } else {
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (this.stopped) throw new PaceStopped();
    await before?.();
    if (this.stopped) throw new PaceStopped();
    this.sliceStart = this.clock();
  }

  /** Makes the worker stop at its next pause (a rest under way ends now). */
  stop(): void {
    this.stopped = true;
    this.wakeRest?.();
  }
}
