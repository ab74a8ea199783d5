import Fastify, { LogController, type FastifyServerOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type http from 'node:http';
import https from 'node:https';
import type { Config } from '../config';
import { proxyTrust } from '../security/client-address';
import { TlsCredentials } from '../security/tls-credentials';
import { lazySchemaCompilers } from './lazy-schemas';

declare module 'fastify' {
  interface FastifyInstance {
    /** Compiles every route schema not compiled yet (they compile on first use): a test's check. */
    compileSchemas(): void;
  }
}

/**
 * The Fastify instance before any plugin: HTTPS (and so WSS for the real-time channel and MQTT over
 * WebSocket) on the same port when TLS is configured, with the certificate read before the server
 * exists (its reloads log through the app's logger). `tls` is handed to {@link tlsPlugin}.
 */
export function serverInstance(config: Config, logger: FastifyServerOptions['logger'] = false) {
  const tls = config.tls
    ? new TlsCredentials(config.tls, {
        info: (object, message) => app.log.info(object, message),
        warn: (object, message) => app.log.warn(object, message),
      })
    : null;
  const schemas = lazySchemaCompilers();
  const app = Fastify({
    logger,
    // Fastify's types stay those of the HTTP server it otherwise makes.
    ...(tls && {
      serverFactory: (handler: http.RequestListener) => {
        const server = https.createServer(tls.serverOptions, handler);
        tls.follow(server);
        return server as unknown as http.Server;
      },
    }),
    // One line per request is noise at info level; LOG_LEVEL=debug shows them.
    logController: new LogController({ disableRequestLogging: config.logLevel !== 'debug' }),
    // Shutdown must not wait on a browser's open connections: pending writes are flushed in onClose.
    forceCloseConnections: true,
    // Only the configured proxies' word names the client (per-address limits, `/metrics`): SECURITY.md 22.
    trustProxy: proxyTrust(config.trustProxy),
    // Each route's schemas compile on its first request, not all at start (lazy-schemas.ts).
    schemaController: { compilersFactory: schemas.compilersFactory },
    ajv: { customOptions: { removeAdditional: false, coerceTypes: 'array', useDefaults: true, allErrors: false } },
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.decorate('compileSchemas', schemas.compileAll);
  return { app, tls };
}
