import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorAnswer } from '@fieldlink/api/errors';
import {
  BROADCAST_SPRAY_PATH,
  BroadcastSprayAnswer,
  BroadcastSprayBody,
  BroadcastSprayTooSoon,
} from '@fieldlink/api/spray';
import { errorBody } from '../../http-errors';
import { signedInUser } from '../../plugins/auth';
import { BroadcastTooSoon, type SprayService } from './service';

/** Spray calls of application §7. */
export const sprayRoutes: FastifyPluginAsyncTypebox<{ spray: SprayService }> = async (app, { spray }) => {
  app.addHook('onRequest', app.authenticate);
  app.post(
    BROADCAST_SPRAY_PATH,
    {
      schema: {
        tags: ['spray'],
        summary:
          'Broadcast spray: every connected sprayer of the group (and the groups beneath it) sprays now. Needs ' +
          'MOSNIX_BROADCAST_SPRAY (401 without it); one broadcast per sprayer per cool-down, whatever group is ' +
          'named (429 with retryAfterSeconds)',
        body: BroadcastSprayBody,
        response: {
          200: BroadcastSprayAnswer,
          400: ErrorAnswer,
          401: ErrorAnswer,
          404: ErrorAnswer,
          429: BroadcastSprayTooSoon,
        },
      },
    },
    async (request, reply) => {
      try {
        return await spray.broadcast(signedInUser(request), request.body);
      } catch (error) {
        if (!(error instanceof BroadcastTooSoon)) throw error;
        return reply
          .code(429)
          .headers(error.headers)
          .send({
            ...errorBody(429, error.message),
            statusCode: 429 as const,
            retryAfterSeconds: error.retryAfterSeconds,
          });
      }
    },
  );
};
