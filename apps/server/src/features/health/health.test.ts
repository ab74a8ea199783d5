import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { DIALECTS, TEST_POSTGRES_URL, startTestApp, type TestApp } from '../../../testing/test-app';
import { until } from '../../../testing/until';

describe.each(DIALECTS)('health and readiness on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(() => t?.close());

  it('answers /ready with ok once the database answers, and /health with ok', async () => {
    const ready = await t.app.inject({ method: 'GET', url: '/api/v1/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ ok: true });
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/health' })).statusCode).toBe(200);
  });
});

/**
 * Readiness touches the database, liveness does not: while PostgreSQL refuses this database's
 * connections, `/ready` answers 503 (the balancer sends nothing here) and `/health` still ok (the
 * supervisor restarts nothing); when it is back, `/ready` recovers by itself.
 */
describe('readiness during a database outage', () => {
  let t: TestApp;
  let admin: pg.Client;
  let database: string;
  beforeAll(async () => {
    t = await startTestApp('postgres');
    database = new URL(t.config.databaseUrl).pathname.slice(1);
    admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.query(`alter database ${database} allow_connections true`).catch(() => undefined);
    await admin?.end();
    await t?.close();
  });

  it('answers 503 while the database is unreachable and ok again after', { timeout: 60_000 }, async () => {
    await admin.query(`alter database ${database} allow_connections false`);
    await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [database]);
    const down = await t.app.inject({ method: 'GET', url: '/api/v1/ready' });
    expect(down.statusCode).toBe(503);
    expect(down.headers['retry-after']).toBe('5');
    expect(down.json()).toMatchObject({ message: 'The database does not answer; this instance is not ready.' });
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/health' })).statusCode).toBe(200);

    await admin.query(`alter database ${database} allow_connections true`);
    // Ready again by itself once the database lets connections in.
    await until(async () => (await t.app.inject({ method: 'GET', url: '/api/v1/ready' })).statusCode === 200, 10_000);
  });
});
