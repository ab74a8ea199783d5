import { queryOptions, useQuery } from '@tanstack/react-query';
import { REPORTS_SCHEDULES_PATH, type ReportSchedule } from '@fieldlink/api/reports';
import { apiGet } from '../../../lib/api-client';
import { SCHEDULES_KEY } from './reports-keys';

export const getSchedules = (signal?: AbortSignal) => apiGet<ReportSchedule[]>(REPORTS_SCHEDULES_PATH, {}, signal);

export const schedulesQuery = () =>
  queryOptions({ queryKey: [...SCHEDULES_KEY], queryFn: ({ signal }) => getSchedules(signal) });

/** `GET /reports/schedules`: every schedule the caller may see. */
export const useSchedules = (enabled = true) => useQuery({ ...schedulesQuery(), enabled });
