import type { FastifyInstance, FastifyServerOptions } from 'fastify';
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
import { serverInstance } from './plugins/server-instance';
import { settingsPlugin, type SettingsOptions } from './plugins/settings';
import { storagePlugin } from './plugins/storage';
import { tlsPlugin } from './plugins/tls';
import { webPlugin } from './plugins/web';
import { webManifestPlugin } from './plugins/web-manifest';
import { hubPlugin } from './realtime/hub-plugin';

export interface AppOptions extends SettingsOptions {
  storage: Storage;
  logger?: FastifyServerOptions['logger'];
}

/**
 * Every plugin after the four that take the starting process's options, in this order: each names
 * the ones it needs (`dependencies`) and Fastify refuses a list that registers a plugin before them.
 * Hooks and the API docs come before the routes they see; devices connect last, then jobs start.
 */
const APP_PLUGINS = [
  errorHandlerPlugin,
  securityHeadersPlugin,
  compressionPlugin,
  authPlugin,
  corsPlugin,
  drainPlugin,
  apiDocsPlugin,
  jobsPlugin,
  ingestPlugin,
  devicesPlugin,
  hubPlugin,
  metricsPlugin,
  emqxAuthPlugin,
  realtimePlugin,
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
  otaPlugin,
  webManifestPlugin,
  webPlugin,
  brokerPlugin,
  startPlugin,
];

/** Builds the whole server: API, real-time hub, embedded broker and ingest, SPA. */
export async function buildApp({ storage, logger, ...settings }: AppOptions): Promise<FastifyInstance> {
  const { app, tls } = serverInstance(settings.config, logger);
  await app.register(settingsPlugin, settings);
  await app.register(shutdownPlugin);
  await app.register(tlsPlugin, { credentials: tls });
  await app.register(storagePlugin, { storage });
  for (const plugin of APP_PLUGINS) await app.register(plugin);
  return app;
}
