import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** A database made for one benchmark run, and how to remove it. */
export interface FreshDatabase {
  url: string;
  label: string;
  drop(): Promise<void>;
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
  const name = `fieldlink_bench_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  const version = (await admin.query<{ server_version: string }>('show server_version')).rows[0]?.server_version;
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    label: `PostgreSQL ${version ?? ''} on ${url.host} (fresh database)`,
    drop: async () => {
      const client = new pg.Client({ connectionString: postgresUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}
