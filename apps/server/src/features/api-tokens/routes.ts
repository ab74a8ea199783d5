import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ApiTokenCreateAnswer,
  ApiTokenCreateBody,
  ApiTokenDeleteQuery,
  ApiTokenListAnswer,
} from '@fieldlink/api/api-tokens';
import { errorAnswers, OkAnswer } from '@fieldlink/api/errors';
import { signedInUser } from '../../plugins/auth';
import type { ApiTokenService } from './service';

const errors = errorAnswers(400, 401, 403, 404, 409);

/** Personal API tokens (issue 38 item 3): the caller's own, from a signed-in session. */
export const apiTokenRoutes: FastifyPluginAsyncTypebox<{ apiTokens: ApiTokenService }> = async (app, { apiTokens }) => {
  const tags = ['api-tokens'];
  app.addHook('onRequest', app.authenticate);
  app.post(
    '/api-tokens',
    {
      schema: {
        tags,
        summary: 'Make a personal API token; its secret is answered this once',
        body: ApiTokenCreateBody,
        response: { 200: ApiTokenCreateAnswer, ...errors },
      },
    },
    (request) => apiTokens.create(signedInUser(request), request.body),
  );
  app.get(
    '/api-tokens',
    {
      schema: {
        tags,
        summary: 'The caller’s API tokens with their last use',
        response: { 200: ApiTokenListAnswer, ...errors },
      },
    },
    (request) => apiTokens.list(signedInUser(request)),
  );
  app.delete(
    '/api-tokens',
    {
      schema: {
        tags,
        summary: 'Revoke one of the caller’s API tokens at once',
        querystring: ApiTokenDeleteQuery,
        response: { 200: OkAnswer, ...errors },
      },
    },
    async (request) => {
      await apiTokens.revoke(signedInUser(request), request.query.id);
      return { ok: true as const };
    },
  );
};
