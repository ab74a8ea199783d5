import { Type, type Static } from '@sinclair/typebox';
import { PasskeyRequestOptions } from './passkeys';

/** Every failed call answers this shape; `message` is the text the client shows. */
export const ErrorAnswer = Type.Object({
  statusCode: Type.Integer(),
  error: Type.String(),
  message: Type.String(),
  /**
   * Set on the 401 of a missing, invalid, expired or revoked session token, and only there: the one
   * answer that ends the session in the console. Other 401s are refusals the specification answers
   * with 401 (broadcast spray without its permission, a wrong password at sign-in): they leave the
   * session alone (issue 35).
   */
  sessionEnded: Type.Optional(Type.Literal(true)),
  /**
   * Set on the 400 of a request its schema refused: `message` names the field by its path
   * (`body/props/devices/0/codes …`), which helps an API client but not a person, so the console
   * shows {@link INVALID_REQUEST_MESSAGE} instead.
   */
  invalidRequest: Type.Optional(Type.Literal(true)),
  /**
   * Set on the 401 of a sign-in whose password was right but which needs a second-factor code
   * (issue 38): the console asks for the code and signs in again with it.
   */
  mfaRequired: Type.Optional(Type.Literal(true)),
  /**
   * With `mfaRequired`: the second factors the user can prove, `totp` (a code of the app or a
   * recovery code) and `passkey`.
   */
  secondFactors: Type.Optional(Type.Array(Type.Union([Type.Literal('totp'), Type.Literal('passkey')]))),
  /**
   * With `mfaRequired` when `secondFactors` holds `passkey`: the options of the passkey's ceremony;
   * the console signs in again with the password and the passkey's answer (`passkey`).
   */
  passkeyOptions: Type.Optional(PasskeyRequestOptions),
  /**
   * Set on the 401 of a sign-in whose password was right from a user whose account requires a
   * second factor they have not set up (issue 38): no session, only `enrolmentToken`.
   */
  mfaEnrolmentRequired: Type.Optional(Type.Literal(true)),
  /**
   * With `mfaEnrolmentRequired`: a short-lived token that only reads and sets up the caller's second
   * factor (`GET /user/mfa`, `POST /user/mfa/totp`, `POST /user/mfa/totp/confirm`); every other call
   * and the real-time channel refuse it.
   */
  enrolmentToken: Type.Optional(Type.String()),
});
export type ErrorAnswer = Static<typeof ErrorAnswer>;

/**
 * A route's error answers (its schema's `response` beside the 200): {@link ErrorAnswer} at each status
 * code the call may fail with.
 */
export function errorAnswers<C extends number>(...codes: C[]): Record<C, typeof ErrorAnswer> {
  return Object.fromEntries(codes.map((code) => [code, ErrorAnswer])) as Record<C, typeof ErrorAnswer>;
}

const STATUS_NAMES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  413: 'Payload Too Large',
  429: 'Too Many Requests',
  503: 'Service Unavailable',
};

/** The `{statusCode, error, message}` body of a failed call, as the server and the browser demo answer it. */
export function errorBody(statusCode: number, message: string) {
  return { statusCode, error: STATUS_NAMES[statusCode] ?? 'Error', message } satisfies ErrorAnswer;
}

/**
 * The 404 messages of records that do not exist or lie outside the caller's scope (answered alike),
 * as the server and the browser demo word them.
 */
export const GROUP_NOT_FOUND = 'Group not found.';
export const DEVICE_NOT_FOUND = 'Device not found.';
export const BATCH_NOT_FOUND = 'Batch not found.';
export const TANK_NOT_FOUND = 'Tank not found.';

/** What the console says of a request its schema refused (a person never reads a schema path). */
export const INVALID_REQUEST_MESSAGE = 'Something entered was not accepted. Please check the form and try again.';

/** Answer of calls that have nothing else to say. */
export const OkAnswer = Type.Object({ ok: Type.Literal(true) });
export type OkAnswer = Static<typeof OkAnswer>;

/**
 * The 429 answer of a request past one of the stored-work limits (`@fieldlink/domain/work-limits`):
 * the limit's name and value, and the seconds after which trying again may succeed when it may.
 */
export const LimitAnswer = Type.Object({
  statusCode: Type.Literal(429),
  error: Type.String(),
  message: Type.String(),
  limit: Type.String(),
  max: Type.Integer(),
  retryAfterSeconds: Type.Optional(Type.Integer({ minimum: 1 })),
});
export type LimitAnswer = Static<typeof LimitAnswer>;
