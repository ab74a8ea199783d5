import fp from 'fastify-plugin';
import { registerApiRoutes } from '../../plugins/api-routes';
import { sprayRoutes } from './routes';
import { SprayService } from './service';

declare module 'fastify' {
  interface FastifyInstance {
    spray: SprayService;
  }
}

export const sprayPlugin = fp(
  async (app) => {
    const spray = new SprayService(app.storage.db, app.commands, app.clock);
    app.decorate('spray', spray);
    await registerApiRoutes(app, (api) => api.register(sprayRoutes, { spray }));
  },
  { name: 'spray', dependencies: ['settings', 'storage', 'auth', 'ingest'] },
);
