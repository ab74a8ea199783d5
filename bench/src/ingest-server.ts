import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../apps/server/src/app';
import { loadConfig } from '../../apps/server/src/config';
import { migrate, openStorage } from '../../apps/server/src/db/database';
import { moveInbox } from '../../apps/server/src/db/log-inbox';
import { seedDemo } from '../../apps/server/src/seed/seed';
import { serveRpc } from './child-rpc';
import { freshDatabase, type FreshDatabase } from './fresh-database';
import type { DeviceCredentials, ServerCalls, ServerReady } from './ingest-calls';
import { ProcessMeter } from './process-meter';

/**
 * The server side of the ingest benchmark, in a process of its own: the real app built by buildApp,
 * with its embedded broker on a free port, on a fresh database of the chosen dialect.
 */

const DEMO_PASSWORD = 'bench-demo-password';
// The demo user with ADD_DEVICES: devices are provisioned through the public API, as a customer would.
const PROVISIONER = 'ops@fieldlink.test';

async function provisionDevices(app: FastifyInstance, count: number): Promise<DeviceCredentials[]> {
  const signIn = await app.inject({
    method: 'POST',
    url: '/api/v1/signin',
    payload: { email: PROVISIONER, password: DEMO_PASSWORD },
  });
  if (signIn.statusCode !== 200) throw new Error(`Sign-in failed: ${signIn.statusCode} ${signIn.body}`);
  const { jwt } = signIn.json() as { jwt: string };
  const devices: DeviceCredentials[] = [];
  for (let i = 0; i < count; i += 1) {
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/device',
      headers: { authorization: jwt },
      payload: { name: `Bench device ${i + 1}` },
    });
    if (response.statusCode !== 200) throw new Error(`Provisioning failed: ${response.statusCode} ${response.body}`);
    devices.push((response.json() as { credentials: DeviceCredentials }).credentials);
  }
  return devices;
}

const meter = new ProcessMeter();
let app: FastifyInstance | null = null;
let database: FreshDatabase | null = null;

serveRpc<ServerCalls>(
  {
    async setup(setup): Promise<ServerReady> {
      const started = performance.now();
      database = await freshDatabase(setup.dialect, setup.postgresUrl, 'ingest');
      const config = loadConfig({ DATABASE_URL: database.url, WEB_DIST: '/nonexistent' });
      const storage = openStorage(config.databaseUrl);
      await migrate(storage.db);
      await seedDemo(storage.db, DEMO_PASSWORD);
      app = await buildApp({ config, storage, mqttPort: 0 });
      await app.ready();
      const devices = await provisionDevices(app, setup.devices);
      const broker = app.fieldlink.broker;
      if (!broker) throw new Error('The app started without its broker');
      // Seeding hashes the demo passwords with scrypt (128 MiB each): not ingest's memory.
      meter.resetOverall();
      return { mqttPort: broker.port, devices, storage: database.label, setupMs: performance.now() - started };
    },

    async mark() {
      const { frames, dataPoints, rejected } = app?.fieldlink.ingest.counters ?? {
        frames: 0,
        dataPoints: 0,
        rejected: 0,
      };
      return { usage: meter.mark(), counters: { frames, dataPoints, rejected } };
    },

    async countRows() {
      if (!app) throw new Error('Not set up');
      await app.fieldlink.writer.flush();
      const { db } = app.storage;
      // SQLite: acknowledged samples still in the inbox are moved into `logs` first, as any reader
      // moves them, so the count is of `logs` alone (apps/server/src/db/log-inbox.ts).
      await moveInbox(db);
      const count = async (table: 'logs' | 'latest_values') => {
        const row = await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .executeTakeFirstOrThrow();
        // count(*) is a bigint in PostgreSQL, read back as a string by node-postgres.
        return Number(row.n);
      };
      return { logRows: await count('logs'), latestRows: await count('latest_values') };
    },

    async shutdown() {
      meter.stop();
      try {
        await app?.close();
      } finally {
        await database?.drop();
      }
    },
  },
  ['shutdown'],
);
