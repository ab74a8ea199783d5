import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorAnswer } from '@fieldlink/api/errors';
import {
  OverviewAnswer,
  OverviewQuery,
  StoreDeviceLogsAnswer,
  StoreDeviceLogsQuery,
  StoreStatusAnswer,
  StoreStatusQuery,
} from '@fieldlink/api/inventory';
import { signedInUser } from '../../plugins/auth';
import type { InventoryService } from './service';

const errors = { 400: ErrorAnswer, 401: ErrorAnswer, 403: ErrorAnswer, 404: ErrorAnswer };

/** Inventory calls of application §7, answered from the shelf devices' data. */
export const inventoryRoutes: FastifyPluginAsyncTypebox<{ inventory: InventoryService }> = async (
  app,
  { inventory },
) => {
  const tags = ['inventory'];
  app.addHook('onRequest', app.authenticate);
  app.get(
    '/inv/store-status',
    {
      schema: {
        tags,
        summary: 'A store’s figures and every product of its shelves (needs VIEW_DASH or VIEW_ACCOUNTS)',
        querystring: StoreStatusQuery,
        response: { 200: StoreStatusAnswer, ...errors },
      },
    },
    (request) => inventory.storeStatus(signedInUser(request), request.query),
  );
  app.get(
    '/inv/store-device-logs',
    {
      schema: {
        tags,
        summary: 'Stock counts of a store’s products over the last 90 days (needs VIEW_DASH or VIEW_ACCOUNTS)',
        querystring: StoreDeviceLogsQuery,
        response: { 200: StoreDeviceLogsAnswer, ...errors },
      },
    },
    (request) => inventory.storeDeviceLogs(signedInUser(request), request.query),
  );
  app.get(
    '/inv/overview',
    {
      schema: {
        tags,
        summary:
          'Range states, the last 14 days’ lost sales (and inefficiency with REPORTING_PLUS), star rating and the stores of a group',
        querystring: OverviewQuery,
        response: { 200: OverviewAnswer, ...errors },
      },
    },
    (request) => inventory.overview(signedInUser(request), request.query),
  );
};
