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

/**
 * Session screens: with a token they lead to /loading but are not remembered, since opening the
 * sign-in form again after the account is read would undo the sign-in.
 */
const SESSION_SCREENS: ReadonlySet<string> = new Set([
  '/signin',
  '/forgot-password',
  '/passwordChangedSuccessfully',
  '/signedUpSuccessfully',
  '/dashAccessDeny',
]);

const PUBLIC: ReadonlySet<string> = new Set(PUBLIC_PATHS);

/** Trailing slashes do not make another route (`/signin/` is the sign-in page). */
export function normalisePath(pathname: string): string {
  return pathname.length > 1 ? pathname.replace(/\/+$/, '') || '/' : pathname;
}

export const isVideosPath = (pathname: string): boolean => pathname.startsWith('/videos/');

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

export function decideStartup(location: StartupLocation, hasToken: boolean): StartupDecision {
  const { pathname, search, hash } = location;
  const path = normalisePath(pathname);

  // Shown without any sign-in handling.
  if (path === '/privacy' || isVideosPath(pathname)) return stay(!hasToken);
  // Invitation and reset links carry their arguments in the query string; the screens read them.
  if (pathname.startsWith('/signup') || pathname.startsWith('/reset-password')) return stay(!hasToken);

  if (!hasToken) {
    if (path === '/loading') return { redirectTo: '/signin', rememberedPath: null, signedOut: true };
    // The landing page itself sends a signed-out visitor on to /signin.
    if (isPublicPath(pathname)) return stay(true);
    return { redirectTo: '/signin', rememberedPath: null, signedOut: true };
  }

  if (path === '/signout') return stay(false);
  if (path === '/' || path === '/loading' || SESSION_SCREENS.has(path)) {
    return { redirectTo: '/loading', rememberedPath: null, signedOut: false };
  }
  return { redirectTo: '/loading', rememberedPath: `${pathname}${search}${hash}`, signedOut: false };
}
