import fp from 'fastify-plugin';
import { HttpError, errorBody } from '../http-errors';

const DB_DOWN_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  '57P01',
  '57P02',
  '57P03',
  '08006',
  '08001',
  '08003',
  'SQLITE_BUSY',
]);

/** True for errors that mean the database is unreachable for now (answered 503, not 500). */
function isDatabaseUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  const message = error instanceof Error ? error.message : '';
  return (
    (typeof code === 'string' && DB_DOWN_CODES.has(code)) || /Connection terminated|connect ECONNREFUSED/.test(message)
  );
}

/**
 * One answer shape for every failure: an `HttpError` as thrown, a refused schema as 400
 * (`invalidRequest`), an unreachable database as 503 with `retry-after`, anything else as 500.
 */
export const errorHandlerPlugin = fp(
  async (app) => {
    app.setErrorHandler((error, request, reply) => {
      if (error instanceof HttpError) {
        return reply
          .code(error.statusCode)
          .headers(error.headers)
          .send({ ...errorBody(error.statusCode, error.message), ...error.details });
      }
      const failure = error as { validation?: unknown; statusCode?: number; message: string };
      if (failure.validation) return reply.code(400).send({ ...errorBody(400, failure.message), invalidRequest: true });
      if (failure.statusCode && failure.statusCode >= 400 && failure.statusCode < 500) {
        return reply.code(failure.statusCode).send(errorBody(failure.statusCode, failure.message));
      }
      if (isDatabaseUnavailable(error)) {
        request.log.warn({ err: error }, 'Database unavailable');
        return reply
          .code(503)
          .header('retry-after', '5')
          .send(errorBody(503, 'The service is briefly unavailable. Please try again.'));
      }
      request.log.error({ err: error }, 'Request failed');
      return reply.code(500).send(errorBody(500, 'Server error'));
    });
  },
  { name: 'error-handler' },
);
