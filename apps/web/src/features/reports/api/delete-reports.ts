import { useMutation, useQueryClient } from '@tanstack/react-query';
import { REPORT_PATH, type ReportMeta, type ReportRef } from '@fieldlink/api/reports';
import { apiRequest } from '../../../lib/api-client';
import { REPORTS_KEY } from './reports-keys';

export const deleteReport = (ref: ReportRef) => apiRequest<ReportMeta>('DELETE', REPORT_PATH, { body: ref });

/** `DELETE /report {id, accountId}`, one call per report (§7); answers how many failed. */
export function useDeleteReports() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (refs: readonly ReportRef[]) => {
      const outcomes = await Promise.allSettled(refs.map(deleteReport));
      return outcomes.filter((outcome) => outcome.status === 'rejected').length;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: REPORTS_KEY }),
  });
}
