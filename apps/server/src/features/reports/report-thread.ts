import { Worker } from 'node:worker_threads';
import { DocumentError } from '../../documents/document-jobs';
import type { ReportOutput, ReportPlan } from './report-document';

/** What the report worker is started with. */
export interface ReportWorkerInput {
  /** The PostgreSQL URL: the worker reads through connections of its own. */
  databaseUrl: string;
}

/** What the report thread asks of its worker. */
export type ReportWorkerRequest = { type: 'write'; plan: ReportPlan } | { type: 'stored' };

/** What the worker answers: the document's chunks, its progress, and how it ended. */
export type ReportWorkerMessage =
  | { type: 'chunk'; bytes: Uint8Array }
  | { type: 'progress'; fraction: number }
  | { type: 'done' }
  | { type: 'failed'; message: string; forReader: boolean };

/**
 * The worker's heap is capped, so V8 collects garbage as it goes rather than letting the heap grow
 * first (in the main thread a 85 MiB CSV left 200 MiB of garbage behind). A report streams through
 * it a few channels at a time; a PDF's chart points wait in typed arrays, which lie outside this heap.
 */
const WORKER_HEAP_MB = 64;
const WORKER_YOUNG_GENERATION_MB = 16;

/** An idle worker ends after this long; the next report starts another. */
export const REPORT_WORKER_IDLE_MS = 60_000;

interface Writing {
  output: ReportOutput;
  /** null once the worker said it is done; an error once anything failed. */
  outcome: Error | null | undefined;
  /** Messages are handled one after another, in order: a chunk is stored before the next one. */
  handled: Promise<void>;
  settle: () => void;
}

/**
 * Writes reports' documents in a worker thread: the reading (through the worker's own database
 * connections), the aggregation and the CSV or PDF formatting all happen off the event loop, which
 * only stores the chunks the worker sends (one insert per 256 KiB) and reports progress. The worker
 * is started with the first report and kept while reports follow, so its start (loading the modules,
 * about a second) is paid once; it ends when idle for {@link REPORT_WORKER_IDLE_MS}. One report is
 * written at a time. A worker that fails (out of memory, say) fails its report and is replaced.
 */
export class ReportThread {
  private worker: Worker | null = null;
  private writing: Writing | null = null;
  private queue: Promise<void> = Promise.resolve();
  private idle: NodeJS.Timeout | null = null;

  constructor(
    private readonly databaseUrl: string,
    private readonly idleMs = REPORT_WORKER_IDLE_MS,
  ) {}

  /**
   * Writes one report. Resolves once every chunk is stored; rejects with the worker's
   * {@link DocumentError} (the reader's message) or with any other failure, as the in-thread writer would.
   */
  write(plan: ReportPlan, output: ReportOutput): Promise<void> {
    const written = this.queue.then(() => this.writeNow(plan, output));
    this.queue = written.catch(() => undefined);
    return written;
  }

  /**
   * Ends the worker (the app is closing). A report it is writing fails, even if the worker's last
   * messages, already sent, say it is done: its exit settles the report.
   */
  async close(): Promise<void> {
    if (this.idle) clearTimeout(this.idle);
    const worker = this.worker;
    this.worker = null;
    const writing = this.writing;
    if (worker && writing && writing.outcome === undefined) writing.outcome = new Error('The report worker stopped.');
    await worker?.terminate();
  }

  private writeNow(plan: ReportPlan, output: ReportOutput): Promise<void> {
    if (this.idle) clearTimeout(this.idle);
    const worker = this.worker ?? this.start();
    return new Promise<void>((resolve, reject) => {
      const writing: Writing = {
        output,
        outcome: undefined,
        handled: Promise.resolve(),
        settle: () => {
          void writing.handled.then(() => {
            this.writing = null;
            if (this.worker) this.idle = setTimeout(() => void this.close(), this.idleMs).unref();
            if (writing.outcome === null) resolve();
            else reject(writing.outcome ?? new Error('The report worker stopped.'));
          });
        },
      };
      this.writing = writing;
      worker.postMessage({ type: 'write', plan } satisfies ReportWorkerRequest);
    });
  }

  private start(): Worker {
    const input: ReportWorkerInput = { databaseUrl: this.databaseUrl };
    const worker = new Worker(new URL('./report-worker-boot.mjs', import.meta.url), {
      workerData: input,
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB, maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
    });
    // An idle worker does not keep the process alive.
    worker.unref();
    worker.on('message', (message: ReportWorkerMessage) => {
      const writing = this.writing;
      if (!writing) return;
      writing.handled = writing.handled
        .then(() => this.handle(worker, writing, message))
        .catch((error: unknown) => {
          writing.outcome = error instanceof Error ? error : new Error(String(error));
          void worker.terminate();
        });
    });
    worker.on('error', (error) => {
      if (this.writing) this.writing.outcome ??= error;
    });
    worker.on('exit', (code) => {
      if (this.worker === worker) this.worker = null;
      const writing = this.writing;
      if (!writing) return;
      // A report done before the exit stays done (its outcome null); one under way fails.
      if (writing.outcome === undefined)
        writing.outcome = new Error(`The report worker stopped with exit code ${code}.`);
      writing.settle();
    });
    this.worker = worker;
    return worker;
  }

  private async handle(worker: Worker, writing: Writing, message: ReportWorkerMessage): Promise<void> {
    if (writing.outcome !== undefined) return;
    if (message.type === 'chunk') {
      const { bytes } = message;
      await writing.output.file.write(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
      worker.postMessage({ type: 'stored' } satisfies ReportWorkerRequest);
    } else if (message.type === 'progress') {
      await writing.output.progress(message.fraction);
    } else {
      writing.outcome =
        message.type === 'done'
          ? null
          : message.forReader
            ? new DocumentError(message.message)
            : new Error(message.message);
      writing.settle();
    }
  }
}
