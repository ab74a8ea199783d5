import { toCsv } from '@fieldlink/domain/csv';
import { instantOfDateTimeInput } from '@fieldlink/domain/date-format';
import type { AuditEntry } from '@fieldlink/api/audit';

/** What the audit log page filters on, as `GET /audit-log` takes it (absent: any). */
export interface AuditFilters {
  userId?: string;
  deviceId?: string;
  action?: string;
  /** Unix milliseconds, both included. */
  from?: number;
  to?: number;
}

/** The filter form's fields as typed: ids, an action and date-times (`YYYY-MM-DDTHH:mm`) in the page's zone. */
export interface AuditFilterDraft {
  userId: string;
  deviceId: string;
  action: string;
  from: string;
  to: string;
}

export const EMPTY_AUDIT_FILTER_DRAFT: AuditFilterDraft = { userId: '', deviceId: '', action: '', from: '', to: '' };

/**
 * The filters a draft asks for, its times read in the page's zone, or why it cannot be applied (a
 * range ending before it starts).
 */
export function auditFiltersOf(
  draft: AuditFilterDraft,
  timeZone: string,
): { filters: AuditFilters } | { problem: string } {
  const from = instantOfDateTimeInput(draft.from, timeZone) ?? undefined;
  // "To" names a minute: the whole of it is included.
  const toMinute = instantOfDateTimeInput(draft.to, timeZone);
  const to = toMinute === null ? undefined : toMinute + 59_999;
  if (from !== undefined && to !== undefined && from > to) {
    return { problem: 'The time range ends before it starts.' };
  }
  return {
    filters: {
      ...(draft.userId && { userId: draft.userId }),
      ...(draft.deviceId && { deviceId: draft.deviceId }),
      ...(draft.action && { action: draft.action }),
      ...(from !== undefined && { from }),
      ...(to !== undefined && { to }),
    },
  };
}

const CSV_HEADER = [
  'Time (UTC)',
  'Account',
  'Seq',
  'Actor',
  'Actor kind',
  'Address',
  'Client',
  'Action',
  'Target',
  'Target id',
  'Device id',
  'Before',
  'After',
  'Hash',
];

/** JSON of a value, or empty for none. */
const json = (value: unknown) => (value === null || value === undefined ? '' : JSON.stringify(value));

/** The entries as CSV (formula triggers neutralised by `csvLine`), one line each, with a header. */
export function auditCsv(entries: readonly AuditEntry[]): string {
  return toCsv(
    CSV_HEADER,
    entries.map((entry) => [
      new Date(entry.at).toISOString(),
      entry.accountId,
      entry.seq,
      entry.actor.name,
      entry.actor.kind,
      entry.address,
      entry.client,
      entry.action,
      entry.target?.name ?? '',
      entry.target ? `${entry.target.kind}:${entry.target.id}` : '',
      entry.deviceId,
      json(entry.before),
      json(entry.after),
      entry.hash,
    ]),
  );
}
