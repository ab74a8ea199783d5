import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { MfaStatusAnswer, RecoveryCodesAnswer, TotpCodeBody, TotpEnrolmentAnswer } from '@fieldlink/api/mfa';
import { ErrorAnswer, OkAnswer } from '@fieldlink/api/errors';
import { signedInUser } from '../../plugins/auth';
import type { MfaService } from './service';

const errors = { 400: ErrorAnswer, 401: ErrorAnswer, 409: ErrorAnswer, 429: ErrorAnswer };

/** The caller's own second factor (issue 38 item 2). */
export const mfaRoutes: FastifyPluginAsyncTypebox<{ mfa: MfaService }> = async (app, { mfa }) => {
  const tags = ['session'];
  app.get(
    '/user/mfa',
    {
      onRequest: app.authenticate,
      schema: { tags, summary: 'The caller’s second factor', response: { 200: MfaStatusAnswer, 401: ErrorAnswer } },
    },
    (request) => mfa.status(signedInUser(request)),
  );
  app.post(
    '/user/mfa/totp',
    {
      onRequest: app.authenticate,
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
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: 'Turn the authenticator app on with its first code: answers ten one-time recovery codes',
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
};
