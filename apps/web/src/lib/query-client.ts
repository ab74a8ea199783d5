import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import type { ErrorAnswer } from '@fieldlink/api/errors';
import { ApiError } from './api-client';

/**
 * Queries whose key starts with this hold live device data read over REST (latest values); they are
 * refetched after the real-time socket reconnects, to fill what was missed while it was down.
 */
export const LIVE_QUERY_ROOT = 'live';

let onUnauthorized: (error: ApiError) => void = () => {};

/**
 * What to do when a query or a change answers the session's 401 (token expired or revoked elsewhere: the
 * specification's AUTH_ERROR): set by the app at start-up, since ending a session reaches beyond
 * this module. The handler gets the answer, so the user reads the server's own message.
 */
export function setUnauthorizedHandler(handler: (error: ApiError) => void): void {
  onUnauthorized = handler;
}

let onChangeFailure: (error: unknown) => void = () => {};

/**
 * The shared handler of a failed change (the specification's FETCH_POST_FAILURE): set by the app at
 * start-up. It gets every failure of a change that does not report its failure itself.
 */
export function setChangeFailureHandler(handler: (error: unknown) => void): void {
  onChangeFailure = handler;
}

/**
 * The `meta` of a change that reports its own failure (its own wording, a message in its form, or by
 * design only a log), so the shared handler leaves it alone. A change with its own `onError` in its
 * hook needs no mark.
 */
export const OWN_FAILURE_REPORT = { ownFailureReport: true } as const;

/**
 * True for the one answer that ends a session: a 401 the server marks `sessionEnded` (a missing,
 * invalid, expired or revoked token). The specification's other 401s, such as broadcast spray without
 * its permission, are refusals their callers report; they never sign a person out (issue 35).
 */
const isSessionRefusal = (error: unknown): error is ApiError =>
  error instanceof ApiError &&
  error.status === 401 &&
  (error.body as Partial<ErrorAnswer> | null)?.sessionEnded === true;

export const queryClient = new QueryClient({
  queryCache: new QueryCache({
    onError: (error) => {
      if (isSessionRefusal(error)) onUnauthorized(error);
    },
  }),
  mutationCache: new MutationCache({
    onError: (error, _variables, _context, mutation) => {
      if (isSessionRefusal(error)) onUnauthorized(error);
      else if (!mutation.options.onError && mutation.meta?.ownFailureReport !== true) onChangeFailure(error);
    },
  }),
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      // A 4xx will not change on retry; a dropped connection or a 5xx might.
      retry: (failureCount, error) =>
        failureCount < 2 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
    },
  },
});
