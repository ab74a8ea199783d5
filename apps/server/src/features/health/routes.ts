import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorAnswer, OkAnswer } from '@fieldlink/api/errors';
import type { Storage } from '../../db/database';
import { errorBody } from '../../http-errors';

/** A readiness check that has not heard from the database in this long answers 503. */
const READY_TIMEOUT_MS = 2_000;

const NOT_READY = 'The database does not answer; this instance is not ready.';

/**
 * `GET /health` (liveness: the process answers, nothing else is touched, so a database outage does
 * not make a supervisor restart every instance) and `GET /ready` (readiness, for load balancers: the
 * database answers a query within {@link READY_TIMEOUT_MS}; otherwise 503 and no traffic is sent here).
 */
export const healthRoutes: FastifyPluginAsyncTypebox<Pick<Storage, 'ping'>> = async (app, { ping }) => {
  app.get('/health', { schema: { hide: true } }, async () => ({ ok: true }));
  app.get(
    '/ready',
    { schema: { hide: true, response: { 200: OkAnswer, 503: ErrorAnswer } } },
    async (request, reply) => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(new Error(`No answer in ${READY_TIMEOUT_MS} ms`)), READY_TIMEOUT_MS);
      });
      try {
        await Promise.race([ping(), timeout]);
        return { ok: true as const };
      } catch (error) {
        request.log.warn({ err: error }, 'Readiness check failed');
        return reply.code(503).header('retry-after', '5').send(errorBody(503, NOT_READY));
      } finally {
        clearTimeout(timer);
      }
    },
  );
};
