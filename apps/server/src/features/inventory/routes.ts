import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { INVENTORY_CALLS } from '@fieldlink/services/inventory-service';
import { registerRouteCalls } from '../session/route-calls';
import type { InventoryService } from './service';

/** Inventory calls of application §7, answered from the shelf devices' data. */
export const inventoryRoutes: FastifyPluginAsyncTypebox<{ inventory: InventoryService }> = async (
  app,
  { inventory },
) => {
  app.addHook('onRequest', app.authenticate);
  registerRouteCalls(app, INVENTORY_CALLS, (user) => inventory.calls(user));
};
