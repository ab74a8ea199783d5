import type { Transaction } from 'kysely';
import type { Database } from '../db/schema';
import type { JobQueue } from '../jobs/job-queue';
import type { FileStore, FileWriter, StoredFile } from './file-store';

/**
 * A failure the person asking should read (no data in the period, a device gone): the document is
 * given up at once, with this message, rather than retried.
 */
export class DocumentError extends Error {}

/** Attempts at a document that fails for another reason (database away) before it is given up. */
export const DOCUMENT_MAX_ATTEMPTS = 3;

/** Least time between two progress reports of one document. */
export const PROGRESS_INTERVAL_MS = 1000;

/** What a producer is told to write: its file, and a way to say how far it is. */
export interface DocumentOutput {
  file: FileWriter;
  /** How far the document is, 0 to 1; reported at most once a second. */
  progress(fraction: number): Promise<void>;
}

/** One kind of document: how to write it and what to do when it is done or has failed. */
export interface DocumentKind<P> {
  /** The file's name and content type for this payload. */
  describe(payload: P): Promise<{ name: string; contentType: string }>;
  /** Writes the document. Throw a {@link DocumentError} for a failure the reader should see. */
  produce(payload: P, output: DocumentOutput): Promise<void>;
  /** Progress in whole percent (0 to 100), throttled. */
  onProgress(payload: P, percent: number): Promise<void>;
  /** The file is complete and stored. */
  onReady(payload: P, file: StoredFile): Promise<void>;
  /** Generation failed for good; `message` is for the reader. */
  onError(payload: P, message: string): Promise<void>;
}

/** The message a reader sees for a failure that is not a {@link DocumentError}. */
export const DOCUMENT_FAILED_MESSAGE = 'The document could not be generated. Please try again.';

/**
 * Generated documents as jobs in the jobs table (jobs/job-queue.ts), so any instance of a cluster
 * may write one and a document whose instance died is written again by another. A kind is
 * registered once at start; `enqueue` (inside the caller's transaction, so the job exists exactly
 * when the caller's row does) starts one. The producer streams into a {@link FileWriter}, so memory
 * stays bounded; a failed attempt's partial file is removed.
 *
 * docs/decisions.md ("Reports and schedules": the document runner) shows how a feature uses it.
 */
export class DocumentJobs {
  constructor(
    private readonly jobs: JobQueue,
    private readonly files: FileStore,
    private readonly now: () => number = Date.now,
  ) {}

  /** Declares a kind of document under a job kind name (e.g. `reports.generate`). */
  register<P>(jobKind: string, kind: DocumentKind<P>): void {
    this.jobs.register(jobKind, (payload, job) => this.run(kind, payload as P, job.attempt), {
      maxAttempts: DOCUMENT_MAX_ATTEMPTS,
    });
  }

  /** Queues one document; pass the caller's transaction so the job is written with its rows. */
  async enqueue(jobKind: string, payload: unknown, trx?: Transaction<Database>): Promise<string> {
    return this.jobs.enqueue(jobKind, payload, {}, trx);
  }

  /** Looks for due jobs now (call after the enqueuing transaction committed). */
  nudge(): void {
    this.jobs.nudge();
  }

  private async run<P>(kind: DocumentKind<P>, payload: P, attempt: number): Promise<void> {
    const { name, contentType } = await kind.describe(payload);
    const file = await this.files.create(name, contentType);
    let lastReport = 0;
    let lastPercent = -1;
    const output: DocumentOutput = {
      file,
      progress: async (fraction) => {
        const percent = Math.max(0, Math.min(100, Math.floor(fraction * 100)));
        const now = this.now();
        if (percent === lastPercent || now - lastReport < PROGRESS_INTERVAL_MS) return;
        lastReport = now;
        lastPercent = percent;
        await kind.onProgress(payload, percent);
      },
    };
    try {
      await kind.produce(payload, output);
      const stored = await file.finish();
      await kind.onReady(payload, stored);
    } catch (error) {
      await file.abort().catch(() => undefined);
      const final = error instanceof DocumentError || attempt >= DOCUMENT_MAX_ATTEMPTS;
      if (!final) throw error;
      await kind.onError(payload, error instanceof DocumentError ? error.message : DOCUMENT_FAILED_MESSAGE);
    }
  }
}
