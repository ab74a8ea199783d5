import { useMutation, useQueryClient } from '@tanstack/react-query';
import { REPORT_META_PATH, type ReportMeta, type ReportMetaUpdate } from '@fieldlink/api/reports';
import { apiRequest } from '../../../lib/api-client';
import { REPORTS_KEY } from './reports-keys';

export const updateReport = (body: ReportMetaUpdate) => apiRequest<ReportMeta>('PUT', REPORT_META_PATH, { body });

/** `PUT /report/meta {id, props, accountId}`: name, comments, tags and sharing. */
export function useUpdateReport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateReport,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: REPORTS_KEY }),
  });
}
