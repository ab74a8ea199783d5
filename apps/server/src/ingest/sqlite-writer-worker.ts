import { parentPort, workerData } from 'node:worker_threads';
import { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { openSqliteConnection, RetryingSqliteDialect } from '../db/sqlite-driver';
import { writeBatch } from './frame-writer';
import type { WriterAnswer, WriterInput, WriterRequest } from './sqlite-writer-thread';

/**
 * The SQLite writer thread: writes the frame writer's batches through a connection of its own to the
 * same file (sqlite-writer-thread.ts), one after another, by the same code as the main thread would.
 */

const { file } = workerData as WriterInput;
const sqlite = openSqliteConnection(file);
// This thread may wait for the lock (the main connection writing): nothing else runs on it.
sqlite.pragma('busy_timeout = 5000');
const db = new Kysely<Database>({ dialect: new RetryingSqliteDialect(sqlite) });
const port = parentPort!;
let queue: Promise<void> = Promise.resolve();

port.on('message', (request: WriterRequest) => {
  queue = queue.then(async () => {
    if (request.type === 'close') {
      await db.destroy();
      port.postMessage({ type: 'closed' } satisfies WriterAnswer);
      return;
    }
    try {
      const events = await writeBatch(db, request.writes);
      port.postMessage({ type: 'written', id: request.id, events } satisfies WriterAnswer);
    } catch (error) {
      const { message, code } = error as { message?: unknown; code?: unknown };
      port.postMessage({
        type: 'failed',
        id: request.id,
        message: String(message ?? error),
        code: typeof code === 'string' ? code : null,
      } satisfies WriterAnswer);
    }
  });
});
