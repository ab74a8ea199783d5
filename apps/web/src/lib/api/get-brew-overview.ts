// Shared by the brew pages and the scenes' brewing widgets (features do not import each other).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { BREW_PATHS, type BrewMeta } from '@fieldlink/api/brew';
import { apiGet } from '../api-client';
import { LIVE_QUERY_ROOT } from '../query-client';

/** Every brew query's root: a batch change invalidates them all. */
export const BREW_KEY = ['brew'] as const;

export const getBrewOverview = (groupId: string, signal?: AbortSignal) =>
  apiGet<BrewMeta>(BREW_PATHS.overview, { groupId }, signal);

// Under the live root too: read again after a real-time reconnect, like the latest values.
export const brewOverviewQuery = (groupId: string) =>
  queryOptions({
    queryKey: [LIVE_QUERY_ROOT, ...BREW_KEY, 'overview', groupId],
    queryFn: ({ signal }) => getBrewOverview(groupId, signal),
  });

/** The brew summary of a group; read again every minute for the estimates between pushes. */
export const useBrewOverview = (groupId: string) =>
  useQuery({ ...brewOverviewQuery(groupId), refetchInterval: 60_000 });
