import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { CLIENT_VERSION } from '@fieldlink/api/session';
import type { Config } from './config';
import type { Storage } from './db/database';
import { startEmbeddedBroker, type DeviceBroker } from './broker/embedded-broker';
import { DeviceEvents } from './events';
import { DeviceDirectory } from './ingest/device-directory';
import { FrameWriter } from './ingest/frame-writer';
import { Ingest } from './ingest/ingest';
import { Mailer } from './mail/mailer';
import { CommandService } from './realtime/commands';
import { RealtimeHub } from './realtime/hub';
import { HttpError, errorBody } from './http-errors';
import { storagePlugin } from './plugins/storage';
import { authPlugin } from './plugins/auth';
import { realtimePlugin } from './plugins/realtime';
import { webPlugin } from './plugins/web';
import { SessionService } from './features/session/service';
import { sessionRoutes } from './features/session/routes';
import { DeviceService } from './features/devices/service';
import { deviceRoutes } from './features/devices/routes';
import { AccountService } from './features/accounts/service';
import { accountRoutes } from './features/accounts/routes';

/** The services behind the routes, reachable from tests and from main. */
export interface Fieldlink {
  events: DeviceEvents;
  directory: DeviceDirectory;
  writer: FrameWriter;
  ingest: Ingest;
  commands: CommandService;
  hub: RealtimeHub;
  mailer: Mailer;
  sessions: SessionService;
  devices: DeviceService;
  broker: DeviceBroker | null;
}

declare module 'fastify' {
  interface FastifyInstance {
    fieldlink: Fieldlink;
  }
}

export interface AppOptions {
  config: Config;
  storage: Storage;
  /** Port of the embedded MQTT broker (0: any free port); null runs without a broker. */
  mqttPort: number | null;
  logger?: FastifyServerOptions['logger'];
  /** How long a device has to answer a command (tests shorten it). */
  commandTimeoutMs?: number;
}

const DB_DOWN_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  '57P01',
  '57P02',
  '57P03',
  '08006',
  '08001',
  '08003',
  'SQLITE_BUSY',
]);

/** True for errors that mean the database is unreachable for now (answered 503, not 500). */
function isDatabaseUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  const message = error instanceof Error ? error.message : '';
  return (
    (typeof code === 'string' && DB_DOWN_CODES.has(code)) || /Connection terminated|connect ECONNREFUSED/.test(message)
  );
}

/** Builds the whole server: API, real-time hub, embedded broker and ingest, SPA. */
export async function buildApp({
  config,
  storage,
  mqttPort,
  logger = false,
  commandTimeoutMs,
}: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger,
    // One line per request is noise at info level; LOG_LEVEL=debug shows them.
    logController: new LogController({ disableRequestLogging: config.logLevel !== 'debug' }),
    trustProxy: process.env.TRUST_PROXY === '1',
    ajv: { customOptions: { removeAdditional: false, coerceTypes: 'array', useDefaults: true, allErrors: false } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.setErrorHandler((error, request, reply) => {
    if (error instanceof HttpError) {
      return reply.code(error.statusCode).headers(error.headers).send(errorBody(error.statusCode, error.message));
    }
    const failure = error as { validation?: unknown; statusCode?: number; message: string };
    if (failure.validation) return reply.code(400).send(errorBody(400, failure.message));
    if (failure.statusCode && failure.statusCode >= 400 && failure.statusCode < 500) {
      return reply.code(failure.statusCode).send(errorBody(failure.statusCode, failure.message));
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'Database unavailable');
      return reply
        .code(503)
        .header('retry-after', '5')
        .send(errorBody(503, 'The service is briefly unavailable. Please try again.'));
    }
    request.log.error({ err: error }, 'Request failed');
    return reply.code(500).send(errorBody(500, 'Server error'));
  });

  await app.register(storagePlugin, { storage });
  await app.register(authPlugin, { tokenTtlSeconds: config.tokenTtlSeconds });

  const { db } = storage;
  const events = new DeviceEvents();
  const directory = new DeviceDirectory(db);
  const writer = new FrameWriter(db, {
    onCommitted: (committed) => committed.forEach((event) => events.emit(event)),
    onError: (error) => app.log.error({ err: error }, 'Frame batch not stored'),
  });
  let broker: DeviceBroker | null = null;
  const commands = new CommandService(async (thingName, command) => {
    if (!broker) throw new Error('No broker');
    await broker.sendCommand(thingName, command);
  }, commandTimeoutMs);
  const ingest = new Ingest(db, writer, directory, commands, app.log);
  const mailer = new Mailer(db, config.smtpUrl, config.mailFrom, app.log);
  const devices = new DeviceService(db, (thingName) => directory.forget(thingName));
  const hub = new RealtimeHub(devices, commands, app.log);
  events.on((event) => hub.publish(event));
  const sessions = new SessionService({
    db,
    tokens: app.tokens,
    mailer,
    publicUrl: config.publicUrl,
    onSessionsEnded: (userId) => hub.closeUser(userId),
    onSignedOut: (jti) => hub.closeToken(jti),
  });
  const fieldlink: Fieldlink = { events, directory, writer, ingest, commands, hub, mailer, sessions, devices, broker };
  app.decorate('fieldlink', fieldlink);

  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Fieldlink API',
        version: CLIENT_VERSION,
        description: 'Calls of the Fieldlink console. Send the session token in the `authorization` header.',
      },
      components: { securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'authorization' } } },
      security: [{ token: [] }],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/api/v1/docs' });

  await app.register(realtimePlugin, { hub, allowedOrigins: config.allowedOrigins, broker: () => fieldlink.broker });
  const clientConfig = {
    productName: config.productName,
    clientVersion: CLIENT_VERSION,
    defaultTheme: config.defaultTheme,
    mapTileUrl: config.mapTileUrl,
    mapKey: config.mapKey,
    geocoderUrl: config.geocoderUrl,
  };
  await app.register(
    async (api) => {
      await api.register(sessionRoutes, { sessions, clientConfig });
      await api.register(deviceRoutes, { devices });
      await api.register(accountRoutes, { accounts: new AccountService(db) });
      api.get('/health', { schema: { hide: true } }, async () => ({ ok: true }));
    },
    { prefix: '/api/v1' },
  );
  await app.register(webPlugin, { webDist: config.webDist });

  if (mqttPort !== null) {
    broker = await startEmbeddedBroker({ port: mqttPort, directory, ingest, logger: app.log });
    fieldlink.broker = broker;
  }

  // Shutdown order: stop taking frames, write what is pending, then close sockets and storage.
  app.addHook('preClose', async () => hub.closeAll());
  app.addHook('onClose', async () => {
    await broker?.close();
    commands.cancelAll();
    await writer.flush();
    mailer.close();
    await storage.close();
  });
  return app;
}
