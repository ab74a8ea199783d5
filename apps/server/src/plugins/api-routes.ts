import type { FastifyInstance } from 'fastify';
import { normaliseTimestamps, rejectUnsafeInput } from './input-guard';

/**
 * Registers a feature's routes under `/api/v1`, behind the input guard every API call passes
 * (unsafe text refused, timestamps normalised) before its handler.
 */
export async function registerApiRoutes(
  app: FastifyInstance,
  routes: (api: FastifyInstance) => PromiseLike<unknown>,
): Promise<void> {
  await app.register(
    async (api) => {
      api.addHook('preHandler', rejectUnsafeInput);
      api.addHook('preHandler', normaliseTimestamps);
      await routes(api);
    },
    { prefix: '/api/v1' },
  );
}
