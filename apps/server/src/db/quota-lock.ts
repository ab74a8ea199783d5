import { sql, type Transaction } from 'kysely';
import { isSqlite } from './dialect';
import type { Database } from './schema';

/**
 * Serialises the transactions that count and then add to the same limited things (a user's, an
 * account's, a device's), so a count read inside `trx` stays true until it commits: of parallel
 * requests at a limit's edge, on any instances, only as many as fit go through. PostgreSQL takes a
 * transaction-scoped advisory lock per key, in sorted order so two transactions cannot wait on each
 * other; SQLite's transactions already hold the write lock from their start (`BEGIN IMMEDIATE`).
 */
export async function lockLimitedWork(trx: Transaction<Database>, keys: readonly string[]): Promise<void> {
  if (isSqlite(trx)) return;
  for (const key of [...new Set(keys)].sort()) {
    await sql`select pg_advisory_xact_lock(hashtextextended(${`fieldlink:limit:${key}`}, 0))`.execute(trx);
  }
}
