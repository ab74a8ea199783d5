import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app';
import { loadConfig } from '../../config';
import { migrate, openStorage } from '../../db/database';
import { seedDemo } from '../../seed/seed';
import { DEMO_PASSWORD, TEST_POSTGRES_URL } from '../../testing/test-app';
import type { TestMosquitto } from './mosquitto';

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A new, empty PostgreSQL database on the server at `serverUrl` (its role may create databases). */
export async function freshPostgres(serverUrl = TEST_POSTGRES_URL): Promise<TestDatabase> {
  const name = `fieldlink_cluster_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      // An autovacuum worker on the database cannot be ended by a plain role: try again shortly.
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
  options: { commandTimeoutMs?: number } = {},
): Promise<FastifyInstance> {
  const config = loadConfig(env);
  const storage = openStorage(config.databaseUrl);
  await migrate(storage.db);
  const app = await buildApp({ config, storage, mqttPort: null, commandTimeoutMs: options.commandTimeoutMs });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return app;
}
