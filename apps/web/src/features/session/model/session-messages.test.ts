import { normaliseEmail } from '@fieldlink/domain/email';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import {
  codeErrorMessage,
  enrolmentTokenOf,
  failureMessage,
  isSecondFactorRequired,
  RESET_LINK_FAILED,
  signinErrorMessage,
  SIGNUP_FAILED,
} from './session-messages';

describe('session messages', () => {
  it.each([
    [new ApiError(401, 'Invalid credentials', null), 'Bad Login Info'],
    [new ApiError(400, 'body/email must match pattern', null), 'Bad Login Info'],
    [new ApiError(429, 'Rate limit exceeded', null), 'Too many attempts, try again later.'],
    [new ApiError(0, null, null), 'Bad Login Info'],
    [new Error('boom'), 'Bad Login Info'],
  ])('sign-in failure %s -> %s', (error, expected) => {
    expect(signinErrorMessage(error)).toBe(expected);
  });

  it.each([
    [
      new ApiError(400, 'Invitation code is invalid or expired.', null),
      SIGNUP_FAILED,
      'Invitation code is invalid or expired.',
    ],
    [new ApiError(500, null, null), SIGNUP_FAILED, 'Error signing up'],
    [new ApiError(0, null, null), RESET_LINK_FAILED, 'Error requesting reset link.'],
    [new TypeError('x'), RESET_LINK_FAILED, 'Error requesting reset link.'],
  ])('failure %s with fallback %s -> %s', (error, fallback, expected) => {
    expect(failureMessage(error, fallback)).toBe(expected);
  });

  it.each([
    [new ApiError(401, 'Enter the code from your authenticator app.', { mfaRequired: true }), true],
    [new ApiError(400, 'That is not a code.', { mfaRequired: true }), true],
    [new ApiError(401, 'Bad Login Info', { message: 'Bad Login Info' }), false],
    [new ApiError(401, 'Please sign in again.', { sessionEnded: true }), false],
    [new ApiError(0, null, null), false],
    [new Error('boom'), false],
  ])('second factor required by %s: %s', (error, expected) => {
    expect(isSecondFactorRequired(error)).toBe(expected);
  });

  it.each([
    [new ApiError(401, 'That code is not valid.', { mfaRequired: true }), 'That code is not valid.'],
    [new ApiError(429, null, null), 'Too many attempts, try again later.'],
    [new ApiError(0, null, null), 'That code is not valid.'],
  ])('code failure %s -> %s', (error, expected) => {
    expect(codeErrorMessage(error)).toBe(expected);
  });

  it('trims and lowercases the e-mail', () => {
    expect(normaliseEmail('  Admin@FieldLink.Test ')).toBe('admin@fieldlink.test');
  });
});

describe('enrolmentTokenOf', () => {
  it.each([
    [new ApiError(401, 'x', { mfaEnrolmentRequired: true, enrolmentToken: 'tok' }), 'tok'],
    [new ApiError(401, 'x', { mfaEnrolmentRequired: true }), null],
    [new ApiError(401, 'x', { mfaRequired: true }), null],
    [new ApiError(401, 'x', { enrolmentToken: 'tok' }), null],
    [new Error('boom'), null],
  ])('%s -> %s', (error, expected) => expect(enrolmentTokenOf(error)).toBe(expected));
});
