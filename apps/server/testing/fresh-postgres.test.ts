import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { freshPostgres } from './fresh-postgres';
import { TEST_POSTGRES_URL } from './test-app';

async function databaseExists(name: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await client.connect();
  try {
    return (await client.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1;
  } finally {
    await client.end();
  }
}

describe('a fresh PostgreSQL database', () => {
  it('is new and empty, and drop() removes it even while a session still holds it', async () => {
    const database = await freshPostgres('fieldlink_fresh', TEST_POSTGRES_URL);
    const name = new URL(database.url).pathname.slice(1);
    expect(name).toMatch(/^fieldlink_fresh_[0-9a-f]{12}$/);
    const session = new pg.Client({ connectionString: database.url });
    session.on('error', () => undefined); // the drop ends this session
    await session.connect();
    const tables = await session.query("select count(*)::int as n from pg_tables where schemaname = 'public'");
    expect(tables.rows[0]).toEqual({ n: 0 });
    await database.drop();
    expect(await databaseExists(name)).toBe(false);
    await session.end().catch(() => undefined);
  });
});
