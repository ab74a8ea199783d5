import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AccountAnswer } from '@fieldlink/api/account';
import { ErrorAnswer } from '@fieldlink/api/errors';
import { signedInUser } from '../../plugins/auth';
import type { AccountService } from './service';

export const accountRoutes: FastifyPluginAsyncTypebox<{ accounts: AccountService }> = async (app, { accounts }) => {
  app.get(
    '/account',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['accounts'],
        summary: 'The account tree in the caller’s scope',
        response: { 200: AccountAnswer, 401: ErrorAnswer },
      },
    },
    (request) => accounts.accounts(signedInUser(request)),
  );
};
