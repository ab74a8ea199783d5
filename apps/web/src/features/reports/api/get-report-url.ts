import { REPORT_PATH } from '@fieldlink/api/reports';
import type { FileUrlAnswer } from '@fieldlink/api/files';
import { apiGet } from '../../../lib/api-client';

/** `GET /report` with the report's params: a short-lived signed URL of its file, to open or download. */
export const getReportUrl = (id: string, accountId: string, download: boolean) =>
  apiGet<FileUrlAnswer>(REPORT_PATH, { id, accountId, download });
