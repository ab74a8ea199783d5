import { openStorage, type Dialect, type Storage } from '../src/db/database';
import { freshPostgres, type TestDatabase } from './cluster/cluster-apps';

/**
 * Empty databases of one dialect for storage tests, one per `open` (a PostgreSQL database of its own,
 * or SQLite in memory), not migrated; `close` ends the open one and drops its PostgreSQL database.
 */
export function testStorages(dialect: Dialect) {
  let database: TestDatabase | null = null;
  let storage: Storage | null = null;
  return {
    async open(): Promise<Storage> {
      if (dialect === 'postgres') {
        database = await freshPostgres();
        storage = openStorage(database.url);
      } else storage = openStorage(':memory:');
      return storage;
    },
    async close(): Promise<void> {
      await storage?.close();
      await database?.drop();
      storage = null;
      database = null;
    },
  };
}
