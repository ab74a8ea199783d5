import { describe, expect, it } from 'vitest';
import { isCeremonyFailure } from './passkey-ceremony';

describe('isCeremonyFailure', () => {
  it.each([
    [Object.assign(new Error('x'), { name: 'NotAllowedError' }), true],
    [Object.assign(new Error('x'), { name: 'InvalidStateError' }), true],
    [new Error('Server error'), false],
    ['NotAllowedError', false],
  ])('%s -> %s', (error, expected) => expect(isCeremonyFailure(error)).toBe(expected));
});
