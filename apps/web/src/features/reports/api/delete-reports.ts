import { REPORT_PATH, type ReportMeta, type ReportRef } from '@fieldlink/api/reports';
import { apiRequest } from '../../../lib/api-client';

/** `DELETE /report {id, accountId}`, one call per report (§7). */
export const deleteReport = (ref: ReportRef) => apiRequest<ReportMeta>('DELETE', REPORT_PATH, { body: ref });
