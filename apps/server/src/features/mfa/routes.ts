import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AccountSecondFactorAnswer,
  AccountSecondFactorBody,
  AccountSecondFactorQuery,
  MfaStatusAnswer,
  RecoveryCodesAnswer,
  TotpCodeBody,
  TotpEnrolmentAnswer,
} from '@fieldlink/api/mfa';
import { ErrorAnswer, errorAnswers, OkAnswer } from '@fieldlink/api/errors';
import { signedInUser } from '../../plugins/auth';
import type { MfaService } from './service';

const errors = errorAnswers(400, 401, 409, 429);
const accountErrors = errorAnswers(400, 401, 403, 404);

/**
 * The caller's own second factor, and an account's requirement of one (issue 38 item 2). Reading and
 * setting up one's own also accept an enrol-only token: a user whose account requires a second
 * factor gets nothing else until it is set up.
 */
export const mfaRoutes: FastifyPluginAsyncTypebox<{ mfa: MfaService }> = async (app, { mfa }) => {
  const tags = ['session'];
  app.get(
    '/user/mfa',
    {
      onRequest: app.authenticateForEnrolment,
      schema: { tags, summary: 'The caller’s second factor', response: { 200: MfaStatusAnswer, 401: ErrorAnswer } },
    },
    (request) => mfa.status(signedInUser(request)),
  );
  app.post(
    '/user/mfa/totp',
    {
      onRequest: app.authenticateForEnrolment,
      schema: {
        tags,
        summary: 'Start setting up an authenticator app: answers its secret and otpauth:// URL',
        response: { 200: TotpEnrolmentAnswer, ...errors },
      },
    },
    (request) => mfa.startTotp(signedInUser(request)),
  );
  app.post(
    '/user/mfa/totp/confirm',
    {
      onRequest: app.authenticateForEnrolment,
      schema: {
        tags,
        summary:
          'Turn the authenticator app on with its first code: answers ten one-time recovery codes, and a session ' +
          'when called with an enrol-only token',
        body: TotpCodeBody,
        response: { 200: RecoveryCodesAnswer, ...errors },
      },
    },
    (request) => mfa.confirmTotp(signedInUser(request), request.body.code),
  );
  app.delete(
    '/user/mfa/totp',
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: 'Turn the authenticator app off with a current code or a recovery code',
        body: TotpCodeBody,
        response: { 200: OkAnswer, ...errors },
      },
    },
    async (request) => {
      await mfa.turnOffTotp(signedInUser(request), request.body.code);
      return { ok: true as const };
    },
  );
  app.get(
    '/account/second-factor',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['accounts'],
        summary: 'Whether an account requires a second factor of its users and its customers’ users',
        querystring: AccountSecondFactorQuery,
        response: { 200: AccountSecondFactorAnswer, ...accountErrors },
      },
    },
    (request) => mfa.accountRequirement(signedInUser(request), request.query.accountId),
  );
  app.put(
    '/account/second-factor',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['accounts'],
        summary: 'Require a second factor of an account’s users and its customers’ users, or stop requiring it',
        body: AccountSecondFactorBody,
        response: { 200: AccountSecondFactorAnswer, ...accountErrors },
      },
    },
    (request) => mfa.setAccountRequirement(signedInUser(request), request.body),
  );
};
