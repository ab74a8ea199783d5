import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client';

/**
 * Queries whose key starts with this hold live device data read over REST (latest values); they are
 * refetched after the real-time socket reconnects, to fill what was missed while it was down.
 */
export const LIVE_QUERY_ROOT = 'live';

let onUnauthorized: (error: ApiError) => void = () => {};

/**
 * What to do when a query or a change answers 401 (token expired or revoked elsewhere: the
 * specification's AUTH_ERROR): set by the app at start-up, since ending a session reaches beyond
 * this module. The handler gets the answer, so the user reads the server's own message.
 */
export function setUnauthorizedHandler(handler: (error: ApiError) => void): void {
  onUnauthorized = handler;
}

const onCallError = (error: unknown) => {
  if (error instanceof ApiError && error.status === 401) onUnauthorized(error);
};

export const queryClient = new QueryClient({
  queryCache: new QueryCache({ onError: onCallError }),
  mutationCache: new MutationCache({ onError: onCallError }),
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
