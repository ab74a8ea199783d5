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
