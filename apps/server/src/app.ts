import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type http from 'node:http';
import https from 'node:https';
import type { Config } from './config';
import type { Storage } from './db/database';
import { brokerPlugin } from './broker/broker-plugin';
import { emqxAuthPlugin } from './broker/emqx-http-auth';
import { filesPlugin } from './documents/files-plugin';
import { accountsPlugin } from './features/accounts/plugin';
import { alarmsPlugin } from './features/alarms/plugin';
import { apiTokensPlugin } from './features/api-tokens/plugin';
import { auditPlugin } from './features/audit/plugin';
import { brewPlugin } from './features/brew/plugin';
import { deviceTablePlugin } from './features/device-table/plugin';
import { devicesPlugin } from './features/devices/plugin';
import { groupsPlugin } from './features/groups/plugin';
import { healthPlugin } from './features/health/plugin';
import { inventoryPlugin } from './features/inventory/plugin';
import { notificationsPlugin } from './features/notifications/plugin';
import type { OtaOptions } from './features/ota/service';
import { otaPlugin } from './features/ota/plugin';
import { pushPlugin } from './features/push/plugin';
import { reportsPlugin } from './features/reports/plugin';
import { scenesPlugin } from './features/scenes/plugin';
import { sessionPlugin } from './features/session/plugin';
import { smsPlugin } from './features/sms/plugin';
import { sprayPlugin } from './features/spray/plugin';
import { usersPlugin } from './features/users/plugin';
import { videosPlugin } from './features/videos/plugin';
import { webhooksPlugin } from './features/webhooks/plugin';
import { ingestPlugin } from './ingest/ingest-plugin';
import { jobsPlugin } from './jobs/jobs-plugin';
import { mailPlugin } from './mail/mail-plugin';
import { metricsPlugin } from './metrics/metrics-plugin';
import { apiDocsPlugin } from './plugins/api-docs';
import { authPlugin } from './plugins/auth';
import { compressionPlugin } from './plugins/compression';
import { corsPlugin } from './plugins/cors';
import { drainPlugin } from './plugins/drain';
import { errorHandlerPlugin } from './plugins/error-handler';
import { shutdownPlugin, startPlugin } from './plugins/lifecycle';
import { realtimePlugin } from './plugins/realtime';
import { securityHeadersPlugin } from './plugins/security-headers';
import { settingsPlugin } from './plugins/settings';
import { storagePlugin } from './plugins/storage';
import { webPlugin } from './plugins/web';
import { webManifestPlugin } from './plugins/web-manifest';
import { hubPlugin } from './realtime/hub-plugin';
import { proxyTrust } from './security/client-address';
import { TlsCredentials } from './security/tls-credentials';

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

  // In this order: each plugin names the ones it needs (`dependencies`), and Fastify refuses a list
  // that registers a plugin before them. Hooks and the API docs come before the routes they see.
  await app.register(settingsPlugin, { config, now });
  await app.register(errorHandlerPlugin);
  await app.register(shutdownPlugin);
  await app.register(securityHeadersPlugin, { config });
  await app.register(storagePlugin, { storage });
  await app.register(compressionPlugin);
  await app.register(authPlugin, { tokenTtlSeconds: config.tokenTtlSeconds, now });
  await app.register(corsPlugin, { allowedOrigins: config.allowedOrigins });
  await app.register(drainPlugin);
  await app.register(apiDocsPlugin);
  await app.register(jobsPlugin);
  await app.register(ingestPlugin, { commandTimeoutMs });
  await app.register(devicesPlugin);
  await app.register(hubPlugin);
  await app.register(metricsPlugin);
  await app.register(emqxAuthPlugin);
  await app.register(realtimePlugin);
  for (const feature of [
    filesPlugin,
    mailPlugin,
    webhooksPlugin,
    pushPlugin,
    smsPlugin,
    notificationsPlugin,
    alarmsPlugin,
    inventoryPlugin,
    sessionPlugin,
    apiTokensPlugin,
    deviceTablePlugin,
    sprayPlugin,
    accountsPlugin,
    usersPlugin,
    groupsPlugin,
    scenesPlugin,
    reportsPlugin,
    brewPlugin,
    auditPlugin,
    videosPlugin,
    healthPlugin,
  ]) {
    await app.register(feature);
  }
  await app.register(otaPlugin, { timings: otaOptions });
  await app.register(webManifestPlugin, { productName: config.productName, defaultTheme: config.defaultTheme });
  await app.register(webPlugin, { webDist: config.webDist });
  await app.register(brokerPlugin, { mqttPort, plainMqtt, mqttTlsPort, tls: tlsCredentials });
  await app.register(startPlugin);
  return app;
}
