import { apiHeaders, buildUrl, type Query } from './api-address';
import { currentSubdomain } from './subdomain';

// Calls sent before the console's code has loaded (`app/first-calls.ts`), kept until `apiFetch` makes
// the same call and takes the response in flight instead of asking again.

interface EarlyCall {
  authorization: string | null;
  cache: RequestCache;
  response: Promise<Response>;
}

const sent = new Map<string, EarlyCall>();

/**
 * Sends `GET path` now with the headers `apiRequest` gives every call (the token, client type and
 * version, subdomain), and keeps the response for {@link takeEarlyResponse}.
 */
export function sendEarly(
  path: string,
  query: Query | undefined,
  token: string,
  cache: RequestCache = 'default',
): void {
  const url = buildUrl(path, query);
  const response = fetch(url, { headers: apiHeaders(token, currentSubdomain()), cache, credentials: 'same-origin' });
  // A failure is the taker's to report (as `ApiError(0)`); one never taken is nobody's.
  response.catch(() => undefined);
  sent.set(url, { authorization: token, cache, response });
}

/**
 * The response of an early call that is the call `init` would send to `url` (a GET with the same
 * token and cache mode, not conditional), once; null when there is none, and the caller fetches.
 */
export function takeEarlyResponse(url: string, init: RequestInit): Promise<Response> | null {
  const call = sent.get(url);
  if (!call) return null;
  const headers = new Headers(init.headers);
  const same =
    (init.method ?? 'GET') === 'GET' &&
    headers.get('authorization') === call.authorization &&
    !headers.has('if-none-match') &&
    (init.cache ?? 'default') === call.cache;
  if (!same) return null;
  sent.delete(url);
  return call.response;
}
