import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sessionEndedBody } from '../http-errors';
import { installationSecret } from '../security/installation';
import { TokenService, tokenFromHeader } from '../security/tokens';
import { loadUserContext, type UserContext } from '../features/session/user-context';

declare module 'fastify' {
  interface FastifyInstance {
    tokens: TokenService;
    /** preHandler: answers 401 (marked `sessionEnded`) unless the request carries a valid session token. */
    authenticate: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /** The caller behind a token, or null. */
    userFromToken: (token: string | null) => Promise<UserContext | null>;
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
    app.decorate('userFromToken', async (token: string | null) => {
      if (!token) return null;
      const claims = await tokens.verify(token);
      return claims ? loadUserContext(app.storage.db, claims) : null;
    });
    app.decorate('authenticate', async (request: FastifyRequest, reply: FastifyReply) => {
      request.user = await app.userFromToken(tokenFromHeader(request.headers.authorization));
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
