import { isUnderPath } from './group-path';

/**
 * The second factor's rules (issue 38 item 2): how a TOTP authenticator is set up, what a code
 * looks like, and what recovery codes are. The server checks codes and the console shows them; both
 * read these.
 */

/** TOTP as every authenticator app reads it (RFC 6238 defaults: SHA-1, 6 digits, 30 s). */
export const TOTP_SETTINGS = {
  algorithm: 'SHA1',
  digits: 6,
  periodSeconds: 30,
  /** Steps accepted either side of now: one, for a phone's clock a little off. */
  window: 1,
  /** Random bytes of a secret: 160 bits, the size RFC 4226 recommends. */
  secretBytes: 20,
} as const;

/** Recovery codes answered when TOTP is turned on, each usable once. */
export const RECOVERY_CODE_COUNT = 10;
/** Characters of a recovery code (lower-case base32: 16 of them carry 80 random bits). */
export const RECOVERY_CODE_LENGTH = 16;
const RECOVERY_CODE_ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

/** A code a person typed, as checked: a TOTP code or a recovery code, written the one way. */
export type SecondFactorCode = { kind: 'totp'; code: string } | { kind: 'recovery'; code: string };

/**
 * Reads what a person typed as a second-factor code: spaces and hyphens are ignored (apps show
 * `123 456`, recovery codes are shown `abcd-efgh-…`), letters in any case. Null: neither kind.
 */
export function parseSecondFactorCode(typed: string): SecondFactorCode | null {
  const compact = typed.replace(/[\s-]/g, '').toLowerCase();
  if (new RegExp(`^\\d{${TOTP_SETTINGS.digits}}$`).test(compact)) return { kind: 'totp', code: compact };
  if (compact.length === RECOVERY_CODE_LENGTH && [...compact].every((c) => RECOVERY_CODE_ALPHABET.includes(c))) {
    return { kind: 'recovery', code: compact };
  }
  return null;
}

/** A recovery code from random bytes (one byte per character, 5 bits of each used), shown in groups of four. */
export function recoveryCodeFrom(randomBytes: Uint8Array): string {
  if (randomBytes.length < RECOVERY_CODE_LENGTH) throw new RangeError('A recovery code needs 16 random bytes.');
  const characters = [...randomBytes.subarray(0, RECOVERY_CODE_LENGTH)].map((b) => RECOVERY_CODE_ALPHABET[b & 31]);
  return characters.join('').replace(/(.{4})(?=.)/g, '$1-');
}

/** The TOTP time step of a moment (ms since the epoch). */
export function totpStep(atMs: number): number {
  return Math.floor(atMs / 1000 / TOTP_SETTINGS.periodSeconds);
}

/** The refusal of a malformed code. */
export const MALFORMED_CODE_MESSAGE =
  'That is not a code. Enter the 6 digits from your authenticator app, or a recovery code.';
/** The refusal of a wrong, expired or already used code. */
export const WRONG_CODE_MESSAGE = 'That code is not valid. Codes work once; wait for the next one and try again.';
/** The 401 of a sign-in with the right password but no code, for a user with a second factor. */
export const CODE_REQUIRED_MESSAGE = 'Enter the code from your authenticator app.';

/** How long an enrol-only token lives: long enough to scan a QR code and type the first code. */
export const ENROLMENT_TOKEN_TTL_SECONDS = 15 * 60;

/**
 * The 401 of a right password from a user whose account requires a second factor they have not set
 * up: the answer carries an enrol-only token instead of a session.
 */
export const ENROLMENT_REQUIRED_MESSAGE = 'Your account requires a second factor. Set one up to continue.';

/** The 409 of turning off a second factor that the user's account requires. */
export const SECOND_FACTOR_KEPT_MESSAGE =
  'Your account requires a second factor, so it cannot be turned off. Ask an account administrator.';

/**
 * True when a user attached at these group paths must have a second factor: an account requiring one
 * (its root group at `requiringRootPaths`) covers its own users and, through its tree, its customers'
 * accounts and their users. A user attached above such an account (its supplier's staff) is not
 * covered by it.
 */
export function secondFactorRequired(
  attachmentPaths: readonly string[],
  requiringRootPaths: readonly string[],
): boolean {
  return attachmentPaths.some((path) => requiringRootPaths.some((root) => isUnderPath(path, root)));
}

/** Passkeys (WebAuthn credentials, issue 38 item 2): how they are made, named and kept. */
export const PASSKEY_SETTINGS = {
  /** How long a ceremony's challenge lives: the time to pick a passkey and unlock it. */
  challengeTtlMs: 5 * 60_000,
  /** Characters of a passkey's name. */
  nameMaxLength: 64,
  /** Passkeys one user may keep: one per phone, laptop and key, with room to spare. */
  maxPerUser: 20,
} as const;

/** The ways a second factor can be proven after the password. */
export type SecondFactorMethod = 'totp' | 'passkey';

/** The second factors a user has set up. */
export interface SecondFactors {
  totp: boolean;
  passkeys: number;
}

/**
 * What a sign-in with the right password needs next: nothing, setting a second factor up first
 * (`enrol`), or proving one of `methods`. A user who turned TOTP on proves a second factor, with the
 * app or a passkey. A passkey alone is a way to sign in without the password, not a lock on it, as
 * with GitHub's and Google's passkeys, unless the account requires a second factor: then a passkey
 * is one, and the password alone never signs in.
 */
export type SecondStep = { kind: 'none' } | { kind: 'enrol' } | { kind: 'prove'; methods: SecondFactorMethod[] };

export function secondStepOf(factors: SecondFactors, required: boolean): SecondStep {
  const methods: SecondFactorMethod[] = [];
  if (factors.totp) methods.push('totp');
  if (factors.passkeys > 0) methods.push('passkey');
  if (factors.totp) return { kind: 'prove', methods };
  if (!required) return { kind: 'none' };
  return methods.length > 0 ? { kind: 'prove', methods } : { kind: 'enrol' };
}

/**
 * Whether a user may be left with these second factors: while an account requires one, the last
 * one (TOTP or a passkey) stays.
 */
export function secondFactorsAllowed(after: SecondFactors, required: boolean): boolean {
  return !required || after.totp || after.passkeys > 0;
}

/** A passkey's name as the user typed it: trimmed, inner runs of spaces made one; null when empty or too long. */
export function passkeyNameOf(typed: string): string | null {
  const name = typed.trim().replace(/\s+/g, ' ');
  return name.length === 0 || name.length > PASSKEY_SETTINGS.nameMaxLength ? null : name;
}

/** The refusal of a passkey answer that does not verify, is unknown, or answers a spent or expired challenge. */
export const PASSKEY_REFUSED_MESSAGE = 'That passkey was not accepted. Try again, or sign in another way.';
/** The 401 of a sign-in with the right password that must prove a passkey (the user has no app). */
export const PASSKEY_REQUIRED_MESSAGE = 'Use your passkey to finish signing in.';
/** The refusal of a passkey name that is empty or too long. */
export const PASSKEY_NAME_MESSAGE = `Give the passkey a name of 1 to ${PASSKEY_SETTINGS.nameMaxLength} characters.`;
