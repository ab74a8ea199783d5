import fp from 'fastify-plugin';
import { registerApiRoutes } from '../../plugins/api-routes';
import { accountRoutes } from './routes';
import { AccountService } from './service';

declare module 'fastify' {
  interface FastifyInstance {
    accounts: AccountService;
  }
}

export const accountsPlugin = fp(
  async (app) => {
    const accounts = new AccountService(app.storage.db);
    app.decorate('accounts', accounts);
    await registerApiRoutes(app, (api) => api.register(accountRoutes, { accounts }));
  },
  { name: 'accounts', dependencies: ['storage', 'auth'] },
);
