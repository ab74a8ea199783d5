import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { API_TOKEN_PREFIX } from '@fieldlink/domain/api-tokens';
import { READ_ONLY_TOKEN_REFUSAL } from '@fieldlink/domain/permissions';
import { errorBody, sessionEndedBody } from '../http-errors';
import { ApiTokenVerifier } from '../security/api-tokens';
import { installationSecret } from '../security/installation';
import { TokenService, tokenFromHeader } from '../security/tokens';
import { clientOrigin, loadUserContext, type UserContext } from '../features/session/user-context';

declare module 'fastify' {
  interface FastifyInstance {
    tokens: TokenService;
    /** preHandler: answers 401 (marked `sessionEnded`) unless the request carries a valid session token. */
    authenticate: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /**
     * preHandler of the calls that set up a second factor: `authenticate`, or an enrol-only token
     * (issue 38 item 2), which no other guard accepts.
     */
    authenticateForEnrolment: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /** The caller behind a token, or null; with the request, the caller knows where it came from. */
    userFromToken: (token: string | null, request?: FastifyRequest) => Promise<UserContext | null>;
  }
  interface FastifyRequest {
    user: UserContext | null;
  }
}

/** Methods that change nothing: all a read-only API token may call over HTTP. */
const READING_METHODS = new Set(['GET', 'HEAD']);

/**
 * Session tokens, personal API tokens (`flk_…`, issue 38 item 3) and the `authenticate` guard. A
 * token acts as its owner, loaded afresh on every call, so it never holds more than the owner holds
 * now and stops with the owner.
 */
export const authPlugin = fp(
  async (app) => {
    const { clock: now } = app;
    const secret = await installationSecret(app.storage.db, 'jwt_secret');
    const tokens = new TokenService(app.storage.db, secret, app.config.tokenTtlSeconds, now);
    const apiTokens = new ApiTokenVerifier(app.storage.db, now);
    app.decorate('tokens', tokens);
    app.decorateRequest('user', null);
    app.decorate('userFromToken', async (token: string | null, request?: FastifyRequest) => {
      if (!token) return null;
      let user: UserContext | null;
      if (token.startsWith(API_TOKEN_PREFIX)) {
        const found = await apiTokens.verify(token, request?.ip ?? null);
        const owner = found ? await loadUserContext(app.storage.db, found.claims) : null;
        user = owner && found ? { ...owner, apiToken: found.apiToken } : null;
      } else {
        const claims = await tokens.verify(token, request?.ip ?? null);
        user = claims ? await loadUserContext(app.storage.db, claims) : null;
      }
      if (!user || !request) return user;
      const channel = request.headers.upgrade?.toLowerCase() === 'websocket' ? 'realtime' : 'http';
      return { ...user, origin: clientOrigin(request.ip, channel, request.headers['user-agent']) };
    });
    const authenticate = async (request: FastifyRequest, reply: FastifyReply) => {
      request.user = await app.userFromToken(tokenFromHeader(request.headers.authorization), request);
      if (!request.user) {
        await reply.code(401).send(sessionEndedBody());
        return;
      }
      // A backstop behind the permission rules (which refuse a read-only token every capability that
      // changes something, here and over the real-time channel alike): no call but a read gets through.
      if (request.user.apiToken?.readOnly && !READING_METHODS.has(request.method)) {
        await reply.code(403).send(errorBody(403, READ_ONLY_TOKEN_REFUSAL));
      }
    };
    app.decorate('authenticate', authenticate);
    app.decorate('authenticateForEnrolment', async (request: FastifyRequest, reply: FastifyReply) => {
      const token = tokenFromHeader(request.headers.authorization);
      const claims = token && !token.startsWith(API_TOKEN_PREFIX) ? await tokens.verifyEnrolment(token) : null;
      const user = claims ? await loadUserContext(app.storage.db, claims) : null;
      if (user) {
        request.user = { ...user, origin: clientOrigin(request.ip, 'http', request.headers['user-agent']) };
        return;
      }
      await authenticate(request, reply);
    });
  },
  { name: 'auth', dependencies: ['settings', 'storage'] },
);

/** The signed-in caller of a route guarded by `authenticate`. */
export function signedInUser(request: FastifyRequest): UserContext {
  if (!request.user) throw new Error('Route is missing the authenticate guard');
  return request.user;
}
