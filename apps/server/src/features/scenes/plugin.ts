import fp from 'fastify-plugin';
import { registerApiRoutes } from '../../plugins/api-routes';
import { sceneRoutes } from './routes';
import { SceneService } from './service';

declare module 'fastify' {
  interface FastifyInstance {
    scenes: SceneService;
  }
}

export const scenesPlugin = fp(
  async (app) => {
    const scenes = new SceneService(app.storage.db);
    app.decorate('scenes', scenes);
    await registerApiRoutes(app, (api) => api.register(sceneRoutes, { scenes }));
  },
  { name: 'scenes', dependencies: ['storage', 'auth'] },
);
