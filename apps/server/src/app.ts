import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { readFileSync } from 'node:fs';
import type http from 'node:http';
import https from 'node:https';
import { DEVICE_PROTOCOL_DOC_PATH } from '@fieldlink/api/device';
import { CLIENT_VERSION } from '@fieldlink/api/session';
import { REALTIME_CLOSE } from '@fieldlink/api/realtime';
import { deviceBrokerUrl, type Config } from './config';
import type { Storage } from './db/database';
import { startEmbeddedBroker } from './broker/embedded-broker';
import { brokerCredentials, DATABASE_CREDENTIALS, type DeviceBroker } from './broker/device-broker';
import { startClusterNode } from './cluster/cluster-node';
import type { EventRelay } from './cluster/event-relay';
import { LogMaintenance } from './features/devices/log-maintenance';
import { JobQueue } from './jobs/job-queue';
import { createFieldlinkMetrics } from './metrics/fieldlink-metrics';
import { trackRequestsForDrain } from './plugins/drain';
import { metricsPlugin } from './metrics/metrics-plugin';
import { emqxAuthPlugin } from './broker/emqx-http-auth';
import { DeviceEvents, type AccessChange } from './events';
import { DeviceDirectory } from './ingest/device-directory';
import { FrameWriter, POSTGRES_BATCHES_IN_FLIGHT } from './ingest/frame-writer';
import { InboxMover } from './db/log-inbox';
import { SqliteWriterThread } from './ingest/sqlite-writer-thread';
import { Ingest } from './ingest/ingest';
import { Mailer } from './mail/mailer';
import { CommandService } from './realtime/commands';
import { RealtimeHub } from './realtime/hub';
import { HttpError, errorBody, notFound } from './http-errors';
import { normaliseTimestamps, rejectUnsafeInput } from './plugins/input-guard';
import { storagePlugin } from './plugins/storage';
import { authPlugin } from './plugins/auth';
import { realtimePlugin } from './plugins/realtime';
import { webPlugin } from './plugins/web';
import { SessionService } from './features/session/service';
import { sessionRoutes } from './features/session/routes';
import { MfaService } from './features/mfa/service';
import { mfaRoutes } from './features/mfa/routes';
import { SecretBox } from './security/secret-box';
import { SigninGuard } from './security/signin-guard';
import { videoRoutes } from './features/videos/routes';
import { healthRoutes } from './features/health/routes';
import { compressionPlugin } from './plugins/compression';
import { corsPlugin } from './plugins/cors';
import { securityHeadersPlugin } from './plugins/security-headers';
import { TlsCredentials } from './security/tls-credentials';
import { DeviceService } from './features/devices/service';
import { deviceRoutes } from './features/devices/routes';
import { AccountService } from './features/accounts/service';
import { accountRoutes } from './features/accounts/routes';
import { UserService } from './features/users/service';
import { userRoutes } from './features/users/routes';
import { GroupService } from './features/groups/service';
import { groupRoutes } from './features/groups/routes';
import { DeviceTableService } from './features/device-table/service';
import { deviceTableRoutes } from './features/device-table/routes';
import { OtaService, type OtaOptions } from './features/ota/service';
import { otaRoutes } from './features/ota/routes';
import { SprayService } from './features/spray/service';
import { sprayRoutes } from './features/spray/routes';
import { AlarmEvaluator } from './features/alarms/evaluator';
import { AlarmNotices } from './features/alarms/notices';
import { AlarmService } from './features/alarms/service';
import { alarmRoutes } from './features/alarms/routes';
import { SceneService } from './features/scenes/service';
import { sceneRoutes } from './features/scenes/routes';
import { InventoryService } from './features/inventory/service';
import { inventoryRoutes } from './features/inventory/routes';
import { ShelfTracker } from './features/inventory/shelf-tracker';
import { ReportService } from './features/reports/service';
import { reportPublicRoutes, reportRoutes } from './features/reports/routes';
import { FileStore } from './documents/file-store';
import { FileLinks } from './documents/file-links';
import { fileRoutes } from './documents/file-routes';
import { BrewService } from './features/brew/service';
import { BrewTankTracker } from './features/brew/tank-tracker';
import { brewRoutes } from './features/brew/routes';
import { AuditService, audit } from './features/audit/service';
import { auditRoutes } from './features/audit/routes';
import { installationSecret, vapidKeyPair } from './security/installation';
import { PushService } from './features/push/service';
import { PushSender, generateVapidKeys } from './features/push/sender';
import { pushRoutes } from './features/push/routes';
import { webManifestPlugin } from './plugins/web-manifest';
import { apiTokenRoutes } from './features/api-tokens/routes';
import { ApiTokenService } from './features/api-tokens/service';
import { WebhookService } from './features/webhooks/service';
import { webhookRoutes } from './features/webhooks/routes';
import { NotificationService } from './features/notifications/service';
import { AlarmLinks } from './features/notifications/alarm-links';
import { alarmLinkRoutes, notificationRoutes } from './features/notifications/routes';
import { proxyTrust } from './security/client-address';
import { checkOutboundUrl } from './security/outbound-url';
import { openTokenIds } from './security/open-tokens';
import { REALTIME_SESSION_CHECK_MS } from '@fieldlink/domain/realtime-limits';
import { SmsService } from './features/sms/service';
import { SmsSender } from './features/sms/sender';
import { smsRoutes } from './features/sms/routes';

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
  jobs: JobQueue;
  /** Carries events and replies to the other instances (cluster mode only). */
  relay: EventRelay | null;
  /** Over-the-air updates: submission, approval, paced rollouts, progress. */
  ota: OtaService;
  /** Evaluates channel alarms on the samples this instance stores. */
  alarms: AlarmEvaluator;
  /** Follows the stock of smart shelves from the samples this instance stores. */
  shelves: ShelfTracker;
  /** Generated documents' files, and their short-lived signed links (documents/). */
  files: FileStore;
  fileLinks: FileLinks;
  /** Reports and report schedules. */
  reports: ReportService;
  /** Brewing: tanks, batches, reports. */
  brew: BrewService;
  /** Follows running batches' tank states and gravity freeze from the samples this instance stores. */
  brewTanks: BrewTankTracker;
  /** Closes the HTTP listener and waits (at most `deadlineMs`) for the requests in flight: a stop's first step. */
  drain: (deadlineMs: number) => Promise<void>;
  /** The audit trail: reading, verifying, retention. */
  audit: AuditService;
  /** Webhooks: the accounts' receivers of events and their deliveries. */
  webhooks: WebhookService;
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
  /** False: the embedded broker takes no plain MQTT, only MQTT over TLS (`MQTT_PORT=0` with TLS). */
  plainMqtt?: boolean;
  /** Port of the embedded broker's MQTT over TLS when TLS is configured (0: any free port); default `MQTT_TLS_PORT`. */
  mqttTlsPort?: number;
  logger?: FastifyServerOptions['logger'];
  /** How long a device has to answer a command (tests shorten it). */
  commandTimeoutMs?: number;
  /** Timings of OTA rollouts (tests shorten them). */
  ota?: OtaOptions;
  /** The clock of the jobs table, report schedules and broadcast spray's cool-down (tests move it). */
  now?: () => number;
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

/** docs/device-protocol.md, read once; null where the server runs without the repository's docs. */
function readDeviceProtocol(): string | null {
  try {
    return readFileSync(new URL('../../../docs/device-protocol.md', import.meta.url), 'utf8');
  } catch {
    return null;
  }
}
const deviceProtocol = readDeviceProtocol();

/** How long a push service keeps an alarm notice for a browser that is away: an hour-old alarm is still news. */
const PUSH_TTL_SECONDS = 3600;
/** How long one push service may take to answer. */
const PUSH_TIMEOUT_MS = 10_000;

/**
 * The VAPID `sub` claim (RFC 8292 §2.1): the installation's https address, else the sender of its mail,
 * so a push service has someone to reach about this server's messages.
 */
function vapidSubject(config: Config): string {
  if (config.publicUrl.startsWith('https://')) return config.publicUrl;
  const address = /<([^>]+)>/.exec(config.mailFrom)?.[1] ?? config.mailFrom;
  return `mailto:${address.trim()}`;
}

/** Builds the whole server: API, real-time hub, embedded broker and ingest, SPA. */
export async function buildApp({
  config,
  storage,
  mqttPort,
  plainMqtt = true,
  mqttTlsPort = config.mqttTlsPort,
  logger = false,
  commandTimeoutMs,
  ota: otaOptions,
  now,
}: AppOptions): Promise<FastifyInstance> {
  // Read before the server exists; its reloads log through the app's logger.
  const tlsCredentials = config.tls
    ? new TlsCredentials(config.tls, {
        info: (object, message) => app.log.info(object, message),
        warn: (object, message) => app.log.warn(object, message),
      })
    : null;
  const app = Fastify({
    logger,
    // HTTPS (and so WSS for the real-time channel and MQTT over WebSocket) on the same port when TLS
    // is configured; Fastify's types stay those of the HTTP server it otherwise makes.
    ...(tlsCredentials && {
      serverFactory: (handler: http.RequestListener) => {
        const server = https.createServer(tlsCredentials.serverOptions, handler);
        tlsCredentials.follow(server);
        return server as unknown as http.Server;
      },
    }),
    // One line per request is noise at info level; LOG_LEVEL=debug shows them.
    logController: new LogController({ disableRequestLogging: config.logLevel !== 'debug' }),
    // Shutdown must not wait on a browser's open connections: pending writes are flushed in onClose.
    forceCloseConnections: true,
    // Only the configured proxies' word names the client (per-address limits, `/metrics`): SECURITY.md 22.
    trustProxy: proxyTrust(config.trustProxy),
    ajv: { customOptions: { removeAdditional: false, coerceTypes: 'array', useDefaults: true, allErrors: false } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.setErrorHandler((error, request, reply) => {
    if (error instanceof HttpError) {
      return reply
        .code(error.statusCode)
        .headers(error.headers)
        .send({ ...errorBody(error.statusCode, error.message), ...error.details });
    }
    const failure = error as { validation?: unknown; statusCode?: number; message: string };
    if (failure.validation) return reply.code(400).send({ ...errorBody(400, failure.message), invalidRequest: true });
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

  await app.register(securityHeadersPlugin, { config });
  await app.register(storagePlugin, { storage });
  await app.register(compressionPlugin);
  await app.register(authPlugin, { tokenTtlSeconds: config.tokenTtlSeconds, now });
  await app.register(corsPlugin, { allowedOrigins: config.allowedOrigins });

  const { db } = storage;
  const events = new DeviceEvents();
  const directory = new DeviceDirectory(db, events);
  // A SQLite file's batches are written by a thread of their own; PostgreSQL writes several at a time.
  const writerThread = storage.file ? new SqliteWriterThread(storage.file) : null;
  // SQLite commits samples into its inbox, moved into `logs` between batches (db/log-inbox.ts): by
  // the writer thread for a file, here for an in-memory database.
  const inbox =
    storage.dialect === 'sqlite' && !writerThread
      ? new InboxMover(db, { onError: (error) => app.log.error({ err: error }, 'Moving the log inbox failed') })
      : undefined;
  const writer = new FrameWriter(db, {
    concurrency: storage.dialect === 'postgres' ? POSTGRES_BATCHES_IN_FLIGHT : 1,
    store: writerThread ? (writes) => writerThread.write(writes) : undefined,
    inbox,
    onCommitted: (committed) => committed.forEach((event) => events.emit(event)),
    onError: (error) => app.log.error({ err: error }, 'Frame batch not stored'),
  });
  let broker: DeviceBroker | null = null;
  const commands = new CommandService(
    async (thingName, command) => {
      if (!broker) throw new Error('No broker');
      await broker.sendCommand(thingName, command);
    },
    (entry) => audit.recordAlone(db, entry),
    commandTimeoutMs,
  );
  let relay: EventRelay | null = null;
  // A reply may reach any instance; the one waiting for it may be another (cluster/event-relay.ts).
  const replies = {
    resolve: (thingName: string, reply: Parameters<CommandService['resolve']>[1]) => {
      commands.resolve(thingName, reply);
      relay?.relayReply(thingName, reply);
    },
  };
  const ingest = new Ingest(db, writer, directory, replies, app.log);
  const jobs = new JobQueue(db, storage.dialect, config.instanceId, app.log, { now });
  // A SQLite file's runs go to the writer thread, their slices queued between ingest's batches.
  const logMaintenance = new LogMaintenance(db, storage.dialect, config.logRetention, {
    now,
    runner: writerThread ?? undefined,
  });
  logMaintenance.start(jobs, config.logMaintenanceMinutes, app.log);
  const files = new FileStore(db, now);
  const fileLinks = new FileLinks(await installationSecret(db, 'file_link_secret'), now);
  const pushKeys = await vapidKeyPair(db, generateVapidKeys);
  const mailer = new Mailer(db, config.smtpUrl, config.mailFrom, app.log, jobs, files);
  let credentials = DATABASE_CREDENTIALS;
  const devices = new DeviceService(
    db,
    (thingName) => directory.forget(thingName),
    brokerCredentials(() => credentials, app.log),
    deviceBrokerUrl(config),
  );
  const hub = new RealtimeHub(devices, commands, app.log, config.realtimeMessagesPerSecond, (event) =>
    events.emit(event),
  );
  events.on((event) => hub.publish(event));
  hub.startSessionChecks({
    openTokenIds: (held, at) => openTokenIds(db, held, at),
    now: now ?? Date.now,
    everyMs: REALTIME_SESSION_CHECK_MS,
  });
  // Sign-outs, revoked tokens and moves close or re-check sockets here and on every other instance.
  const accessChanged = (change: AccessChange) => {
    hub.applyAccessChange(change);
    relay?.relayAccess(change);
  };
  const webhooks = new WebhookService({
    db,
    jobs,
    policy: { allowPrivate: config.webhookAllowPrivate },
    publicUrl: config.publicUrl,
    now,
  });
  const ota = new OtaService({ db, jobs, commands, events, logger: app.log, webhooks }, otaOptions);
  ingest.otaReports = (device, frame) => ota.report(device, frame);
  const push = new PushService({
    db,
    jobs,
    sender: new PushSender({
      keys: pushKeys,
      subject: vapidSubject(config),
      policy: { allowPrivate: config.webhookAllowPrivate },
      ttlSeconds: PUSH_TTL_SECONDS,
      timeoutMs: PUSH_TIMEOUT_MS,
    }),
    policy: { allowPrivate: config.webhookAllowPrivate },
    productName: config.productName,
    logger: app.log,
    now,
  });
  if (config.sms) {
    // The same address rule as webhooks (SECURITY.md 27), said at start rather than at the first alarm.
    const check = await checkOutboundUrl(config.sms.baseUrl, { allowPrivate: config.webhookAllowPrivate });
    if (!check.ok) throw new Error(`SMS_URL: ${check.reason}`);
  }
  const sms = new SmsService({
    db,
    jobs,
    sender: config.sms && new SmsSender(config.sms, { allowPrivate: config.webhookAllowPrivate }),
    codeKey: await installationSecret(db, 'phone_code_key'),
    productName: config.productName,
    logger: app.log,
    now,
  });
  const notifications = new NotificationService({
    db,
    // The SMS transport (issue 39 item 6) answers this once it is in; until then SMS reaches nobody.
    smsReach: (userId) => sms.reach(userId),
    now: now ?? Date.now,
  });
  const alarmLinks = new AlarmLinks({
    db,
    secret: await installationSecret(db, 'alarm_link_secret'),
    publicUrl: config.publicUrl,
    now: now ?? Date.now,
  });
  const alarmNotices = new AlarmNotices({
    db,
    jobs,
    webhooks,
    mailer,
    push,
    sms,
    productName: config.productName,
    notifications,
    links: alarmLinks,
    now,
    publicUrl: config.publicUrl,
    policy: {
      reminderIntervalMs: config.alarmReminderSeconds * 1000,
      escalationDelayMs: config.alarmEscalationSeconds * 1000,
    },
    disconnectAlertMs: config.disconnectAlertSeconds * 1000,
  });
  const alarms = new AlarmEvaluator(db, events, jobs, alarmNotices, (thingName) => directory.find(thingName), app.log);
  await alarms.start();
  const shelves = new ShelfTracker(db, events, app.log);
  await shelves.start();
  // One set of sign-in limits for passwords and second-factor codes alike (issue 38 item 2).
  const signinGuard = new SigninGuard(now ?? Date.now);
  const mfa = new MfaService({
    db,
    box: new SecretBox(await installationSecret(db, 'mfa_key')),
    issuer: config.productName,
    signinGuard,
    // The session service is made next, with this one: called only once both exist.
    endOtherSessions: (user): Promise<unknown> => sessions.endOthers(user, 'secondFactorChanged'),
    tokens: app.tokens,
    now: now ?? Date.now,
  });
  const sessions = new SessionService({
    db,
    tokens: app.tokens,
    mailer,
    publicUrl: config.publicUrl,
    mfa,
    signinGuard,
    onSessionsEnded: (userId) =>
      accessChanged({ kind: 'usersChanged', userIds: [userId], code: REALTIME_CLOSE.unauthorized }),
    onSignedOut: (jti) => accessChanged({ kind: 'tokenEnded', tokenId: jti }),
    now,
  });
  const reports = new ReportService({
    db,
    webhooks,
    databaseUrl: config.databaseUrl,
    jobs,
    files,
    links: fileLinks,
    mailer,
    publicUrl: config.publicUrl,
    productName: config.productName,
    defaultTheme: config.defaultTheme,
    retentionDays: config.reportRetentionDays,
    notifyUsers: (action, audience) => hub.notifyUsers(action, audience),
    now,
  });
  const brew = new BrewService({
    db,
    events,
    jobs,
    files,
    links: fileLinks,
    productName: config.productName,
    defaultTheme: config.defaultTheme,
    reportRetentionDays: config.batchReportRetentionDays,
    now,
  });
  brew.startRetention(config.batchReportRetentionMinutes);
  const brewTanks = new BrewTankTracker(db, events, app.log, (deviceId) => brew.announce(deviceId));
  await brewTanks.start();
  const auditTrail = new AuditService({ db, jobs, retentionDays: config.auditRetentionDays, now });
  auditTrail.startRetention(config.auditRetentionMinutes);
  const fieldlink: Fieldlink = {
    events,
    directory,
    writer,
    ingest,
    commands,
    hub,
    mailer,
    sessions,
    devices,
    broker,
    jobs,
    relay,
    alarms,
    ota,
    shelves,
    files,
    fileLinks,
    reports,
    brew,
    brewTanks,
    drain: trackRequestsForDrain(app),
    audit: auditTrail,
    webhooks,
  };
  app.decorate('fieldlink', fieldlink);
  const metrics = createFieldlinkMetrics({
    db,
    ingest,
    hub,
    jobs,
    broker: () => fieldlink.broker,
    relay: () => fieldlink.relay,
  });
  await app.register(metricsPlugin, { metrics, token: config.metricsToken });
  if (config.mqttProvisioning === 'none' && config.mqttAuthSecret) {
    await app.register(emqxAuthPlugin, {
      directory,
      secret: config.mqttAuthSecret,
      serverUsername: config.mqttAdminUsername,
      serverPassword: config.mqttAdminPassword,
    });
  }

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

  await app.register(realtimePlugin, {
    hub,
    allowedOrigins: config.allowedOrigins,
    publicUrl: config.publicUrl,
    broker: () => fieldlink.broker,
  });
  const clientConfig = {
    productName: config.productName,
    clientVersion: CLIENT_VERSION,
    defaultTheme: config.defaultTheme,
    mapTileUrl: config.mapTileUrl,
    mapKey: config.mapKey,
    geocoderUrl: config.geocoderUrl,
    pushPublicKey: pushKeys.publicKey,
    sms: sms.offered,
  };
  await app.register(
    async (api) => {
      api.addHook('preHandler', rejectUnsafeInput);
      api.addHook('preHandler', normaliseTimestamps);
      await api.register(sessionRoutes, { sessions, clientConfig });
      await api.register(apiTokenRoutes, {
        apiTokens: new ApiTokenService({
          db,
          now: now ?? Date.now,
          onRevoked: (id) => accessChanged({ kind: 'tokenEnded', tokenId: id }),
        }),
      });
      await api.register(mfaRoutes, { mfa });
      await api.register(deviceRoutes, { devices });
      await api.register(deviceTableRoutes, { table: new DeviceTableService(db) });
      await api.register(otaRoutes, { ota });
      await api.register(sprayRoutes, { spray: new SprayService(db, commands, now) });
      await api.register(accountRoutes, { accounts: new AccountService(db) });
      // A user whose permissions or place changed reconnects; a moved device is authorised again.
      const onUsersMoved = (userIds: readonly string[]) =>
        accessChanged({ kind: 'usersChanged', userIds: [...userIds], code: REALTIME_CLOSE.accessChanged });
      const onDevicesMoved = (thingNames: readonly string[]) =>
        accessChanged({ kind: 'devicesMoved', thingNames: [...thingNames] });
      await api.register(userRoutes, {
        users: new UserService({
          db,
          mailer,
          publicUrl: config.publicUrl,
          onAccessChanged: (id) => onUsersMoved([id]),
        }),
      });
      await api.register(groupRoutes, { groups: new GroupService({ db, onUsersMoved, onDevicesMoved }) });
      await api.register(sceneRoutes, { scenes: new SceneService(db) });
      const alarmService = new AlarmService(db, devices, alarms);
      await api.register(alarmRoutes, { alarms: alarmService });
      await api.register(notificationRoutes, { notifications });
      await api.register(alarmLinkRoutes, { links: alarmLinks, alarms: alarmService, productName: config.productName });
      await api.register(inventoryRoutes, { inventory: new InventoryService(db) });
      await api.register(reportRoutes, { reports });
      await api.register(reportPublicRoutes, { reports, files });
      await api.register(fileRoutes, { files, links: fileLinks });
      await api.register(brewRoutes, { brew });
      await api.register(auditRoutes, { audit: auditTrail });
      await api.register(pushRoutes, { push });
      await api.register(smsRoutes, { sms });
      await api.register(webhookRoutes, { webhooks });
      await api.register(videoRoutes, { directory: config.videosDir, urls: config.videoUrls });
      await api.register(healthRoutes, { ping: storage.ping });
      // The device protocol, for whoever connects a device the console just added; not secret.
      api.get(DEVICE_PROTOCOL_DOC_PATH, { schema: { hide: true } }, async (_request, reply) => {
        if (deviceProtocol === null) throw notFound('The device protocol is not installed here.');
        return reply.type('text/plain; charset=utf-8').send(deviceProtocol);
      });
    },
    { prefix: '/api/v1' },
  );
  await app.register(webManifestPlugin, { productName: config.productName, defaultTheme: config.defaultTheme });
  await app.register(webPlugin, { webDist: config.webDist });

  if (config.mqttUrl) {
    const node = await startClusterNode({
      config,
      db,
      ingest,
      events,
      replies: commands,
      applyAccess: (change) => hub.applyAccessChange(change),
      logger: app.log,
    });
    broker = node.broker;
    relay = node.relay;
    credentials = node.broker.credentials;
    fieldlink.relay = relay;
  } else if (mqttPort !== null) {
    broker = await startEmbeddedBroker({
      port: plainMqtt ? mqttPort : null,
      tls: tlsCredentials && { port: mqttTlsPort, credentials: tlsCredentials },
      directory,
      ingest,
      logger: app.log,
      maxFramesPerSecond: config.mqttMaxFramesPerSecond,
      drainTimeoutMs: config.mqttDrainTimeoutMs,
      proxyProtocol: config.mqttProxyProtocol,
    });
  }
  fieldlink.broker = broker;
  jobs.start();

  // Shutdown order: stop taking frames, write what is pending, then close sockets and storage.
  app.addHook('preClose', () => hub.closeAll());
  app.addHook('onClose', async () => {
    tlsCredentials?.close();
    await broker?.close();
    commands.cancelAll();
    await writer.flush();
    await writerThread?.close();
    await inbox?.close();
    await alarms.stop();
    await shelves.stop();
    await brewTanks.stop();
    ota.stop();
    logMaintenance.stop();
    brew.stopRetention();
    auditTrail.stopRetention();
    await jobs.stop();
    await reports.close();
    metrics.stop();
    mailer.close();
    await storage.close();
  });
  return app;
}
