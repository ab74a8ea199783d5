import {
  REPORT_PUBLIC_PATH,
  type NewReportProps,
  type NewScheduleProps,
  type ReportMeta,
  type ReportSchedule,
} from '@fieldlink/api/reports';
import { REPORT_STATES, type ReportFrequency, type ReportState } from '@fieldlink/domain/reports';
import type { ReportRow, ScheduleRow } from './repository';

const asState = (state: string): ReportState =>
  (REPORT_STATES as readonly string[]).includes(state) ? (state as ReportState) : 'ERROR';

const numberOrNull = (value: number | string | null) => (value === null ? null : Number(value));

/** The public link of a report's token. */
export function publicReportUrl(publicUrl: string, token: string): string {
  return `${publicUrl}/api/v1${REPORT_PUBLIC_PATH}/${token}`;
}

/** The one mapping of a report row to the API's report meta; the public link only for those who may change it. */
export function toReportMeta(
  row: ReportRow,
  file: { name: string; size: number } | null,
  options: { canChange: boolean; publicUrl: string },
): ReportMeta {
  const props = JSON.parse(row.props) as NewReportProps;
  const state = asState(row.state);
  return {
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    comments: row.comments,
    tags: JSON.parse(row.tags) as string[],
    createdAt: Number(row.created_at),
    state,
    props: {
      ...props,
      state,
      error: row.error,
      percent: numberOrNull(row.percent),
      frequency: row.frequency as ReportFrequency | null,
      scheduleId: row.schedule_id,
      createdBy: row.created_by_email,
      fileName: file?.name ?? null,
      size: file?.size ?? null,
      completedAt: numberOrNull(row.completed_at),
      publicUrl: options.canChange && row.public_token ? publicReportUrl(options.publicUrl, row.public_token) : null,
      canChange: options.canChange,
    },
  };
}

/** The one mapping of a schedule row to the API's report schedule. */
export function toReportSchedule(row: ScheduleRow, canChange: boolean): ReportSchedule {
  const props = JSON.parse(row.props) as NewScheduleProps;
  return {
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    comments: row.comments,
    tags: JSON.parse(row.tags) as string[],
    createdAt: Number(row.created_at),
    props: {
      ...props,
      createdBy: row.created_by_email,
      nextRunAt: numberOrNull(row.next_run_at),
      lastRunAt: numberOrNull(row.last_run_at),
      lastReportId: row.last_report_id,
      canChange,
    },
  };
}
