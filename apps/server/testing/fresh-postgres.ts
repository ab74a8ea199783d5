import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** A database made for one test or benchmark run, and how to drop it. */
export interface FreshPostgres {
  url: string;
  drop(): Promise<void>;
}

/**
 * A new, empty PostgreSQL database named `{prefix}_{random}` on the server at `serverUrl` (its role may
 * create databases), or a copy of the database `template`, and how to drop it. The tests, the cluster
 * tests and the benchmarks all make theirs here.
 */
export async function freshPostgres(prefix: string, serverUrl: string, template?: string): Promise<FreshPostgres> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}${template ? ` template ${template}` : ''}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      // An autovacuum worker on the database has no role this one may end (42501 "must be a member
      // of the role whose process is being terminated"); it finishes in moments: try again shortly.
      for (let attempt = 1; ; attempt += 1) {
        const client = new pg.Client({ connectionString: serverUrl });
        try {
          await client.connect();
          await client.query(`drop database if exists ${name} with (force)`);
          return;
        } catch (error) {
          if (attempt >= 10) throw error;
          await new Promise((resolve) => setTimeout(resolve, 1000));
        } finally {
          await client.end().catch(() => undefined);
        }
      }
    },
  };
}
