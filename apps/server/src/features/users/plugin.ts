import fp from 'fastify-plugin';
import { REALTIME_CLOSE } from '@fieldlink/api/realtime';
import { registerApiRoutes } from '../../plugins/api-routes';
import { userRoutes } from './routes';
import { UserService } from './service';

declare module 'fastify' {
  interface FastifyInstance {
    users: UserService;
  }
}

export const usersPlugin = fp(
  async (app) => {
    const users = new UserService({
      db: app.storage.db,
      mailer: app.mailer,
      publicUrl: app.config.publicUrl,
      // A user whose permissions or place changed reconnects.
      onAccessChanged: (id) =>
        app.accessChanged({ kind: 'usersChanged', userIds: [id], code: REALTIME_CLOSE.accessChanged }),
    });
    app.decorate('users', users);
    await registerApiRoutes(app, (api) => api.register(userRoutes, { users }));
  },
  { name: 'users', dependencies: ['settings', 'storage', 'auth', 'hub', 'mail'] },
);
