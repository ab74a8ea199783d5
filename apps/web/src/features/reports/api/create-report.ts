import { useMutation, useQueryClient } from '@tanstack/react-query';
import { REPORT_PATH, type NewReportBody, type ReportMeta } from '@fieldlink/api/reports';
import { apiPost } from '../../../lib/api-client';
import { REPORTS_KEY } from './reports-keys';

export const createReport = (body: NewReportBody) => apiPost<ReportMeta>(REPORT_PATH, body);

/** `POST /report`: the new report starts GENERATING; the lists are read again. */
export function useCreateReport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createReport,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: REPORTS_KEY }),
  });
}
