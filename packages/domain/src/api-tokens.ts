/**
 * Personal API tokens (issue 38 item 3): what a token looks like, how long it may live, how many a
 * user may hold and how often its last use is written down. The server issues and checks; the
 * console offers the same limits in its form.
 */

/** Every API token starts with this, so a leaked one is recognisable (secret scanners, logs). */
export const API_TOKEN_PREFIX = 'flk_';

/** A token: the prefix, then 32 random bytes in base64url (43 characters). */
const API_TOKEN_PATTERN = /^flk_[A-Za-z0-9_-]{43}$/;

/** True when the text is shaped like an API token (not that it is a valid one). */
export function isApiTokenShaped(text: string): boolean {
  return API_TOKEN_PATTERN.test(text);
}

const DAY_MS = 86_400_000;

/** A token made without an expiry lives this many days. */
export const API_TOKEN_DEFAULT_DAYS = 90;
/** No token lives longer than this many days: an integration renews its token once a year at least. */
export const API_TOKEN_MAX_DAYS = 365;
/** A user holds at most this many tokens at once (SECURITY.md 21: nothing a user fills is unbounded). */
export const MAX_API_TOKENS_PER_USER = 50;
/** The longest name of a token. */
export const API_TOKEN_NAME_MAX_LENGTH = 100;

/**
 * When a token made now should expire: the asked time, or the default; or why it cannot (a time
 * past, or beyond the maximum).
 */
export function apiTokenExpiry(
  requested: number | undefined,
  now: number,
): { expiresAt: number } | { problem: string } {
  if (requested === undefined) return { expiresAt: now + API_TOKEN_DEFAULT_DAYS * DAY_MS };
  if (requested <= now) return { problem: 'The expiry date must be in the future.' };
  if (requested > now + API_TOKEN_MAX_DAYS * DAY_MS) {
    return { problem: `An API token can last at most ${API_TOKEN_MAX_DAYS} days.` };
  }
  return { expiresAt: requested };
}
