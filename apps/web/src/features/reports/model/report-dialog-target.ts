import type { ReportMeta, ReportSchedule } from '@fieldlink/api/reports';

/** What the report dialog opens on: a new or existing report, or a new or existing schedule. */
export type ReportDialogTarget =
  { kind: 'report'; report?: ReportMeta } | { kind: 'schedule'; schedule?: ReportSchedule };
