import { describe, expect, it } from 'vitest';
import { groupedSecret, recoveryCodesFile } from './totp-text';

describe('groupedSecret', () => {
  it.each([
    ['ABCDEFGH', 'ABCD EFGH'],
    ['ABCDEFGHIJ', 'ABCD EFGH IJ'],
    ['ABC', 'ABC'],
    ['', ''],
  ])('%j -> %j', (secret, expected) => expect(groupedSecret(secret)).toBe(expected));
});

describe('recoveryCodesFile', () => {
  it('names the product and user and lists one code a line', () => {
    const text = recoveryCodesFile(['aaaa-bbbb', 'cccc-dddd'], 'Fieldlink', 'ann@example.com');
    expect(text.split('\n')).toEqual([
      'Fieldlink recovery codes for ann@example.com',
      'Each code signs you in once when your authenticator app is not at hand. Keep them somewhere safe.',
      '',
      'aaaa-bbbb',
      'cccc-dddd',
      '',
    ]);
  });
});
