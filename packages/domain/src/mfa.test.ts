import { describe, expect, it } from 'vitest';
import {
  parseSecondFactorCode,
  passkeyNameOf,
  recoveryCodeFrom,
  secondFactorRequired,
  secondFactorsAllowed,
  secondStepOf,
  totpStep,
  RECOVERY_CODE_LENGTH,
} from './mfa';

describe('parseSecondFactorCode', () => {
  it.each([
    ['123456', { kind: 'totp', code: '123456' }],
    [' 123 456 ', { kind: 'totp', code: '123456' }],
    ['123-456', { kind: 'totp', code: '123456' }],
    ['abcd-efgh-ijkl-mn23', { kind: 'recovery', code: 'abcdefghijklmn23' }],
    ['ABCD EFGH IJKL MN23', { kind: 'recovery', code: 'abcdefghijklmn23' }],
    ['abcdefghijklmn23', { kind: 'recovery', code: 'abcdefghijklmn23' }],
    ['12345', null],
    ['1234567', null],
    ['12345a', null],
    ['abcd-efgh-ijkl-mn2', null],
    ['abcd-efgh-ijkl-mn018', null],
    ['abcd-efgh-ijkl-mn01', null],
    ['', null],
    ['<script>', null],
  ])('%j -> %j', (typed, expected) => expect(parseSecondFactorCode(typed)).toEqual(expected));
});

describe('recoveryCodeFrom', () => {
  it('writes 16 characters in groups of four that parse back as a recovery code', () => {
    const bytes = Uint8Array.from({ length: 16 }, (_, i) => i * 17);
    const code = recoveryCodeFrom(bytes);
    expect(code).toMatch(/^[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}$/);
    expect(parseSecondFactorCode(code)).toEqual({ kind: 'recovery', code: code.replaceAll('-', '') });
    expect(code.replaceAll('-', '')).toHaveLength(RECOVERY_CODE_LENGTH);
  });

  it('refuses too few random bytes', () => {
    expect(() => recoveryCodeFrom(new Uint8Array(15))).toThrow(RangeError);
  });
});

describe('totpStep', () => {
  it.each([
    [0, 0],
    [29_999, 0],
    [30_000, 1],
    [59_000, 1],
    [1_700_000_000_000, 56_666_666],
  ])('%d ms -> step %d', (atMs, step) => expect(totpStep(atMs)).toBe(step));
});

describe('secondFactorRequired', () => {
  // A supplier's tree: ./sup holds ./sup/cust (a customer account's root) and its group ./sup/cust/g1.
  it.each([
    [['./sup'], ['./sup'], true, 'a user at the requiring account’s root'],
    [['./sup/cust/g1'], ['./sup'], true, 'a customer’s user, under the requiring supplier'],
    [['./sup/cust'], ['./sup/cust'], true, 'the customer’s own requirement'],
    [['./sup'], ['./sup/cust'], false, 'the supplier’s staff, above a requiring customer'],
    [['./other'], ['./sup'], false, 'another account'],
    [['./sup1'], ['./sup'], false, 'a look-alike id is not under it'],
    [['./other', './sup/cust'], ['./sup'], true, 'any attachment point under it'],
    [['./sup'], [], false, 'no account requires it'],
    [[], ['./sup'], false, 'no attachment point'],
  ])('%j under %j -> %s (%s)', (points, roots, expected) => expect(secondFactorRequired(points, roots)).toBe(expected));
});

describe('secondStepOf', () => {
  it.each([
    [{ totp: false, passkeys: 0 }, false, { kind: 'none' }],
    [{ totp: false, passkeys: 0 }, true, { kind: 'enrol' }],
    [{ totp: true, passkeys: 0 }, false, { kind: 'prove', methods: ['totp'] }],
    [{ totp: true, passkeys: 0 }, true, { kind: 'prove', methods: ['totp'] }],
    [{ totp: true, passkeys: 2 }, false, { kind: 'prove', methods: ['totp', 'passkey'] }],
    // A passkey alone is a way in without the password, not a lock on it...
    [{ totp: false, passkeys: 1 }, false, { kind: 'none' }],
    // ...unless the account requires a second factor: then it is one.
    [{ totp: false, passkeys: 1 }, true, { kind: 'prove', methods: ['passkey'] }],
  ] as const)('%j, required %s -> %j', (factors, required, expected) =>
    expect(secondStepOf(factors, required)).toEqual(expected),
  );
});

describe('secondFactorsAllowed', () => {
  it.each([
    [{ totp: false, passkeys: 0 }, false, true],
    [{ totp: false, passkeys: 0 }, true, false],
    [{ totp: true, passkeys: 0 }, true, true],
    [{ totp: false, passkeys: 1 }, true, true],
  ] as const)('%j, required %s -> %s', (after, required, expected) =>
    expect(secondFactorsAllowed(after, required)).toBe(expected),
  );
});

describe('passkeyNameOf', () => {
  it.each([
    ['Work laptop', 'Work laptop'],
    ['  Phone   in   pocket ', 'Phone in pocket'],
    ['', null],
    ['   ', null],
    ['x'.repeat(64), 'x'.repeat(64)],
    ['x'.repeat(65), null],
  ])('%j -> %j', (typed, expected) => expect(passkeyNameOf(typed)).toBe(expected));
});
