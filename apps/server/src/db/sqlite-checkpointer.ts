import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * Checkpoints a SQLite database's WAL from a thread of its own (its own connection), so the
 * connection that writes never does: with SQLite's automatic checkpoint, the commit that crosses the
 * threshold copies the whole WAL into the database and syncs it, holding ingest's event loop for
 * that long. A PASSIVE checkpoint never blocks the writer or readers; once one has copied everything,
 * the next transaction starts the WAL over from its beginning, so the WAL stays small.
 */

const CHECKPOINT_EVERY_MS = 1000;

// Plain CommonJS run by the worker (no TypeScript loader there); better-sqlite3 is passed by path.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // Busy (another process's checkpoint): the next turn tries again.
  }
}, workerData.everyMs);
parentPort.once('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.postMessage('closed');
});
`;

export interface Checkpointer {
  /** Ends the thread after closing its connection. */
  stop(): Promise<void>;
}

export function startCheckpointer(file: string): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file, driver, everyMs: CHECKPOINT_EVERY_MS } });
  // The thread never keeps the process alive, and its failure is not the server's: without it the
  // WAL is checkpointed when the last connection closes.
  worker.unref();
  worker.on('error', () => undefined);
  return {
    async stop() {
      const closed = new Promise<void>((resolve) => {
        worker.once('message', () => resolve());
        worker.once('exit', () => resolve());
      });
      worker.postMessage('stop');
      await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 2000))]);
      await worker.terminate();
    },
  };
}
