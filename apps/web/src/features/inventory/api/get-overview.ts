import { queryOptions, useQuery } from '@tanstack/react-query';
import type { OverviewAnswer } from '@fieldlink/api/inventory';
import { apiGet } from '../../../lib/api-client';
import { LIVE_QUERY_ROOT } from '../../../lib/query-client';

/** Inventory answers are live data: read again after the real-time socket reconnects. */
export const INVENTORY_KEY = [LIVE_QUERY_ROOT, 'inventory'] as const;

export const getOverview = (groupId: string, accountId: string, signal?: AbortSignal) =>
  apiGet<OverviewAnswer>('/inv/overview', { groupId, accountId }, signal);

export const overviewQuery = (groupId: string, accountId: string) =>
  queryOptions({
    queryKey: [...INVENTORY_KEY, 'overview', groupId, accountId],
    queryFn: ({ signal }) => getOverview(groupId, accountId, signal),
  });

/** `GET /inv/overview`; read again every minute while shown, as shelves keep reporting. */
export const useOverview = (groupId: string, accountId: string) =>
  useQuery({ ...overviewQuery(groupId, accountId), refetchInterval: 60_000 });
