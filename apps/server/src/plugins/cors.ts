import fastifyCors from '@fastify/cors';
import fp from 'fastify-plugin';

/** The headers the console sends with every call (core §7) besides the body's type. */
const REQUEST_HEADERS = ['authorization', 'content-type', 'x-client-type', 'x-client-version', 'x-subdomain'];

/**
 * Cross-origin calls from a console served on another host (core §7: the API address comes from the
 * console's configuration), on `@fastify/cors`: the origins of `ALLOWED_ORIGINS`, which may already
 * open the real-time socket, may call `/api/v1` too. Any other origin, and any other path, gets no
 * CORS header, so browsers refuse it.
 */
export const corsPlugin = fp(
  async (app) => {
    const { allowedOrigins } = app.config;
    if (allowedOrigins.length === 0) return;
    const allowed = new Set(allowedOrigins);
    await app.register(fastifyCors, {
      delegator: (request, callback) => {
        const origin = request.headers.origin;
        callback(null, {
          origin: origin !== undefined && allowed.has(origin) && request.url.startsWith('/api/') ? origin : false,
          methods: ['GET', 'POST', 'PUT', 'DELETE'],
          allowedHeaders: REQUEST_HEADERS,
          maxAge: 600,
        });
      },
    });
  },
  { name: 'cors', dependencies: ['settings'] },
);
