import { queryOptions, useQuery } from '@tanstack/react-query';
import { ACCOUNT_PATH } from '@fieldlink/api/first-calls';
import type { AccountAnswer } from '@fieldlink/api/account';
import {
  ACCOUNT_COLUMNS_QUERY,
  decodeAccountColumns,
  type AccountColumnsAnswer,
  type AccountQuery,
} from '@fieldlink/api/account-columns';
import { apiErrorOf, apiFetch, ApiError } from '../api-client';
import { apiHeaders } from '../api-address';
import { readToken } from '../session-token';
import { currentSubdomain } from '../subdomain';

// The account tree is read by the loading screen, the dashboards and the shell's banner. It is asked
// for in its compact form (a quarter of the bytes at 100,000 devices) and decoded into the plain tree.

const COMPACT: AccountQuery = { format: ACCOUNT_COLUMNS_QUERY };

/** The last tree received, with the ETag that validates it and the session it was read in. */
let held: { etag: string; token: string | null; answer: AccountAnswer } | null = null;

/**
 * `GET /account?format=columns`, revalidated with the tree's ETag: every console reads the tree again
 * after a real-time reconnect, all at once after a server restart or a network blip, and an unchanged
 * tree then costs a 304 instead of 4 MB to send and 11 MB of JSON to parse at 100,000 devices; the
 * tree already decoded is kept (the same object, so nothing that shows it draws again). Holding none
 * (a start), the call is the one the entry sent early (`first-calls.ts`), and the browser's cache
 * revalidates its stored copy (the server says `no-cache`).
 */
export async function getAccount(signal?: AbortSignal): Promise<AccountAnswer> {
  const token = readToken();
  const headers = apiHeaders(token, currentSubdomain());
  // Asked with its tag by this code, so the 304 reaches it: `no-store` keeps the browser's cache out.
  const holding = held !== null && held.token === token ? held : null;
  if (holding) headers['if-none-match'] = holding.etag;
  let response: Response;
  try {
    response = await apiFetch(ACCOUNT_PATH, COMPACT, {
      headers,
      signal: signal ?? null,
      credentials: 'same-origin',
      ...(holding && { cache: 'no-store' as const }),
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, null, null);
  }
  if (response.status === 304 && holding) return holding.answer;
  if (!response.ok) throw await apiErrorOf(response);
  const answer = decodeAccountColumns((await response.json()) as AccountColumnsAnswer);
  const etag = response.headers.get('etag');
  held = etag ? { etag, token, answer } : null;
  return answer;
}

/** Forgets the tree held for revalidation: a session's end wipes what it read (specification §4). */
export function forgetHeldAccount(): void {
  held = null;
}

export const accountQuery = () =>
  queryOptions({ queryKey: ['account'], queryFn: ({ signal }) => getAccount(signal), staleTime: 60_000 });

export const useAccount = () => useQuery(accountQuery());
