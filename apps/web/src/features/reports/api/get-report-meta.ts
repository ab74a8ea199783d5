import { useQueries } from '@tanstack/react-query';
import { REPORT_META_PATH, type ReportMeta } from '@fieldlink/api/reports';
import { isReportStatePolled, REPORT_STATE_POLL_MS } from '@fieldlink/domain/reports';
import { apiGet } from '../../../lib/api-client';
import { REPORTS_KEY } from './reports-keys';

export const getReportMeta = (id: string, accountId: string, signal?: AbortSignal) =>
  apiGet<ReportMeta>(REPORT_META_PATH, { id, accountId }, signal);

/**
 * `GET /report/meta?id&accountId`, once per generating report, every 10 s until its state changes
 * (§4, §9). Answers the latest meta of each, by id.
 */
export function useGeneratingReports(reports: readonly ReportMeta[]): Map<string, ReportMeta> {
  const generating = reports.filter((report) => isReportStatePolled(report.state));
  const results = useQueries({
    queries: generating.map((report) => ({
      queryKey: [...REPORTS_KEY, 'meta', report.accountId, report.id],
      queryFn: ({ signal }: { signal: AbortSignal }) => getReportMeta(report.id, report.accountId, signal),
      refetchInterval: (query: { state: { data?: ReportMeta } }) =>
        !query.state.data || isReportStatePolled(query.state.data.state) ? REPORT_STATE_POLL_MS : false,
      // The list already holds the first answer: the first read is due after one period.
      initialData: report,
      initialDataUpdatedAt: Date.now(),
    })),
  });
  const latest = new Map<string, ReportMeta>();
  for (const result of results) if (result.data) latest.set(result.data.id, result.data);
  return latest;
}
