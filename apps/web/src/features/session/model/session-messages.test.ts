import { normaliseEmail } from '@fieldlink/domain/email';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { failureMessage, RESET_LINK_FAILED, signinErrorMessage, SIGNUP_FAILED } from './session-messages';

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

  it('trims and lowercases the e-mail', () => {
    expect(normaliseEmail('  Admin@FieldLink.Test ')).toBe('admin@fieldlink.test');
  });
});
