import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ClientConfig } from '@fieldlink/api/session';
import { SESSION_ROUTES, SESSION_START_ROUTES } from '@fieldlink/api/session';
import { errorAnswers, OkAnswer } from '@fieldlink/api/errors';
import { EndOtherSessionsAnswer, SessionDeleteQuery, SessionListAnswer } from '@fieldlink/api/sessions';
import { HttpError } from '../../http-errors';
import { signedInUser } from '../../plugins/auth';
import { RateLimiter } from '../../security/rate-limit';
import { newId } from '../../security/secrets';
import { tokenFromHeader } from '../../security/tokens';
import { siteOf } from '../passkeys/routes';
import type { SessionService } from './service';
import { clientOrigin } from './user-context';

/** A crash report is at most this large (its `errorInfo` is stored cut to 20,000 characters anyway). */
const EVENT_LOG_BODY_LIMIT = 64 * 1024;

/** Session calls of core §7, the crash report and the public client configuration. */
export const sessionRoutes: FastifyPluginAsyncTypebox<{
  sessions: SessionService;
  clientConfig: ClientConfig;
}> = async (app, { sessions, clientConfig }) => {
  const tags = ['session'];
  // Crash reports need no sign-in: 30 a minute per address keep them from filling the table.
  const eventLogByAddress = new RateLimiter(30, 60_000);
  app.route({
    ...SESSION_START_ROUTES.signIn,
    handler: (request) =>
      sessions.signIn(
        request.body.email,
        request.body.password,
        clientOrigin(request.ip, 'http', request.headers['user-agent']),
        { code: request.body.code, passkey: request.body.passkey, site: siteOf(request) },
      ),
  });
  app.route({
    ...SESSION_ROUTES.signOut,
    onRequest: app.authenticate,
    handler: async (request) => {
      await sessions.signOut(signedInUser(request));
      return { ok: true as const };
    },
  });
  const sessionErrors = errorAnswers(400, 401, 403, 404);
  app.get(
    '/sessions',
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: 'The caller’s signed-in sessions',
        response: { 200: SessionListAnswer, ...sessionErrors },
      },
    },
    (request) => sessions.listSessions(signedInUser(request)),
  );
  app.delete(
    '/sessions',
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: 'Sign one of the caller’s sessions out',
        querystring: SessionDeleteQuery,
        response: { 200: OkAnswer, ...sessionErrors },
      },
    },
    async (request) => {
      await sessions.endSession(signedInUser(request), request.query.id);
      return { ok: true as const };
    },
  );
  app.delete(
    '/sessions/others',
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: 'Sign every session of the caller out but this one',
        response: { 200: EndOtherSessionsAnswer, ...sessionErrors },
      },
    },
    (request) => sessions.endOthers(signedInUser(request)),
  );
  app.route({
    ...SESSION_ROUTES.self,
    onRequest: app.authenticate,
    handler: async (request) => sessions.self(signedInUser(request)),
  });
  app.route({
    ...SESSION_START_ROUTES.signUp,
    handler: (request) => sessions.signUp(request.body, request.ip),
  });
  app.route({
    ...SESSION_START_ROUTES.emailResetCode,
    handler: async (request) => {
      await sessions.requestPasswordReset(request.body.email, request.ip);
      return { ok: true as const };
    },
  });
  app.route({
    ...SESSION_START_ROUTES.passwordReset,
    handler: (request) => sessions.resetPassword(request.body, request.ip),
  });
  app.route({
    ...SESSION_ROUTES.eventLog,
    bodyLimit: EVENT_LOG_BODY_LIMIT,
    handler: async (request) => {
      const addressKey = `address:${request.ip}`;
      if (!eventLogByAddress.reserve(addressKey)) {
        throw new HttpError(429, 'Too many crash reports. Please try again later.', {
          'retry-after': String(eventLogByAddress.retryAfterSeconds(addressKey)),
        });
      }
      // The crash screen may show before sign-in: a token is used when present, never required.
      const user = await app.userFromToken(tokenFromHeader(request.headers.authorization));
      request.log.warn({ userId: user?.id, error: request.body.error }, 'Web client crash reported');
      await app.storage.db
        .insertInto('event_log')
        .values({
          id: newId(),
          user_id: user?.id ?? null,
          error: request.body.error,
          error_info:
            request.body.errorInfo === undefined ? null : JSON.stringify(request.body.errorInfo).slice(0, 20_000),
          created_at: Date.now(),
        })
        .execute();
      return { ok: true as const };
    },
  });
  app.route({
    ...SESSION_ROUTES.clientConfig,
    handler: async () => clientConfig,
  });
};
