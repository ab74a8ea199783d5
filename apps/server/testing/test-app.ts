import type { FastifyInstance } from 'fastify';
import { inject } from 'vitest';
import type { Kysely } from 'kysely';
import { loadConfig, type Config } from '../src/config';
import { migrate, openStorage, type Dialect } from '../src/db/database';
import type { Database } from '../src/db/schema';
import { buildApp } from '../src/app';
import { seedDemo } from '../src/seed/seed';
import { insertAttachmentPoint, insertUser } from '../src/features/session/repository';
import { newId } from '../src/security/secrets';
import type { OtaOptions } from '../src/features/ota/service';
import type { Timers } from '../src/timers';
import { TEST_POSTGRES_URL } from './test-postgres';
import { freshPostgres } from './fresh-postgres';

/** Both storage dialects: every storage and API test runs on each (as Kysely's DIALECTS loop). */
export const DIALECTS: Dialect[] = ['sqlite', 'postgres'];

export { TEST_POSTGRES_URL };

export const DEMO_PASSWORD = 'test-demo-password';

/** Demo users whose account trees differ (every variant, a supplier, a viewer, an operator). */
export const TREE_DEMO_USERS = [
  'admin@fieldlink.test',
  'brew@fieldlink.test',
  'spray@fieldlink.test',
  'stock@fieldlink.test',
  'water@fieldlink.test',
  'viewer@fieldlink.test',
  'ops@fieldlink.test',
];

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  dialect: Dialect;
  close(): Promise<void>;
}

/** A fresh, empty database of the dialect: an in-memory SQLite, or a new PostgreSQL database. */
export async function freshDatabase(dialect: Dialect): Promise<{ url: string; drop: () => Promise<void> }> {
  if (dialect === 'sqlite') return { url: ':memory:', drop: async () => undefined };
  return freshPostgres('fieldlink_test', TEST_POSTGRES_URL);
}

/**
 * A fresh database of the dialect for an app: on PostgreSQL a copy of the run's migrated template
 * (postgres-template.ts), so `migrate` finds nothing to do; else as {@link freshDatabase}.
 */
function appDatabase(dialect: Dialect): Promise<{ url: string; drop: () => Promise<void> }> {
  const template = dialect === 'postgres' ? inject('postgresTemplate') : null;
  if (!template) return freshDatabase(dialect);
  return freshPostgres('fieldlink_test', TEST_POSTGRES_URL, template);
}

/**
 * The real app on a fresh database of the dialect, with the demo data seeded and, when asked, the
 * embedded broker on a free port.
 */
export async function startTestApp(
  dialect: Dialect,
  options: {
    mqtt?: boolean;
    /** False: the broker takes MQTT over TLS only (with `TLS_CERT_FILE` in `env`). */
    plainMqtt?: boolean;
    listen?: boolean;
    env?: Record<string, string>;
    commandTimeoutMs?: number;
    ota?: OtaOptions;
    /** The clock of the jobs table and report schedules. */
    now?: () => number;
    /** The timers of the broker's drain timeout (real ones by default). */
    timers?: Timers;
    /** Where the app's warnings go, one JSON line each (none by default). */
    logLines?: string[];
  } = {},
): Promise<TestApp> {
  const database = await appDatabase(dialect);
  // No log maintenance or batch report retention queued in the background: a test that checks nothing
  // changed would see its job row (log-maintenance.test.ts, brew-limits.test.ts and audit.test.ts run them
  // on purpose).
  const config = loadConfig({
    DATABASE_URL: database.url,
    WEB_DIST: '/nonexistent',
    FIELDLINK_LOG_MAINTENANCE_MINUTES: '0',
    FIELDLINK_BATCH_REPORT_RETENTION_MINUTES: '0',
    FIELDLINK_AUDIT_RETENTION_MINUTES: '0',
    ...options.env,
  });
  const storage = openStorage(config.databaseUrl);
  await migrate(storage.db);
  await seedDemo(storage.db, DEMO_PASSWORD);
  const app = await buildApp({
    config,
    storage,
    mqttPort: options.mqtt ? 0 : null,
    plainMqtt: options.plainMqtt,
    commandTimeoutMs: options.commandTimeoutMs,
    ota: options.ota,
    now: options.now,
    timers: options.timers,
    logger: options.logLines
      ? { level: 'warn', stream: { write: (line: string) => options.logLines!.push(line) } }
      : false,
  });
  if (options.listen) await app.listen({ port: 0, host: '127.0.0.1' });
  else await app.ready();
  return {
    app,
    config,
    dialect,
    close: async () => {
      await app.close();
      await database.drop();
    },
  };
}

/** Base URL of a listening test app. */
export function baseUrl(app: FastifyInstance): string {
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('App is not listening');
  return `http://127.0.0.1:${address.port}`;
}

/** Signs in through the API and answers the token. */
export async function signIn(app: FastifyInstance, email: string, password = DEMO_PASSWORD): Promise<string> {
  const response = await app.inject({ method: 'POST', url: '/api/v1/signin', payload: { email, password } });
  if (response.statusCode !== 200)
    throw new Error(`Sign-in of ${email} failed: ${response.statusCode} ${response.body}`);
  return (response.json() as { jwt: string }).jwt;
}

/**
 * A user attached to an account at one of its groups, with a token issued directly: no password hash
 * per user, so a test can make as many callers as it needs.
 */
export async function addTestUser(
  app: FastifyInstance,
  user: {
    email: string;
    accountId: string;
    /** The path of the group the user is attached at. */
    path: string;
    permissions: readonly string[];
    secretPermissions?: readonly string[];
    appType?: string;
    firstName?: string;
    lastName?: string;
    /** Sees every value and chart but operates nothing (issue 35). */
    monitorOnly?: boolean;
  },
): Promise<{ id: string; token: string }> {
  const id = newId();
  const { db } = app.storage;
  await insertUser(db, {
    id,
    email: user.email,
    password_hash: 'not-a-password',
    first_name: user.firstName ?? 'Test',
    last_name: user.lastName ?? user.email.split('@')[0]!,
    monitor_only: user.monitorOnly ? 1 : 0,
  });
  await insertAttachmentPoint(db, {
    id: newId(),
    user_id: id,
    account_id: user.accountId,
    ordinal: 0,
    path: user.path,
    permissions: JSON.stringify(user.permissions),
    secret_permissions: JSON.stringify(user.secretPermissions ?? []),
    app_type: user.appType ?? 'default',
  });
  return { id, token: await app.tokens.issue(id, 0) };
}

/**
 * The demo seeds viewer@ monitor-only (issue 35): a test about commands that acts as the viewer lets it
 * operate. The monitor-only rule keeps its own tests (monitor-only.test.ts, the authorization matrix).
 */
export async function letViewerOperate(db: Kysely<Database>): Promise<void> {
  await db.updateTable('users').set({ monitor_only: 0 }).where('email', '=', 'viewer@fieldlink.test').execute();
}
