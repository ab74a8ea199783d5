import fp from 'fastify-plugin';
import { registerApiRoutes } from '../../plugins/api-routes';
import { webhookRoutes } from './routes';
import { WebhookService } from './service';

declare module 'fastify' {
  interface FastifyInstance {
    /** The accounts' receivers of events and their deliveries. */
    webhooks: WebhookService;
  }
}

export const webhooksPlugin = fp(
  async (app) => {
    const { config } = app;
    const webhooks = new WebhookService({
      db: app.storage.db,
      jobs: app.jobs,
      policy: { allowPrivate: config.webhookAllowPrivate },
      publicUrl: config.publicUrl,
      now: app.clock,
    });
    app.decorate('webhooks', webhooks);
    await registerApiRoutes(app, (api) => api.register(webhookRoutes, { webhooks }));
  },
  { name: 'webhooks', dependencies: ['settings', 'storage', 'auth', 'jobs'] },
);
