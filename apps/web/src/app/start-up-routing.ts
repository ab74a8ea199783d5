import { isVideosPath } from '@fieldlink/domain/app-variant';

/**
 * Start-up routing (specification core §2): decided once, from the address the page was opened at
 * and whether a token is stored, before the router renders anything.
 */

/** Public routes; every other path needs a sign-in. */
export const PUBLIC_PATHS = [
  '/',
  '/empty',
  '/signin',
  '/signout',
  '/forgot-password',
  '/reset-password',
  '/signup',
  '/passwordChangedSuccessfully',
  '/dashAccessDeny',
  '/signedUpSuccessfully',
  '/demo',
  '/privacy',
  '/loading',
  '/iconpreview',
] as const;

const PUBLIC: ReadonlySet<string> = new Set(PUBLIC_PATHS);

/** Trailing slashes do not make another route (`/signin/` is the sign-in page). */
export function normalisePath(pathname: string): string {
  return pathname.length > 1 ? pathname.replace(/\/+$/, '') || '/' : pathname;
}

export function isPublicPath(pathname: string): boolean {
  const path = normalisePath(pathname);
  return PUBLIC.has(path) || isVideosPath(pathname);
}

export interface StartupLocation {
  pathname: string;
  search: string;
  hash: string;
}

export interface StartupDecision {
  /** Where to go instead (replacing the history entry), or null to stay. */
  redirectTo: string | null;
  /** The path (with query and hash) to open once /loading has read the account. */
  rememberedPath: string | null;
  /** No token: the session starts signed out. */
  signedOut: boolean;
}

const stay = (signedOut: boolean): StartupDecision => ({ redirectTo: null, rememberedPath: null, signedOut });

/**
 * §2 exactly, in its order: /privacy and /videos/* are shown as they are; invitation and reset links
 * keep their query strings and are shown even with a token (a stale token must not swallow the link);
 * without a token every other non-public path, and /loading, goes to the landing page `/` and the
 * session is signed out; with a token every other path except `/` and `/loading` (the session
 * screens included) is remembered and the user goes to /loading, which opens it once the account is
 * read.
 */
export function decideStartup(location: StartupLocation, hasToken: boolean): StartupDecision {
  const { pathname, search, hash } = location;
  const path = normalisePath(pathname);

  if (path === '/privacy' || isVideosPath(pathname)) return stay(!hasToken);
  if (pathname.startsWith('/signup') || pathname.startsWith('/reset-password')) return stay(!hasToken);

  if (!hasToken) {
    if (isPublicPath(pathname) && path !== '/loading') return stay(true);
    return { redirectTo: '/', rememberedPath: null, signedOut: true };
  }
  if (path === '/' || path === '/loading') return { redirectTo: '/loading', rememberedPath: null, signedOut: false };
  return { redirectTo: '/loading', rememberedPath: `${pathname}${search}${hash}`, signedOut: false };
}
