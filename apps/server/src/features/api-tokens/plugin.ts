import fp from 'fastify-plugin';
import { registerApiRoutes } from '../../plugins/api-routes';
import { apiTokenRoutes } from './routes';
import { ApiTokenService } from './service';

declare module 'fastify' {
  interface FastifyInstance {
    /** Personal API tokens (issue 38 item 3); their checking is the auth plugin's. */
    apiTokens: ApiTokenService;
  }
}

export const apiTokensPlugin = fp(
  async (app) => {
    const apiTokens = new ApiTokenService({
      db: app.storage.db,
      now: app.clock,
      onRevoked: (id) => app.accessChanged({ kind: 'tokenEnded', tokenId: id }),
    });
    app.decorate('apiTokens', apiTokens);
    await registerApiRoutes(app, (api) => api.register(apiTokenRoutes, { apiTokens }));
  },
  { name: 'api-tokens', dependencies: ['settings', 'storage', 'auth', 'hub'] },
);
