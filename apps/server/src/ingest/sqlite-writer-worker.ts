import fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { Kysely } from 'kysely';
import { InboxMover } from '../db/log-inbox';
import { LogMaintenance, type MaintenanceRequest, type WorkTurns } from '../features/devices/log-maintenance';
import type { Database } from '../db/schema';
import { openSqliteConnection, RetryingSqliteDialect } from '../db/sqlite-driver';
import { writeBatch } from './frame-writer';
import { fromSampleColumns, latestOfSamples } from './sample-columns';
import type { WriterAnswer, WriterInput, WriterRequest } from './sqlite-writer-thread';

/**
 * The SQLite writer thread: writes the frame writer's batches through a connection of its own to the
 * same file (sqlite-writer-thread.ts), one after another, by the same code as the main thread would.
 */

const { file, walRestartBytes, walCheckEveryMs } = workerData as WriterInput;
const sqlite = openSqliteConnection(file);
// This thread may wait for the lock (the main connection writing: a device's logs deleted with it,
// say), as long as frames waited behind such a transaction when one connection did everything;
// nothing else runs on it but the log maintenance job's slices, in turns between the batches. It tries
// again every millisecond: SQLite's own busy handler sleeps in steps of up to 100 ms, so behind the
// main connection's short transactions a batch slept far longer than the lock was held.
const db = new Kysely<Database>({
  dialect: new RetryingSqliteDialect(sqlite, { deadlineMs: 60_000, maxDelayMs: 1 }),
});
const port = parentPort!;
let queue: Promise<void> = Promise.resolve();
/** Batches and inbox moves queued or under way, and the maintenance slice waiting for there to be none. */
let busy = 0;
let onIdle: (() => void) | null = null;

/** Queues ingest's work (a batch, an inbox move): it goes before any maintenance slice that waits. */
function enqueue(task: () => Promise<void>): Promise<void> {
  busy += 1;
  queue = queue.then(task).finally(() => {
    busy -= 1;
    if (busy === 0) onIdle?.();
  });
  return queue;
}
// Samples are committed into the inbox and moved into `logs` between batches (db/log-inbox.ts).
const inbox = new InboxMover(db, {
  serialize: enqueue,
  onError: (error) => console.error('Moving the log inbox failed; it is tried again', error),
});
/**
 * Longest a maintenance slice waits for the queue to be empty; then it takes its turn behind what is
 * queued, so a writer never idle still lets the job go on, a slice a second.
 */
const IDLE_WAIT_MS = 1000;

/**
 * A turn of the queue for a slice of the log maintenance job: taken when no batch or move is queued
 * or under way (ingest goes first), or after {@link IDLE_WAIT_MS}; what is queued after it waits until
 * the slice releases it.
 */
const turns: WorkTurns = {
  take: async () => {
    if (busy > 0) {
      await new Promise<void>((resolve) => {
        const go = () => {
          clearTimeout(timer);
          onIdle = null;
          resolve();
        };
        const timer = setTimeout(go, IDLE_WAIT_MS);
        onIdle = go;
      });
    }
    return new Promise((granted) => {
      queue = queue.then(() => new Promise<void>((release) => granted(release)));
    });
  },
};
/** The log maintenance run under way in this thread (one at a time), and its end (answered). */
let maintenance: { job: LogMaintenance; ended: Promise<void> } | null = null;

function failure(id: number, error: unknown): WriterAnswer {
  const { message, code } = error as { message?: unknown; code?: unknown };
  return { type: 'failed', id, message: String(message ?? error), code: typeof code === 'string' ? code : null };
}

/** Runs the job here, slice by slice between the batches (features/devices/log-maintenance.ts). */
function maintain(id: number, { now, retention, share }: MaintenanceRequest): void {
  if (maintenance) {
    port.postMessage(failure(id, new Error('A log maintenance run is already under way in the writer thread')));
    return;
  }
  const job = new LogMaintenance(db, 'sqlite', retention, { now: () => now, workShare: share, turns });
  const ended = job
    .run()
    .then(
      (summary) => port.postMessage({ type: 'maintained', id, summary } satisfies WriterAnswer),
      (error: unknown) => port.postMessage(failure(id, error)),
    )
    .finally(() => (maintenance = null));
  maintenance = { job, ended };
}

/** When the WAL was last checkpointed here (performance.now()). */
let checkpointedAt = -Infinity;

/**
 * Lets the WAL start over once it has grown past `walRestartBytes`. The checkpointer thread's PASSIVE
 * checkpoints copy the WAL into the database without stopping anyone, but the WAL restarts from its
 * beginning only when a writer finds every frame already copied, which under a steady stream of
 * commits never happens: the file grew by about 4 KiB a sample without end. Checkpointed here,
 * between two batches, nothing is appended meanwhile, so this checkpoint copies everything (the few
 * frames since the checkpointer's last pass) and the next batch restarts the WAL, whose file is cut
 * back to `journal_size_limit`. The batch after it waits that long, once per so many bytes.
 */
function restartWalIfLarge(): void {
  if (performance.now() - checkpointedAt < walCheckEveryMs) return;
  let size: number;
  try {
    size = fs.statSync(`${file}-wal`).size;
  } catch {
    return;
  }
  if (size < walRestartBytes) return;
  checkpointedAt = performance.now();
  // Busy (the checkpointer thread is checkpointing): a later batch tries again.
  sqlite.pragma('wal_checkpoint(PASSIVE)');
}

async function close(): Promise<void> {
  await inbox.close();
  await db.destroy();
  port.postMessage({ type: 'closed' } satisfies WriterAnswer);
}

port.on('message', (request: WriterRequest) => {
  switch (request.type) {
    case 'maintain':
      return maintain(request.id, request.request);
    case 'stop-maintenance':
      return maintenance?.job.stop();
    case 'close': {
      // A run stops at its next pause (its turns are never queued after the close); then the close.
      maintenance?.job.stop();
      void (maintenance?.ended ?? Promise.resolve()).then(() => (queue = queue.then(close)));
      return;
    }
    case 'write':
      void enqueue(async () => {
        try {
          const { samples } = request;
          const logs = samples ? fromSampleColumns(samples) : request.writes.logs;
          const writes = { ...request.writes, logs };
          // The inbox stands for the samples' own latest values; they are worked out only where needed.
          const ofSamples = request.latestOfSamples ? () => latestOfSamples(logs, request.writes.latest) : undefined;
          const events = await writeBatch(db, writes, inbox, ofSamples);
          port.postMessage({ type: 'written', id: request.id, events } satisfies WriterAnswer);
          restartWalIfLarge();
        } catch (error) {
          port.postMessage(failure(request.id, error));
        }
      });
  }
});
