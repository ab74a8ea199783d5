import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AlarmListAnswer, AlarmListState } from '@fieldlink/api/alarms';
import { apiGet } from '../../../lib/api-client';

export const ALARMS_KEY = ['alarms'] as const;

export const getAlarms = (state: AlarmListState, deviceId?: string, signal?: AbortSignal) =>
  apiGet<AlarmListAnswer>('/alarms', { state, deviceId, limit: 200 }, signal);

export const alarmsQuery = (state: AlarmListState, deviceId?: string) =>
  queryOptions({
    queryKey: [...ALARMS_KEY, state, deviceId ?? null],
    queryFn: ({ signal }) => getAlarms(state, deviceId, signal),
  });

/** The alarm list; refreshed every `refetchMs` so a page left open follows new alarms. */
export const useAlarms = (state: AlarmListState, deviceId?: string, refetchMs = 15_000) =>
  useQuery({ ...alarmsQuery(state, deviceId), refetchInterval: refetchMs });
