import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import { AccountAnswer } from '@fieldlink/api/account';
import { ACCOUNT_COLUMNS_QUERY, AccountColumnsAnswer, AccountQuery } from '@fieldlink/api/account-columns';
import { ErrorAnswer } from '@fieldlink/api/errors';
import { signedInUser } from '../../plugins/auth';
import type { AccountService } from './service';

/** Sends JSON text as it is: Fastify passes a string with a JSON type through without serialising it. */
function sendJson(reply: FastifyReply, json: string) {
  return reply.type('application/json; charset=utf-8').send(json);
}

export const accountRoutes: FastifyPluginAsyncTypebox<{ accounts: AccountService }> = async (app, { accounts }) => {
  app.get(
    '/account',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['accounts'],
        summary: 'The account tree in the caller’s scope',
        description:
          'With `format=columns` the same tree in a compact form: the devices as columns (AccountColumnsAnswer). ' +
          'Compressed (brotli or gzip) when the client accepts it.',
        querystring: AccountQuery,
        response: { 200: Type.Union([AccountAnswer, AccountColumnsAnswer]), 401: ErrorAnswer },
      },
    },
    async (request, reply) => {
      const user = signedInUser(request);
      // The service builds every field explicitly, so the answer is written with JSON.stringify: the
      // schema serialiser picks each nullable field's type by validating it, which at 100,000
      // devices took longer than reading them.
      const body =
        request.query.format === ACCOUNT_COLUMNS_QUERY
          ? await accounts.accountColumns(user)
          : await accounts.accounts(user);
      return sendJson(reply, JSON.stringify(body));
    },
  );
};
