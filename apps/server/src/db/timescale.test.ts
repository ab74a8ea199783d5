import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { migrate, openStorage, type Storage } from './database';
import { freshPostgres, type TestDatabase } from '../cluster/testing/cluster-apps';

describe('the TimescaleDB migration where the extension is not available', () => {
  let database: TestDatabase;
  let storage: Storage;

  beforeAll(async () => {
    database = await freshPostgres();
    storage = openStorage(database.url);
    await migrate(storage.db);
  });
  afterAll(async () => {
    await storage?.close();
    await database?.drop();
  });

  it('leaves logs a plain table that stores and reads samples', async () => {
    const available = await sql`select 1 from pg_available_extensions where name = 'timescaledb'`.execute(storage.db);
    // This machine has no TimescaleDB package: the no-op path is what runs here.
    expect(available.rows).toHaveLength(0);
    const applied = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(storage.db);
    expect(applied.rows.map((row) => row.name)).toContain('2026-11-26T0100-timescale');
    const kind = await sql<{ relkind: string }>`select relkind from pg_class where relname = 'logs'`.execute(
      storage.db,
    );
    expect(kind.rows).toEqual([{ relkind: 'r' }]);
    const extensions = await sql`select 1 from pg_extension where extname = 'timescaledb'`.execute(storage.db);
    expect(extensions.rows).toHaveLength(0);
  });

  it('migrates SQLite through the same step', async () => {
    const sqlite = openStorage(':memory:');
    try {
      await migrate(sqlite.db);
      const tables = await sql<{ name: string }>`select name from sqlite_master where name = 'logs'`.execute(sqlite.db);
      expect(tables.rows).toHaveLength(1);
    } finally {
      await sqlite.close();
    }
  });
});
