import type { PasskeyRequestOptions } from '@fieldlink/api/passkeys';
import { ApiError, serverMessageOr } from '../../../lib/api-client';
import { PASSKEY_CANCELLED, isCeremonyFailure } from '../../../lib/passkey-ceremony';

/** Failure texts of specification §8, and this console's own for rate limiting. */
export const SIGNIN_FAILED = 'Bad Login Info';
export const TOO_MANY_ATTEMPTS = 'Too many attempts, try again later.';
export const SIGNUP_FAILED = 'Error signing up';
export const PASSWORD_UPDATE_FAILED = 'Error updating password';
export const RESET_LINK_FAILED = 'Error requesting reset link.';
export const CONNECTION_FAILED = 'Error during connection.';

/**
 * The sign-in failure text. Wrong credentials always read "Bad Login Info", whatever the server
 * says, so the form never tells which of e-mail or password was wrong; only a rate limit differs.
 */
export function signinErrorMessage(error: unknown): string {
  return error instanceof ApiError && error.status === 429 ? TOO_MANY_ATTEMPTS : SIGNIN_FAILED;
}

/** Server message else the fallback, except a rate limit, which says so plainly. */
export function failureMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.status === 429) return serverMessageOr(error, TOO_MANY_ATTEMPTS);
  return serverMessageOr(error, fallback);
}

/** True for the 401 (or 400) of a sign-in that needs a second-factor code (issue 38). */
export function isSecondFactorRequired(error: unknown): boolean {
  return error instanceof ApiError && (error.body as { mfaRequired?: unknown } | null)?.mfaRequired === true;
}

/** The text of a refused code: the server says what was wrong with it; a rate limit says so plainly. */
export function codeErrorMessage(error: unknown): string {
  return failureMessage(error, 'That code is not valid.');
}

/**
 * The enrol-only token of a sign-in whose password was right but whose account requires a second
 * factor the user has not set up (issue 38); null for any other failure.
 */
export function enrolmentTokenOf(error: unknown): string | null {
  if (!(error instanceof ApiError)) return null;
  const body = error.body as { mfaEnrolmentRequired?: unknown; enrolmentToken?: unknown } | null;
  return body?.mfaEnrolmentRequired === true && typeof body.enrolmentToken === 'string' ? body.enrolmentToken : null;
}

/** What a sign-in that needs a second factor offers: a code of the app, a passkey (with its options), or both. */
export interface SecondFactorOffer {
  totp: boolean;
  passkeyOptions: PasskeyRequestOptions | null;
}

/**
 * The second factors a sign-in's `mfaRequired` answer offers (issue 38); an answer that names none
 * (an older server) offers the code.
 */
export function secondFactorOfferOf(error: unknown): SecondFactorOffer {
  const body = (error instanceof ApiError ? error.body : null) as {
    secondFactors?: unknown;
    passkeyOptions?: PasskeyRequestOptions;
  } | null;
  const methods = Array.isArray(body?.secondFactors) ? (body.secondFactors as unknown[]) : ['totp'];
  return {
    totp: methods.includes('totp'),
    passkeyOptions: methods.includes('passkey') ? (body?.passkeyOptions ?? null) : null,
  };
}

/** The text of a passkey that did not sign in: cancelled in the browser, refused by the server, or a rate limit. */
export function passkeyErrorMessage(error: unknown): string {
  if (isCeremonyFailure(error)) return PASSKEY_CANCELLED;
  return failureMessage(error, 'That passkey was not accepted.');
}
