import { queryOptions, useQuery } from '@tanstack/react-query';
import { REPORTS_META_PATH, type ReportMeta } from '@fieldlink/api/reports';
import { apiGet } from '../../../lib/api-client';
import { REPORTS_KEY } from './reports-keys';

export const getReports = (accountId: string, signal?: AbortSignal) =>
  apiGet<ReportMeta[]>(REPORTS_META_PATH, { accountId }, signal);

export const reportsQuery = (accountId: string) =>
  queryOptions({
    queryKey: [...REPORTS_KEY, 'list', accountId],
    queryFn: ({ signal }) => getReports(accountId, signal),
  });

/** `GET /reports/meta?accountId`: the account's reports the caller may see. */
export const useReports = (accountId: string | null) =>
  useQuery({ ...reportsQuery(accountId ?? ''), enabled: accountId !== null });
