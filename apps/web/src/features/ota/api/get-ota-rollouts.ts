import { queryOptions, useQuery } from '@tanstack/react-query';
import { OTA_ROLLOUTS_PATH, type OtaRolloutsAnswer } from '@fieldlink/api/ota';
import { apiGet } from '../../../lib/api-client';

export const OTA_ROLLOUTS_QUERY_KEY = ['ota-rollouts'] as const;

/**
 * The review reads the rollouts again this often while it is open: the devices' progress comes live
 * over the real-time channel, a rollout's own state (completed, stopped) with this read.
 */
const ROLLOUTS_REFRESH_MS = 15_000;

export const otaRolloutsQuery = () =>
  queryOptions({
    queryKey: OTA_ROLLOUTS_QUERY_KEY,
    queryFn: ({ signal }) => apiGet<OtaRolloutsAnswer>(OTA_ROLLOUTS_PATH, undefined, signal),
    staleTime: 5_000,
    refetchInterval: ROLLOUTS_REFRESH_MS,
  });

/** `GET /devices/ota-rollouts`; administrators only. */
export const useOtaRollouts = () => useQuery(otaRolloutsQuery());
