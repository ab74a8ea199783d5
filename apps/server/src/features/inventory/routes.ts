import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { INVENTORY_CALLS } from '@fieldlink/services/inventory-service';
import { signedInUser } from '../../plugins/auth';
import type { InventoryService } from './service';

/** Inventory calls of application §7, answered from the shelf devices' data. */
export const inventoryRoutes: FastifyPluginAsyncTypebox<{ inventory: InventoryService }> = async (
  app,
  { inventory },
) => {
  app.addHook('onRequest', app.authenticate);
  for (const call of INVENTORY_CALLS) {
    app.route({ ...call.route, handler: (request) => inventory.answer(signedInUser(request), call, request as never) });
  }
};
