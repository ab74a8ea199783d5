import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import {
  PasskeyAddAnswer,
  PasskeyAddBody,
  PasskeyCreationOptions,
  PasskeyDeleteQuery,
  PasskeyListAnswer,
  PasskeyRequestOptions,
  PasskeySigninBody,
} from '@fieldlink/api/passkeys';
import { JwtAnswer } from '@fieldlink/api/session';
import { ErrorAnswer, OkAnswer } from '@fieldlink/api/errors';
import { signedInUser } from '../../plugins/auth';
import { clientOrigin } from '../session/user-context';
import type { PasskeyService } from './service';

const errors = {
  400: ErrorAnswer,
  401: ErrorAnswer,
  403: ErrorAnswer,
  404: ErrorAnswer,
  409: ErrorAnswer,
  429: ErrorAnswer,
};

/** The page's origin as the request names it: a passkey's answer carries the origin it was made at. */
export function siteOf(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

/**
 * Passkeys (issue 38 item 2): the caller's own (adding one also with an enrol-only token, as TOTP),
 * and signing in with one and no password.
 */
export const passkeyRoutes: FastifyPluginAsyncTypebox<{ passkeys: PasskeyService }> = async (app, { passkeys }) => {
  const tags = ['session'];
  app.get(
    '/user/passkeys',
    {
      onRequest: app.authenticate,
      schema: { tags, summary: 'The caller’s passkeys', response: { 200: PasskeyListAnswer, ...errors } },
    },
    (request) => passkeys.list(signedInUser(request)),
  );
  app.post(
    '/user/passkeys/options',
    {
      onRequest: app.authenticateForEnrolment,
      schema: {
        tags,
        summary: 'Start adding a passkey: the options of the browser’s registration ceremony',
        response: { 200: PasskeyCreationOptions, ...errors },
      },
    },
    (request) => passkeys.registrationOptions(signedInUser(request), siteOf(request)),
  );
  app.post(
    '/user/passkeys',
    {
      onRequest: app.authenticateForEnrolment,
      schema: {
        tags,
        summary:
          'Add a passkey with the browser’s answer to the options; answers a session when called with an ' +
          'enrol-only token',
        body: PasskeyAddBody,
        response: { 200: PasskeyAddAnswer, ...errors },
      },
    },
    (request) => passkeys.add(signedInUser(request), request.body, siteOf(request)),
  );
  app.delete(
    '/user/passkeys',
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: 'Remove one of the caller’s passkeys',
        querystring: PasskeyDeleteQuery,
        response: { 200: OkAnswer, ...errors },
      },
    },
    async (request) => {
      await passkeys.remove(signedInUser(request), request.query.id);
      return { ok: true as const };
    },
  );
  app.post(
    '/signin/passkey/options',
    {
      schema: {
        tags,
        summary: 'Start signing in with a passkey and no password',
        response: { 200: PasskeyRequestOptions, 409: ErrorAnswer, 429: ErrorAnswer },
      },
    },
    (request) => passkeys.signInOptions(siteOf(request), request.ip),
  );
  app.post(
    '/signin/passkey',
    {
      schema: {
        tags,
        summary: 'Sign in with a passkey’s answer to the options',
        body: PasskeySigninBody,
        response: { 200: JwtAnswer, ...errors },
      },
    },
    (request) =>
      passkeys.signIn(
        request.body.credential,
        siteOf(request),
        clientOrigin(request.ip, 'http', request.headers['user-agent']),
      ),
  );
};
