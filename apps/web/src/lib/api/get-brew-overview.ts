// Shared by the brew pages and the scenes' brewing widgets (features do not import each other).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { BREW_PATHS, type BrewMeta } from '@fieldlink/api/brew';
import { apiGet } from '../api-client';
import { LIVE_QUERY_ROOT } from '../query-client';

/** Every brew query's root: a batch change invalidates them all. */
export const BREW_KEY = ['brew'] as const;

/** The brew summary of a group; with `tankNumber`, that tank (the tank view) carries its log. */
export const getBrewOverview = (groupId: string, tankNumber: number | null, signal?: AbortSignal) =>
  apiGet<BrewMeta>(BREW_PATHS.overview, tankNumber === null ? { groupId } : { groupId, tankNumber }, signal);

// Under the live root too: read again after a real-time reconnect, like the latest values.
export const brewOverviewQuery = (groupId: string, tankNumber: number | null = null) =>
  queryOptions({
    queryKey: [LIVE_QUERY_ROOT, ...BREW_KEY, 'overview', groupId, tankNumber],
    queryFn: ({ signal }) => getBrewOverview(groupId, tankNumber, signal),
  });

/**
 * The brew summary of a group, or of a tank's view (`tankNumber`: that tank with its log); read again
 * every minute for the estimates and the chart between pushes. Opening or leaving a tank shows the
 * tanks already read while the other answer comes.
 */
export const useBrewOverview = (groupId: string, tankNumber: number | null = null) =>
  useQuery({
    ...brewOverviewQuery(groupId, tankNumber),
    refetchInterval: 60_000,
    placeholderData: (previous) => (previous?.groupId === groupId ? previous : undefined),
  });
