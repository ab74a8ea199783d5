import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import { migrate, openStorage } from '../../src/db/database';
import { seedDemo } from '../../src/seed/seed';
import { DEMO_PASSWORD, TEST_POSTGRES_URL } from '../test-app';
import { freshPostgres as freshTestPostgres, type FreshPostgres } from '../fresh-postgres';
import type { TestMosquitto } from './mosquitto';

export type TestDatabase = FreshPostgres;

/** A new, empty PostgreSQL database on the server at `serverUrl` (its role may create databases). */
export function freshPostgres(serverUrl = TEST_POSTGRES_URL): Promise<TestDatabase> {
  return freshTestPostgres('fieldlink_cluster', serverUrl);
}

/** Migrates and seeds the demo data once, as the first instance of a cluster does. */
export async function prepareDatabase(url: string): Promise<void> {
  const storage = openStorage(url);
  try {
    await migrate(storage.db);
    await seedDemo(storage.db, DEMO_PASSWORD);
  } finally {
    await storage.close();
  }
}

/** The environment of an instance on that broker and database. */
export function clusterEnv(
  mosquitto: TestMosquitto,
  databaseUrl: string,
  ingest: 'single' | 'shared' = 'shared',
): Record<string, string> {
  return {
    MQTT_INGEST: ingest,
    DATABASE_URL: databaseUrl,
    MQTT_URL: mosquitto.url,
    MQTT_ADMIN_USERNAME: mosquitto.adminUsername,
    MQTT_ADMIN_PASSWORD: mosquitto.adminPassword,
    FIELDLINK_CLUSTER_LEASE_SECONDS: '2',
    WEB_DIST: '/nonexistent',
  };
}

/** One instance of the real app in this process, listening on a free port, in cluster mode. */
export async function startClusterApp(
  env: Record<string, string>,
  options: { commandTimeoutMs?: number; now?: () => number } = {},
): Promise<FastifyInstance> {
  const config = loadConfig(env);
  const storage = openStorage(config.databaseUrl);
  await migrate(storage.db);
  const app = await buildApp({
    config,
    storage,
    mqttPort: null,
    commandTimeoutMs: options.commandTimeoutMs,
    ...(options.now && { now: options.now }),
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return app;
}
