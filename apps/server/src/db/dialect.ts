import { SqliteAdapter, type Kysely } from 'kysely';
import type { Database } from './schema';

/** Whether `db` (or a transaction of it) speaks SQLite; otherwise it is PostgreSQL. */
export function isSqlite(db: Kysely<Database>): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter;
}
