import { queryOptions, useQuery } from '@tanstack/react-query';
import { OTA_PENDING_PATH, type OtaPendingAnswer } from '@fieldlink/api/ota';
import { apiGet } from '../../../lib/api-client';

export const OTA_PENDING_QUERY_KEY = ['ota-pending'] as const;

/** The banner refreshes the administrators' count this often, besides after every OTA call. */
const PENDING_REFRESH_MS = 60_000;

export const getOtaPending = (signal?: AbortSignal) => apiGet<OtaPendingAnswer>(OTA_PENDING_PATH, undefined, signal);

export const otaPendingQuery = () =>
  queryOptions({
    queryKey: OTA_PENDING_QUERY_KEY,
    queryFn: ({ signal }) => getOtaPending(signal),
    staleTime: 10_000,
    refetchInterval: PENDING_REFRESH_MS,
  });

/** `GET /devices/ota-pending`; asked only for administrators (others are refused). */
export const useOtaPending = (enabled: boolean) => useQuery({ ...otaPendingQuery(), enabled });
