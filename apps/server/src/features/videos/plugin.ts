import fp from 'fastify-plugin';
import { registerApiRoutes } from '../../plugins/api-routes';
import { videoRoutes } from './routes';

/** Installation videos: a directory and addresses from the settings, no service to share. */
export const videosPlugin = fp(
  async (app) => {
    const { videosDir, videoUrls } = app.config;
    await registerApiRoutes(app, (api) => api.register(videoRoutes, { directory: videosDir, urls: videoUrls }));
  },
  { name: 'videos', dependencies: ['settings', 'auth'] },
);
