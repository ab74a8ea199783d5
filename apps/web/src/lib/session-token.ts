import { TOKEN_STORAGE_KEY } from '@fieldlink/api/session';
import { endDemo } from './demo/demo-session';

// Storage can throw (Safari private mode, disabled cookies); a console without storage simply has
// no remembered session rather than crashing at start-up.
function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

/** The stored session token, or null when signed out. */
export function readToken(): string | null {
  return storage()?.getItem(TOKEN_STORAGE_KEY) ?? null;
}

/** Keeps a signed-in session's token; a demo running in this tab ends (its calls go to the server again). */
export function storeToken(jwt: string): void {
  endDemo();
  storage()?.setItem(TOKEN_STORAGE_KEY, jwt);
}

export function clearToken(): void {
  storage()?.removeItem(TOKEN_STORAGE_KEY);
}

/**
 * True when a storage event says the token was removed in another tab (a sign-out there, or the whole
 * storage cleared, which gives a null key).
 */
export function isTokenRemoval(event: Pick<StorageEvent, 'key' | 'newValue'>): boolean {
  return (event.key === TOKEN_STORAGE_KEY || event.key === null) && event.newValue === null;
}
