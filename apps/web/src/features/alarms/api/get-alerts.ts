import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AlertListAnswer } from '@fieldlink/api/alarms';
import { apiGet } from '../../../lib/api-client';

export const ALERTS_KEY = ['alerts'] as const;

export const getAlerts = (signal?: AbortSignal) => apiGet<AlertListAnswer>('/alerts', { limit: 200 }, signal);

export const alertsQuery = () => queryOptions({ queryKey: ALERTS_KEY, queryFn: ({ signal }) => getAlerts(signal) });

export const useAlerts = () => useQuery({ ...alertsQuery(), refetchInterval: 15_000 });
