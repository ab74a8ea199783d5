import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { INVENTORY_ROUTES } from '@fieldlink/api/inventory';
import { signedInUser } from '../../plugins/auth';
import type { InventoryService } from './service';

/** Inventory calls of application §7, answered from the shelf devices' data. */
export const inventoryRoutes: FastifyPluginAsyncTypebox<{ inventory: InventoryService }> = async (
  app,
  { inventory },
) => {
  app.addHook('onRequest', app.authenticate);
  app.route({
    ...INVENTORY_ROUTES.storeStatus,
    handler: (request) => inventory.storeStatus(signedInUser(request), request.query),
  });
  app.route({
    ...INVENTORY_ROUTES.storeDeviceLogs,
    handler: (request) => inventory.storeDeviceLogs(signedInUser(request), request.query),
  });
  app.route({
    ...INVENTORY_ROUTES.overview,
    handler: (request) => inventory.overview(signedInUser(request), request.query),
  });
};
