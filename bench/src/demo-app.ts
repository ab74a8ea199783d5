import { sql, type Kysely } from 'kysely';
import type { FastifyInstance } from 'fastify';
import {
  buildApp,
  loadConfig,
  type Config,
  migrate,
  openStorage,
  rollUpStoredSamples,
  type Database,
  type UserContext,
  seedDemo,
} from '@fieldlink/server/testing';
import type { StorageDialect } from './benchmark';
import { freshDatabase } from './fresh-database';

const DEMO_PASSWORD = 'bench-demo-password';
const MINUTE = 60_000;

/** The real app (`buildApp`, no MQTT listener) on a fresh database of one dialect holding the demo data. */
export interface DemoBenchApp {
  app: FastifyInstance;
  db: Kysely<Database>;
  /** The configuration the app runs with (the defaults, on the fresh database). */
  config: Config;
  /** The storage as the benchmark's tables name it. */
  label: string;
  /** Signs a demo user in over HTTP: the session token and the user it stands for. */
  signIn(email: string): Promise<{ jwt: string; user: UserContext }>;
  /** Closes the app and drops the database. */
  close(): Promise<void>;
}

export async function startDemoBenchApp(
  dialect: StorageDialect,
  postgresUrl: string,
  prefix: string,
): Promise<DemoBenchApp> {
  const database = await freshDatabase(dialect, postgresUrl, prefix);
  try {
    // No log maintenance queued in the background (as in the tests' app): a run a minute in would
    // apply retention to, and compact, the samples a benchmark loads while it measures them.
    const config = loadConfig({
      DATABASE_URL: database.url,
      WEB_DIST: '/nonexistent',
      LOG_LEVEL: 'error',
      FIELDLINK_LOG_MAINTENANCE_MINUTES: '0',
    });
    const storage = openStorage(config.databaseUrl);
    await migrate(storage.db);
    await seedDemo(storage.db, DEMO_PASSWORD);
    const app = await buildApp({ config, storage, mqttPort: null });
    await app.ready();
    return {
      app,
      db: storage.db,
      config,
      label: database.label,
      signIn: async (email) => {
        const response = await app.inject({
          method: 'POST',
          url: '/api/v1/signin',
          payload: { email, password: DEMO_PASSWORD },
        });
        const { jwt } = response.json() as { jwt: string };
        return { jwt, user: (await app.userFromToken(jwt)) as UserContext };
      },
      close: async () => {
        try {
          await app.close();
        } finally {
          await database.drop();
        }
      },
    };
  } catch (error) {
    await database.drop();
    throw error;
  }
}

/**
 * `count` 1-minute samples of one channel from `start`, written in one statement, and their roll-ups.
 * `value` is an SQL expression of the sample's number `i` (0 to count - 1) that both dialects evaluate
 * alike.
 */
export async function fillMinuteSamples(
  db: Kysely<Database>,
  dialect: StorageDialect,
  channel: { deviceId: string; code: string; start: number; count: number; value: string },
): Promise<void> {
  const { deviceId, code, start, count } = channel;
  const value = sql.raw(channel.value);
  if (dialect === 'sqlite') {
    await sql`
      with recursive s(i) as (select 0 union all select i + 1 from s where i + 1 < ${count})
      insert into logs (device_id, code, t, value)
      select ${deviceId}, ${code}, ${start} + i * ${MINUTE}, ${value} from s`.execute(db);
  } else {
    await sql`
      insert into logs (device_id, code, t, value)
      select ${deviceId}, ${code}, ${start}::bigint + i * ${MINUTE}, ${value}
      from generate_series(0::bigint, ${count - 1}::bigint) as i`.execute(db);
  }
  // Inserted by SQL rather than through insertLogs: their roll-ups are made from them.
  await rollUpStoredSamples(db, { deviceId, code, from: start, to: start + count * MINUTE });
}
