import fp from 'fastify-plugin';
import websocket from '@fastify/websocket';
import { createWebSocketStream } from 'ws';
import { REALTIME_PATH, REALTIME_PROTOCOL } from '@fieldlink/api/realtime';
import { errorBody, sessionEndedBody } from '../http-errors';
import { tokenFromHeader } from '../security/tokens';

/** The token a browser offers as the second WebSocket sub-protocol beside `fieldlink.v1`. */
function tokenFromProtocols(header: string | undefined): string | null {
  const offered = (header ?? '').split(',').map((part) => part.trim());
  return offered[0] === REALTIME_PROTOCOL && offered[1] ? offered[1] : null;
}

/** The origin (scheme, host and port; a scheme's default port left out) of an address, or null. */
function originOf(address: string): string | null {
  try {
    const { origin } = new URL(address);
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

/**
 * A browser always sends Origin; it must be one of this server's own (the address the request came
 * to, and `PUBLIC_URL`) or a configured one (cross-site WebSocket hijacking), compared by scheme, host
 * and port: a page on another port of the same host, or served over another scheme, is another site.
 * Clients without Origin are not browsers and rely on the token alone.
 */
function isAllowedOrigin(origin: string | undefined, own: readonly string[], allowed: readonly string[]): boolean {
  if (origin === undefined) return true;
  const given = originOf(origin);
  return given !== null && [...own, ...allowed].some((address) => originOf(address) === given);
}

/**
 * The real-time WebSocket (token and Origin checked before the upgrade: the console's `PUBLIC_URL` and
 * `ALLOWED_ORIGINS` are allowed besides the address a request came to) and MQTT over WebSocket, taken
 * by the broker when one runs in this process.
 */
export const realtimePlugin = fp(
  async (app) => {
    const { hub } = app;
    const { allowedOrigins, publicUrl } = app.config;
    await app.register(websocket, {
      options: {
        maxPayload: 64 * 1024,
        handleProtocols: (protocols) => {
          if (protocols.has(REALTIME_PROTOCOL)) return REALTIME_PROTOCOL;
          if (protocols.has('mqtt')) return 'mqtt';
          return false;
        },
      },
    });

    app.get(
      REALTIME_PATH,
      {
        websocket: true,
        schema: { hide: true },
        preValidation: async (request, reply) => {
          const own = [`${request.protocol}://${request.host}`, publicUrl];
          if (!isAllowedOrigin(request.headers.origin, own, allowedOrigins)) {
            return reply.code(403).send(errorBody(403, 'Origin not allowed.'));
          }
          const token =
            tokenFromProtocols(request.headers['sec-websocket-protocol']) ??
            tokenFromHeader(request.headers.authorization) ??
            null;
          request.user = await app.userFromToken(token, request);
          if (!request.user) return reply.code(401).send(sessionEndedBody());
        },
      },
      (socket, request) => {
        hub.attach(socket, request.user!, request.raw.socket);
      },
    );

    app.get('/mqtt', { websocket: true, schema: { hide: true } }, (socket, request) => {
      const target = app.broker;
      if (!target) {
        socket.close(1013, 'No broker in this process');
        return;
      }
      target.handleStream(createWebSocketStream(socket), request.ip);
    });
  },
  { name: 'realtime', dependencies: ['settings', 'auth', 'ingest', 'hub'] },
);
