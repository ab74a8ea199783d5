import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { Storage } from '../db/database';

/** Arbitrary constant naming Fieldlink's start-up lock among PostgreSQL advisory locks. */
const STARTUP_LOCK_KEY = 748_215_001;

/**
 * Runs `work` while holding a PostgreSQL advisory lock, so instances of a cluster started together
 * seed the demo data once (the second finds it there). SQLite has one process: it just runs.
 */
export async function withStartupLock<T>(storage: Storage, work: (db: Kysely<Database>) => Promise<T>): Promise<T> {
  if (storage.dialect !== 'postgres') return work(storage.db);
  return storage.db.connection().execute(async (db) => {
    await sql`select pg_advisory_lock(${STARTUP_LOCK_KEY})`.execute(db);
    try {
      return await work(db);
    } finally {
      await sql`select pg_advisory_unlock(${STARTUP_LOCK_KEY})`.execute(db);
    }
  });
}
