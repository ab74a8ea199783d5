import { queryOptions } from '@tanstack/react-query';
import type { LatestValuesAnswer } from '@fieldlink/api/device';
import { apiGet } from '../api-client';
import { LIVE_QUERY_ROOT } from '../query-client';

export const getLatestValues = (deviceIds: readonly string[], signal?: AbortSignal) =>
  apiGet<LatestValuesAnswer>('/device/channels/latest-values', { ids: deviceIds.join(',') }, signal);

// Under the live root: refetched after a real-time reconnect to fill the gap (lib/realtime).
export const latestValuesQuery = (deviceIds: readonly string[]) =>
  queryOptions({
    queryKey: [LIVE_QUERY_ROOT, 'latest-values', [...deviceIds].sort().join(',')],
    queryFn: ({ signal }) => getLatestValues(deviceIds, signal),
    staleTime: 0,
  });
