import { describe, expect, it } from 'vitest';
import { isAccountsVariant } from './user-variant';

describe('isAccountsVariant', () => {
  it.each([
    ['2', true],
    ['5', false],
    [null, false],
    [undefined, false],
    [' 2', false],
  ])('%j -> %s', (variant, expected) => expect(isAccountsVariant(variant)).toBe(expected));
});
