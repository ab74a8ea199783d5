import { queryOptions, useQuery } from '@tanstack/react-query';
import { REPORTS_SCHEDULES_PATH, type ReportSchedule } from '@fieldlink/api/reports';
import { apiGet } from '../../../lib/api-client';
import { SCHEDULES_KEY } from './reports-keys';

export const getSchedules = (accountId: string, signal?: AbortSignal) =>
  apiGet<ReportSchedule[]>(REPORTS_SCHEDULES_PATH, { accountId }, signal);

export const schedulesQuery = (accountId: string) =>
  queryOptions({ queryKey: [...SCHEDULES_KEY, accountId], queryFn: ({ signal }) => getSchedules(accountId, signal) });

/** `GET /reports/schedules?accountId`: the schedules of one account the caller may see. */
export const useSchedules = (accountId: string | null) =>
  useQuery({ ...schedulesQuery(accountId ?? ''), enabled: accountId !== null });
