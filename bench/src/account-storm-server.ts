import type { FastifyInstance } from 'fastify';
import {
  AccountService,
  buildApp,
  loadConfig,
  migrate,
  openStorage,
  seedDemo,
  type UserContext,
} from '@fieldlink/server/testing';
import { serveRpc } from './child-rpc';
import type { StormServerCalls, StormServerReady } from './account-storm-calls';
import { generateFleet } from './device-table';
import { freshDatabase, type FreshDatabase } from './fresh-database';
import { ProcessMeter } from './process-meter';
import { provisionDevices } from './provision-devices';

/**
 * The server side of the reconnect storm (account-storm.ts), in a process of its own so that its CPU
 * is measured apart from the consoles': the real app (`buildApp`, its embedded broker on a free port)
 * on a fresh database holding the device table bench's fleet of 100,000 devices.
 */

const PASSWORD = 'bench-demo-password';
const ADMIN = 'admin@fieldlink.test';
/** A user of another account: its plain API call is the one timed while the storm runs. */
const OTHER = 'ops@fieldlink.test';

const meter = new ProcessMeter();
let app: FastifyInstance | null = null;
let database: FreshDatabase | null = null;

async function start(): Promise<{ httpPort: number; mqttPort: number }> {
  const config = loadConfig({ DATABASE_URL: database!.url, WEB_DIST: '/nonexistent', LOG_LEVEL: 'error' });
  const storage = openStorage(config.databaseUrl);
  app = await buildApp({ config, storage, mqttPort: 0 });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const httpPort = typeof address === 'object' && address ? address.port : 0;
  if (!app.broker) throw new Error('The app started without its broker');
  return { httpPort, mqttPort: app.broker.port };
}

async function signIn(email: string): Promise<string> {
  const response = await app!.inject({ method: 'POST', url: '/api/v1/signin', payload: { email, password: PASSWORD } });
  if (response.statusCode !== 200) throw new Error(`Sign-in failed: ${response.statusCode} ${response.body}`);
  return (response.json() as { jwt: string }).jwt;
}

serveRpc<StormServerCalls>(
  {
    async setup({ dialect, postgresUrl }): Promise<StormServerReady> {
      database = await freshDatabase(dialect, postgresUrl, 'storm');
      const storage = openStorage(database.url);
      await migrate(storage.db);
      await seedDemo(storage.db, PASSWORD);
      const generateMs = await generateFleet(storage.db);
      await storage.close();
      const ports = await start();
      const [device] = await provisionDevices(app!, 1, PASSWORD, 'Storm probe');
      return {
        ...ports,
        storage: database.label,
        generateMs,
        device: device!,
        adminToken: await signIn(ADMIN),
        otherToken: await signIn(OTHER),
      };
    },

    /** Stops the app and starts it again on the same database: nothing built is kept. */
    async restart() {
      await app?.close();
      return start();
    },

    /**
     * The ETag of the tree as it is now, for a console that read it before the break: from a service
     * of its own, so the app's kept trees stay as they are (none after a restart).
     */
    async treeTag({ token }) {
      const user = (await app!.userFromToken(token)) as UserContext;
      const answer = await new AccountService(app!.storage.db).answer(user, 'columns', 'br', undefined);
      return answer.etag;
    },

    async mark() {
      return meter.mark();
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
