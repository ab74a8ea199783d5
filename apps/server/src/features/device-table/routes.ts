import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DEVICE_TABLE_PATH, DeviceTableAnswer, DeviceTableQuery } from '@fieldlink/api/device-table';
import { ErrorAnswer } from '@fieldlink/api/errors';
import { signedInUser } from '../../plugins/auth';
import type { DeviceTableService } from './service';

const gunzipAsync = promisify(gunzip);

/** True when `If-None-Match` names the ETag (a list, `*`, or weak and strong forms alike). */
function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || bare(tag) === bare(etag));
}

/**
 * Sends a body that is already JSON: Fastify passes a Buffer through without serialising it, and the
 * route's schema still documents the JSON inside.
 */
function sendEncoded(reply: FastifyReply, body: Buffer) {
  return reply.send(body);
}

/** The device table call (core §2). The body is built and compressed by the service, and sent as is. */
export const deviceTableRoutes: FastifyPluginAsyncTypebox<{ table: DeviceTableService }> = async (app, { table }) => {
  app.addHook('onRequest', app.authenticate);
  app.get(
    DEVICE_TABLE_PATH,
    {
      schema: {
        tags: ['devices'],
        summary:
          'Every device the caller may see, as columns (the device table). Validated with an ETag; ' +
          'gzip-compressed when the client accepts it.',
        querystring: DeviceTableQuery,
        response: {
          200: DeviceTableAnswer,
          304: Type.Null({ description: 'Not modified: the ETag in If-None-Match is current.' }),
          400: ErrorAnswer,
          401: ErrorAnswer,
        },
      },
    },
    async (request, reply) => {
      const built = await table.table(signedInUser(request));
      // no-cache: a browser keeps the table but asks each time whether it is still current.
      reply
        .header('etag', built.etag)
        .header('cache-control', 'private, no-cache')
        .header('vary', 'accept-encoding, authorization');
      if (matchesEtag(request.headers['if-none-match'], built.etag)) return reply.code(304).send(null);
      reply.type('application/json; charset=utf-8');
      if (/\bgzip\b/.test(request.headers['accept-encoding'] ?? '')) {
        return sendEncoded(reply.header('content-encoding', 'gzip'), built.gzip);
      }
      return sendEncoded(reply, await gunzipAsync(built.gzip));
    },
  );
};
