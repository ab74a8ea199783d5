import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { ACCOUNT_COLUMNS_QUERY, ACCOUNT_ROUTES } from '@fieldlink/api/account-columns';
import { signedInUser } from '../../plugins/auth';
import { addVary, chooseContentCoding, type ContentCoding } from '../../plugins/compression';
import type { AccountService } from './service';

/**
 * Sends JSON text, or JSON already compressed with `coding`, as it is: Fastify passes a string or a
 * buffer with a JSON type through without serialising it, and the compression hook leaves an answer
 * that has a `Content-Encoding`.
 */
function sendJson(reply: FastifyReply, body: string | Buffer, coding: ContentCoding | null) {
  addVary(reply, 'accept-encoding');
  if (coding) reply.header('content-encoding', coding);
  return reply.type('application/json; charset=utf-8').send(body);
}

export const accountRoutes: FastifyPluginAsyncTypebox<{ accounts: AccountService }> = async (app, { accounts }) => {
  app.route({
    ...ACCOUNT_ROUTES.account,
    onRequest: app.authenticate,
    handler: async (request, reply) => {
      const user = signedInUser(request);
      // The service builds every field explicitly, so the answer is written with JSON.stringify: the
      // schema serialiser picks each nullable field's type by validating it, which at 100,000
      // devices took longer than reading them. The tree, its JSON and its compressed forms are kept
      // while nothing it shows changes (AccountService). The caller was authenticated (onRequest)
      // before its tag is looked at, and the tag is compared with the caller's own tree only.
      const answer = await accounts.answer(
        user,
        request.query.format === ACCOUNT_COLUMNS_QUERY ? 'columns' : 'plain',
        chooseContentCoding(request.headers['accept-encoding']),
        request.headers['if-none-match'],
      );
      // no-cache: a browser keeps the tree but asks each time whether it is still current; private:
      // no shared cache keeps it. A console holding the tree asks with its tag and gets a 304.
      reply.header('etag', answer.etag).header('cache-control', 'private, no-cache');
      addVary(reply, 'authorization');
      if (answer.notModified) {
        addVary(reply, 'accept-encoding');
        return reply.code(304).send(null);
      }
      return sendJson(reply, answer.body, answer.coding);
    },
  });
};
