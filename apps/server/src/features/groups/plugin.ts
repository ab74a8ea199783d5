import fp from 'fastify-plugin';
import { REALTIME_CLOSE } from '@fieldlink/api/realtime';
import { registerApiRoutes } from '../../plugins/api-routes';
import { groupRoutes } from './routes';
import { GroupService } from './service';

declare module 'fastify' {
  interface FastifyInstance {
    groups: GroupService;
  }
}

export const groupsPlugin = fp(
  async (app) => {
    const groups = new GroupService({
      db: app.storage.db,
      // Users moved reconnect; a moved device is authorised again.
      onUsersMoved: (userIds) =>
        app.accessChanged({ kind: 'usersChanged', userIds: [...userIds], code: REALTIME_CLOSE.accessChanged }),
      onDevicesMoved: (thingNames) => app.accessChanged({ kind: 'devicesMoved', thingNames: [...thingNames] }),
    });
    app.decorate('groups', groups);
    await registerApiRoutes(app, (api) => api.register(groupRoutes, { groups }));
  },
  { name: 'groups', dependencies: ['storage', 'auth', 'hub'] },
);
