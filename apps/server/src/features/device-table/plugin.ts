import fp from 'fastify-plugin';
import { registerApiRoutes } from '../../plugins/api-routes';
import { deviceTableRoutes } from './routes';
import { DeviceTableService } from './service';

declare module 'fastify' {
  interface FastifyInstance {
    deviceTable: DeviceTableService;
  }
}

export const deviceTablePlugin = fp(
  async (app) => {
    const table = new DeviceTableService(app.storage.db);
    app.decorate('deviceTable', table);
    await registerApiRoutes(app, (api) => api.register(deviceTableRoutes, { table }));
  },
  { name: 'device-table', dependencies: ['storage', 'auth'] },
);
