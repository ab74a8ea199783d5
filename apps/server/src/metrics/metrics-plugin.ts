import { timingSafeEqual } from 'node:crypto';
import fp from 'fastify-plugin';
import { errorBody } from '../http-errors';
import { isFromThisMachine } from '../security/loopback';
import { tokenFromHeader } from '../security/tokens';
import { createFieldlinkMetrics } from './fieldlink-metrics';

function tokenMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(tokenFromHeader(header) ?? '');
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** `GET /metrics` in the Prometheus text format, and the answer-time histogram of every API call. */
/**
 * With `METRICS_TOKEN` set, a scrape must send `authorization: Bearer <token>`; unset, only this machine
 * may scrape (a loopback peer that forwards nobody else's request, or a trusted proxy's own loopback client).
 */
export const metricsPlugin = fp(
  async (app) => {
    const token = app.config.metricsToken;
    const metrics = createFieldlinkMetrics({
      db: app.storage.db,
      ingest: app.ingest,
      hub: app.hub,
      jobs: app.jobs,
      broker: () => app.broker,
      relay: () => app.relay,
    });
    app.shutdown.add('metrics', () => metrics.stop());
    app.addHook('onResponse', async (request, reply) => {
      const route = request.routeOptions.url ?? '(unmatched)';
      if (route === '/metrics') return;
      metrics.httpSeconds.observe(reply.elapsedTime / 1000, {
        method: request.method,
        route,
        status: `${Math.floor(reply.statusCode / 100)}xx`,
      });
    });

    app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
      if (token && !tokenMatches(request.headers.authorization, token)) {
        return reply.code(401).send(errorBody(401, 'A metrics token is needed.'));
      }
      if (!token && !isFromThisMachine(request)) {
        return reply
          .code(403)
          .send(
            errorBody(403, 'Metrics are answered only on this machine; set METRICS_TOKEN to scrape from elsewhere.'),
          );
      }
      return reply.type('text/plain; version=0.0.4; charset=utf-8').send(await metrics.registry.render());
    });
  },
  { name: 'metrics', dependencies: ['settings', 'storage', 'shutdown', 'jobs', 'ingest', 'hub'] },
);
