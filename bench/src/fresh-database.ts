import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freshPostgres, type FreshPostgres } from '@fieldlink/server/testing';

/** A database made for one benchmark run, and how to remove it. */
export interface FreshDatabase extends FreshPostgres {
  label: string;
}

/** An empty SQLite file in a temporary folder, or a new database on the PostgreSQL server. */
export async function freshDatabase(
  dialect: 'sqlite' | 'postgres',
  postgresUrl: string,
  prefix: string,
): Promise<FreshDatabase> {
  if (dialect === 'sqlite') {
    // A file on disk, not :memory:, so WAL writes and checkpoints cost what they cost in production.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `fieldlink-bench-${prefix}-`));
    return {
      url: path.join(dir, 'fieldlink.db'),
      label: `SQLite file in ${os.tmpdir()} (WAL, synchronous=NORMAL)`,
      drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  }
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  const version = (await admin.query<{ server_version: string }>('show server_version')).rows[0]?.server_version;
  await admin.end();
  const database = await freshPostgres('fieldlink_bench', postgresUrl);
  return {
    ...database,
    label: `PostgreSQL ${version ?? ''} on ${new URL(postgresUrl).host} (fresh database)`,
  };
}
