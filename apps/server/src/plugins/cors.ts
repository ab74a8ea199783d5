import fp from 'fastify-plugin';

/** The headers the console sends with every call (core §7) besides the body's type. */
const REQUEST_HEADERS = 'authorization, content-type, x-client-type, x-client-version, x-subdomain';

/**
 * Cross-origin calls from a console served on another host (core §7: the API address comes from the
 * console's configuration): the origins of `ALLOWED_ORIGINS`, which may already open the real-time
 * socket, may call `/api/v1` too. Any other origin gets no CORS header, so browsers refuse it.
 */
export const corsPlugin = fp<{ allowedOrigins: readonly string[] }>(
  async (app, { allowedOrigins }) => {
    if (allowedOrigins.length === 0) return;
    const allowed = new Set(allowedOrigins);
    app.addHook('onRequest', async (request, reply) => {
      const origin = request.headers.origin;
      if (!origin || !allowed.has(origin) || !request.url.startsWith('/api/')) return;
      reply.header('access-control-allow-origin', origin).header('vary', 'Origin');
      if (request.method === 'OPTIONS' && request.headers['access-control-request-method']) {
        return reply
          .code(204)
          .header('access-control-allow-methods', 'GET, POST, PUT, DELETE')
          .header('access-control-allow-headers', REQUEST_HEADERS)
          .header('access-control-max-age', '600')
          .send();
      }
    });
  },
  { name: 'cors' },
);
