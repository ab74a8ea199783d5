import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sessionEndedBody } from '../http-errors';
import { installationSecret } from '../security/installation';
import { TokenService, tokenFromHeader } from '../security/tokens';
import { clientOrigin, loadUserContext, type UserContext } from '../features/session/user-context';

declare module 'fastify' {
  interface FastifyInstance {
    tokens: TokenService;
    /** preHandler: answers 401 (marked `sessionEnded`) unless the request carries a valid session token. */
    authenticate: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /** The caller behind a token, or null; with the request, the caller knows where it came from. */
    userFromToken: (token: string | null, request?: FastifyRequest) => Promise<UserContext | null>;
  }
  interface FastifyRequest {
    user: UserContext | null;
  }
}

/** Session tokens and the `authenticate` guard. */
export const authPlugin = fp<{ tokenTtlSeconds: number }>(
  async (app, { tokenTtlSeconds }) => {
    const secret = await installationSecret(app.storage.db, 'jwt_secret');
    const tokens = new TokenService(app.storage.db, secret, tokenTtlSeconds);
    app.decorate('tokens', tokens);
    app.decorateRequest('user', null);
    app.decorate('userFromToken', async (token: string | null, request?: FastifyRequest) => {
      if (!token) return null;
      const claims = await tokens.verify(token);
      const user = claims ? await loadUserContext(app.storage.db, claims) : null;
      if (!user || !request) return user;
      const channel = request.headers.upgrade?.toLowerCase() === 'websocket' ? 'realtime' : 'http';
      return { ...user, origin: clientOrigin(request.ip, channel, request.headers['user-agent']) };
    });
    app.decorate('authenticate', async (request: FastifyRequest, reply: FastifyReply) => {
      request.user = await app.userFromToken(tokenFromHeader(request.headers.authorization), request);
      if (!request.user) {
        await reply.code(401).send(sessionEndedBody());
      }
    });
  },
  { name: 'auth', dependencies: ['storage'] },
);

/** The signed-in caller of a route guarded by `authenticate`. */
export function signedInUser(request: FastifyRequest): UserContext {
  if (!request.user) throw new Error('Route is missing the authenticate guard');
  return request.user;
}
