import { Worker } from 'node:worker_threads';
import type { DeviceEvent } from '../events';
import type { BatchWrites } from './frame-writer';
import type { MaintenanceRequest, MaintenanceRunner, MaintenanceSummary } from '../features/devices/log-maintenance';
import { toSampleColumns, type SampleColumns } from './sample-columns';

/** What the writer thread is started with. */
export interface WriterInput {
  /** The SQLite file (an in-memory database has no second connection). */
  file: string;
  /** The size of the WAL file past which the thread lets it start over (sqlite-writer-worker.ts)... */
  walRestartBytes: number;
  /** ...looking at most this often, in ms. */
  walCheckEveryMs: number;
}

/**
 * Past this size the WAL is checkpointed by the writer thread between two batches, so it starts over:
 * under a steady stream of commits it otherwise grows without end. Each time, the next batch waits for
 * that checkpoint (the frames since the checkpointer thread's last pass and a sync of the database
 * file). The size is `journal_size_limit`, so the file is never cut back (cutting a 1 GiB WAL back
 * held the batch after it 300 ms); under a steady stream it stays at that size, so this checkpoints
 * about every `WAL_CHECK_EVERY_MS` (measured at 50,000 dp/s: 21 ms median, 30 ms at most).
 */
const WAL_RESTART_BYTES = 64 * 2 ** 20;
const WAL_CHECK_EVERY_MS = 200;

export type WriterRequest =
  /**
   * A batch; its samples travel as `samples` (columns, their buffers handed over), `writes.logs` then
   * empty. With `latestOfSamples`, `writes.latest` holds only the latest values that have an extra:
   * the thread works the others out from the samples (`latestOfSamples`).
   */
  | { type: 'write'; id: number; writes: BatchWrites; samples: SampleColumns | null; latestOfSamples: boolean }
  | { type: 'maintain'; id: number; request: MaintenanceRequest }
  | { type: 'stop-maintenance' }
  | { type: 'close' };

export type WriterAnswer =
  | { type: 'written'; id: number; events: DeviceEvent[] }
  | { type: 'maintained'; id: number; summary: MaintenanceSummary }
  | { type: 'failed'; id: number; message: string; code: string | null }
  | { type: 'closed' };

type Answered = Extract<WriterAnswer, { type: 'written' | 'maintained' }>;

interface Waiting {
  resolve: (answer: Answered) => void;
  reject: (error: Error) => void;
}

/**
 * Writes the frame writer's batches to a SQLite file from a thread of its own, through a second
 * connection, so the event loop parses frames (MQTT, JSON, validation) on one core while the batch
 * before them is written on the other: in the main thread each commit held every frame waiting
 * behind it (docs/decisions.md, "Ingest at higher steady loads"). The main connection still serves
 * every other read and write; SQLite lets one connection write at a time, and each waits for the
 * other's lock (this one blocking its own thread, the main one retrying asynchronously).
 *
 * The log maintenance job's runs go there too ({@link MaintenanceRunner}): each slice of a run takes a
 * turn of the thread's queue, so a batch waits behind at most one slice, never for the write lock,
 * and the main thread, parsing frames, does none of the job's work.
 *
 * The thread starts at once (loading its modules takes about a second) and is replaced if it fails;
 * a batch it was writing then fails, and its frames are refused, so devices send them again.
 */
export class SqliteWriterThread implements MaintenanceRunner {
  private worker: Worker | null = null;
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 1;

  constructor(
    private readonly file: string,
    private readonly wal: Pick<WriterInput, 'walRestartBytes' | 'walCheckEveryMs'> = {
      walRestartBytes: WAL_RESTART_BYTES,
      walCheckEveryMs: WAL_CHECK_EVERY_MS,
    },
  ) {
    this.worker = this.start();
  }

  /** Writes one batch in a transaction of the thread's connection; answers its connection events. */
  async write(writes: BatchWrites): Promise<DeviceEvent[]> {
    const samples = toSampleColumns(writes.logs);
    // Latest values that are the samples' own go as their extras only: structured-cloning an object
    // per channel cost both threads more than the samples (docs/decisions.md, "Issue 41 items 1-3").
    const ofSamples = writes.latestOfSamples === true;
    const latest = ofSamples ? writes.latest.filter((row) => row.extra !== null) : writes.latest;
    const request = (id: number): WriterRequest =>
      samples
        ? {
            type: 'write',
            id,
            writes: { ...writes, logs: [], latest },
            samples: samples.columns,
            latestOfSamples: ofSamples,
          }
        : { type: 'write', id, writes: { ...writes, latest }, samples: null, latestOfSamples: ofSamples };
    return (await this.ask('written', request, samples?.transfer)).events;
  }

  /** Runs the log maintenance job in the thread, its slices between the batches. */
  async maintain(request: MaintenanceRequest): Promise<MaintenanceSummary> {
    return (await this.ask('maintained', (id) => ({ type: 'maintain', id, request }))).summary;
  }

  stopMaintenance(): void {
    this.worker?.postMessage({ type: 'stop-maintenance' } satisfies WriterRequest);
  }

  private async ask<T extends Answered['type']>(
    expected: T,
    request: (id: number) => WriterRequest,
    transfer: ArrayBuffer[] = [],
  ): Promise<Extract<Answered, { type: T }>> {
    const worker = this.worker ?? (this.worker = this.start());
    const id = this.nextId++;
    const answer = await new Promise<Answered>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.postMessage(request(id), transfer);
    });
    if (answer.type !== expected) throw new Error(`The writer thread answered ${answer.type}, not ${expected}`);
    return answer as Extract<Answered, { type: T }>;
  }

  /** Closes the thread's connection and ends it, once the batches handed to it are written. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (!worker) return;
    const closed = new Promise<void>((resolve) => {
      worker.on('message', (answer: WriterAnswer) => answer.type === 'closed' && resolve());
      worker.once('exit', () => resolve());
    });
    worker.postMessage({ type: 'close' } satisfies WriterRequest);
    await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    await worker.terminate();
  }

  private start(): Worker {
    const worker = new Worker(new URL('./sqlite-writer-boot.mjs', import.meta.url), {
      workerData: { file: this.file, ...this.wal } satisfies WriterInput,
    });
    // The thread never keeps the process alive by itself.
    worker.unref();
    worker.on('message', (answer: WriterAnswer) => {
      if (answer.type === 'closed') return;
      const waiting = this.waiting.get(answer.id);
      this.waiting.delete(answer.id);
      if (answer.type !== 'failed') waiting?.resolve(answer);
      else waiting?.reject(Object.assign(new Error(answer.message), answer.code ? { code: answer.code } : {}));
    });
    const failed = (error: Error) => {
      if (this.worker === worker) this.worker = null;
      for (const waiting of this.waiting.values()) waiting.reject(error);
      this.waiting.clear();
    };
    worker.on('error', failed);
    worker.on('exit', (code) => failed(new Error(`The SQLite writer thread ended (exit code ${code})`)));
    return worker;
  }
}
