import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DEVICE_TABLE_BINARY_QUERY, DEVICE_TABLE_FORMAT } from '@fieldlink/api/device-table';
import {
  DEVICE_TABLE_BINARY_FORMAT,
  DEVICE_TABLE_BINARY_TYPE,
  DEVICE_TABLE_ROUTE,
} from '@fieldlink/api/device-table-binary';
import { signedInUser } from '../../plugins/auth';
import { ifNoneMatchNames } from '../../plugins/compression';
import { deviceTableEtag, type DeviceTableService } from './service';

const gunzipAsync = promisify(gunzip);

/**
 * Sends a body that is already encoded: Fastify passes a Buffer through without serialising it, and
 * the route's schema still documents the JSON form.
 */
function sendEncoded(reply: FastifyReply, body: Buffer) {
  return reply.send(body);
}

/** The device table call (core §2). The body is built and compressed by the service, and sent as is. */
export const deviceTableRoutes: FastifyPluginAsyncTypebox<{ table: DeviceTableService }> = async (app, { table }) => {
  app.addHook('onRequest', app.authenticate);
  app.route({
    ...DEVICE_TABLE_ROUTE,
    handler: async (request, reply) => {
      const built = await table.table(signedInUser(request));
      const binary = request.query.format === DEVICE_TABLE_BINARY_QUERY;
      const etag = deviceTableEtag(built, binary ? DEVICE_TABLE_BINARY_FORMAT : DEVICE_TABLE_FORMAT);
      // no-cache: a browser keeps the table but asks each time whether it is still current.
      reply
        .header('etag', etag)
        .header('cache-control', 'private, no-cache')
        .header('vary', 'accept-encoding, authorization');
      if (ifNoneMatchNames(request.headers['if-none-match'], etag)) return reply.code(304).send(null);
      const body = binary ? built.binary : await built.json();
      reply.type(binary ? DEVICE_TABLE_BINARY_TYPE : 'application/json; charset=utf-8');
      if (/\bgzip\b/.test(request.headers['accept-encoding'] ?? '')) {
        return sendEncoded(reply.header('content-encoding', 'gzip'), body.gzip);
      }
      return sendEncoded(reply, await gunzipAsync(body.gzip));
    },
  });
};
