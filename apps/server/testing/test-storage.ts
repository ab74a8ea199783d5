import { inject } from 'vitest';
import { migrate, openStorage, type Dialect, type Storage } from '../src/db/database';
import { freshPostgres, type TestDatabase } from './cluster/cluster-apps';
import { freshPostgres as copyPostgres } from './fresh-postgres';
import { TEST_POSTGRES_URL } from './test-postgres';

/**
 * Empty databases of one dialect for storage tests, one per `open` (a PostgreSQL database of its own,
 * or SQLite in memory), not migrated, or migrated by `openMigrated`; `close` ends the open one and
 * drops its PostgreSQL database.
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
    /**
     * A database at the newest schema: on PostgreSQL a copy of the run's migrated template
     * (postgres-template.ts) when there is one, which the tests migrated from empty each time before.
     */
    async openMigrated(): Promise<Storage> {
      const template = dialect === 'postgres' ? inject('postgresTemplate') : null;
      if (template) {
        database = await copyPostgres('fieldlink_test', TEST_POSTGRES_URL, template);
        storage = openStorage(database.url);
      } else await this.open();
      await migrate(storage!.db);
      return storage!;
    },
    async close(): Promise<void> {
      await storage?.close();
      await database?.drop();
      storage = null;
      database = null;
    },
  };
}
