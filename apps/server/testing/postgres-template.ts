import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { migrate, openStorage } from '../src/db/database';
import { freshPostgres } from './fresh-postgres';
import { TEST_POSTGRES_URL } from './test-postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated PostgreSQL database that test apps copy (`create database … template`), or null. */
    postgresTemplate: string | null;
  }
}

/**
 * The server project's global set-up: migrates one PostgreSQL database per run, which every test app
 * copies instead of migrating its own (about a second each under load, docs/PERFORMANCE.md "Test suite"),
 * and drops it at the end. Without a PostgreSQL server it provides nothing and the apps migrate as before.
 */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const probe = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  try {
    await probe.connect();
  } catch {
    project.provide('postgresTemplate', null);
    return undefined;
  } finally {
    await probe.end().catch(() => undefined);
  }
  const template = await freshPostgres('fieldlink_template', TEST_POSTGRES_URL);
  const storage = openStorage(template.url);
  try {
    await migrate(storage.db);
  } finally {
    // A template may have no connection open while it is copied.
    await storage.close();
  }
  project.provide('postgresTemplate', new URL(template.url).pathname.slice(1));
  return () => template.drop();
}
