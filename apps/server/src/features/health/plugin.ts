import fp from 'fastify-plugin';
import { registerApiRoutes } from '../../plugins/api-routes';
import { healthRoutes } from './routes';

/** Liveness and readiness: nothing to share but the database's ping. */
export const healthPlugin = fp(
  async (app) => {
    await registerApiRoutes(app, (api) => api.register(healthRoutes, { ping: app.storage.ping }));
  },
  { name: 'health', dependencies: ['storage'] },
);
