import fp from 'fastify-plugin';
import type { Config } from '../../config';
import { registerApiRoutes } from '../../plugins/api-routes';
import { vapidKeyPair } from '../../security/installation';
import { pushRoutes } from './routes';
import { PushSender, generateVapidKeys } from './sender';
import { PushService } from './service';

declare module 'fastify' {
  interface FastifyInstance {
    /** Alarm notices to browsers (Web Push). */
    push: PushService;
    /** The installation's VAPID public key, which browsers subscribe with. */
    pushPublicKey: string;
  }
}

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

export const pushPlugin = fp(
  async (app) => {
    const { config } = app;
    const keys = await vapidKeyPair(app.storage.db, generateVapidKeys);
    const push = new PushService({
      db: app.storage.db,
      jobs: app.jobs,
      sender: new PushSender({
        keys,
        subject: vapidSubject(config),
        policy: { allowPrivate: config.webhookAllowPrivate },
        ttlSeconds: PUSH_TTL_SECONDS,
        timeoutMs: PUSH_TIMEOUT_MS,
      }),
      policy: { allowPrivate: config.webhookAllowPrivate },
      productName: config.productName,
      logger: app.log,
      now: app.clock,
    });
    app.decorate('push', push);
    app.decorate('pushPublicKey', keys.publicKey);
    await registerApiRoutes(app, (api) => api.register(pushRoutes, { push }));
  },
  { name: 'push', dependencies: ['settings', 'storage', 'auth', 'jobs'] },
);
