import fp from 'fastify-plugin';
import { registerApiRoutes } from '../../plugins/api-routes';
import { inventoryRoutes } from './routes';
import { InventoryService } from './service';
import { ShelfTracker } from './shelf-tracker';

declare module 'fastify' {
  interface FastifyInstance {
    /** Follows the stock of smart shelves from the samples this instance stores. */
    shelves: ShelfTracker;
  }
}

export const inventoryPlugin = fp(
  async (app) => {
    const shelves = new ShelfTracker(app.storage.db, app.events, app.log);
    await shelves.start();
    app.decorate('shelves', shelves);
    app.shutdown.add('shelves', () => shelves.stop());
    await registerApiRoutes(app, (api) =>
      api.register(inventoryRoutes, { inventory: new InventoryService(app.storage.db) }),
    );
  },
  { name: 'inventory', dependencies: ['storage', 'auth', 'shutdown', 'ingest'] },
);
