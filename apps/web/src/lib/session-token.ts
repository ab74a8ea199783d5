import { TOKEN_STORAGE_KEY } from '@fieldlink/api/session';
import { endDemo } from './demo/demo-session';
import { readToken, tokenStorage as storage } from './stored-token';

export { readToken } from './stored-token';

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

/**
 * The user id the stored token names (its `sub` claim), or null. Read without checking the signature:
 * it only picks which of this browser's own records to show while the server cannot be asked.
 */
export function tokenUserId(token: string | null = readToken()): string | null {
  const payload = token?.split('.')[1];
  if (!payload) return null;
  try {
    const bytes = Uint8Array.from(atob(payload.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
    const claims = JSON.parse(new TextDecoder().decode(bytes)) as { sub?: unknown };
    return typeof claims.sub === 'string' && claims.sub !== '' ? claims.sub : null;
  } catch {
    return null;
  }
}
