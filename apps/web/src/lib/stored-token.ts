import { TOKEN_STORAGE_KEY } from '@fieldlink/api/first-calls';

// The token's reading apart from its writing (`session-token.ts`, which ends a demo on a sign-in): the
// start-up's first calls (`early-calls.ts`) read it before the rest of the console's code has loaded.

/**
 * Storage can throw (Safari private mode, disabled cookies); a console without storage simply has no
 * remembered session rather than crashing at start-up.
 */
export function tokenStorage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

/**
 * Stored as the session token while a demo runs, so the start-up routing and the protected routes
 * treat the prospect as signed in. It never leaves the browser: no call reaches the network in a demo.
 */
export const DEMO_TOKEN = 'demo';

/** The stored session token, or null when signed out. */
export function readToken(): string | null {
  return tokenStorage()?.getItem(TOKEN_STORAGE_KEY) ?? null;
}
