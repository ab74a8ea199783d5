import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { BREW_PATHS, type BatchIdBody, type BrewReport } from '@fieldlink/api/brew';
import { isReportStatePolled, REPORT_STATE_POLL_MS } from '@fieldlink/domain/reports';
import { apiGet, apiPost, serverErrorMessage } from '../../../lib/api-client';
import { showToast } from '../../../lib/app-store/app-store';
import { BREW_KEY } from '../../../lib/api/get-brew-overview';

/** `POST /brew/batch/report/generate`. */
export function useGenerateReport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: BatchIdBody) => apiPost<BrewReport>(BREW_PATHS.reportGenerate, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: BREW_KEY }),
    onError: (error) => showToast('error', serverErrorMessage(error)),
  });
}

/**
 * `GET /brew/batch/report/state ?id`, polled every 10 s while the report is generating (§4); the
 * batch's queries are read again once it changed.
 */
export function useReportState(report: BrewReport) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: [...BREW_KEY, 'report-state', report.id],
    queryFn: async ({ signal }) => {
      const state = await apiGet<BrewReport>(BREW_PATHS.reportState, { id: report.id }, signal);
      if (state.state !== report.state) void queryClient.invalidateQueries({ queryKey: BREW_KEY, exact: false });
      return state;
    },
    initialData: report,
    enabled: isReportStatePolled(report.state),
    refetchInterval: (query) =>
      query.state.data && isReportStatePolled(query.state.data.state) ? REPORT_STATE_POLL_MS : false,
  });
}

/** `GET /brew/batch/report ?id` answers `{url}`, which is then downloaded (§7). */
export async function downloadReport(id: string): Promise<void> {
  try {
    const { url } = await apiGet<{ url: string }>(BREW_PATHS.report, { id });
    const link = document.createElement('a');
    link.href = url;
    link.rel = 'noopener';
    document.body.append(link);
    link.click();
    link.remove();
  } catch (error) {
    showToast('error', serverErrorMessage(error));
  }
}
