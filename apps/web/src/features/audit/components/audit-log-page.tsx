import { useMemo, useState } from 'react';
import type { AuditEntry } from '@fieldlink/api/audit';
import { AUDIT_ACTION_LABELS, isAuditAction } from '@fieldlink/domain/audit';
import { formatDateTime } from '@fieldlink/domain/date-format';
import { usePageClock } from '../../../lib/page-time-zone';
import { Button } from '../../../components/ui/button';
import { InlineAlert } from '../../../components/ui/inline-alert';
import { AccountsIcon } from '../../../components/ui/icons';
import { ListState } from '../../../components/ui/list-state';
import { PageHeader } from '../../../components/ui/page-header';
import { useAccount } from '../../../lib/api/get-account';
import { serverErrorMessage } from '../../../lib/api-client';
import { downloadCsv } from '../../../lib/download-csv';
import { useCan } from '../../../lib/session/use-can';
import { getAuditLog, useAuditLog } from '../api/get-audit-log';
import { auditCsv, type AuditFilters } from '../model/audit-filters';
import { AuditFilterForm, type FilterChoice } from './audit-filter-form';
import './audit.css';

/** Entries one export holds at most; past it the file says so in its name. */
const EXPORT_LIMIT = 10_000;
const EXPORT_PAGE = 500;

const actionLabel = (action: string) => (isAuditAction(action) ? AUDIT_ACTION_LABELS[action] : action);
const shortJson = (value: unknown) => (value === null || value === undefined ? '' : JSON.stringify(value));

/** Users and devices named by the entries read so far, for the filters. */
function choicesOf(entries: readonly AuditEntry[]): { users: FilterChoice[]; devices: FilterChoice[] } {
  const users = new Map<string, string>();
  const devices = new Map<string, string>();
  for (const entry of entries) {
    if (entry.actor.kind === 'user' && entry.actor.id) users.set(entry.actor.id, entry.actor.name);
    if (entry.deviceId) {
      const name = entry.target?.kind === 'device' ? entry.target.name : undefined;
      if (name || !devices.has(entry.deviceId)) devices.set(entry.deviceId, name ?? entry.deviceId);
    }
  }
  const sorted = (map: Map<string, string>) =>
    [...map].map(([id, name]) => ({ id, name })).sort((a, b) => a.name.localeCompare(b.name));
  return { users: sorted(users), devices: sorted(devices) };
}

/** Accounts → Audit log: who changed what and when in an account, newest first; filter and export. */
export function AuditLogPage() {
  const canRead = useCan('readAuditLog');
  const clock = usePageClock();
  const account = useAccount();
  const accounts = account.data?.accounts ?? [];
  const [chosen, setChosen] = useState<string | null>(null);
  const accountId = chosen ?? accounts[0]?.id ?? null;
  const [filters, setFilters] = useState<AuditFilters>({});
  const log = useAuditLog(canRead ? accountId : null, filters);
  const entries = useMemo(() => log.data?.pages.flatMap((page) => page.entries) ?? [], [log.data]);
  const [seen, setSeen] = useState<{ users: FilterChoice[]; devices: FilterChoice[] }>({ users: [], devices: [] });
  // The filters keep offering what was seen before a filter narrowed the list.
  const choices = useMemo(() => {
    const now = choicesOf(entries);
    const merge = (a: FilterChoice[], b: FilterChoice[]) =>
      [...new Map([...a, ...b].map((choice) => [choice.id, choice])).values()].sort((x, y) =>
        x.name.localeCompare(y.name),
      );
    return { users: merge(seen.users, now.users), devices: merge(seen.devices, now.devices) };
  }, [entries, seen]);
  const [exporting, setExporting] = useState(false);
  const [exportError, setExportError] = useState<string | null>(null);

  if (!canRead) {
    return (
      <div className="fl-page">
        <PageHeader title="Audit log" summary=" " />
        <InlineAlert tone="info">The audit log is open to administrators (“Administrator” permission).</InlineAlert>
      </div>
    );
  }

  const onApply = (next: AuditFilters) => {
    setSeen(choices);
    setFilters(next);
  };
  const onExport = async () => {
    if (!accountId) return;
    setExporting(true);
    setExportError(null);
    try {
      const all: AuditEntry[] = [];
      let cursor: string | undefined;
      do {
        const page = await getAuditLog(accountId, filters, cursor, EXPORT_PAGE);
        all.push(...page.entries);
        cursor = page.nextCursor ?? undefined;
      } while (cursor && all.length < EXPORT_LIMIT);
      const name = accounts.find((candidate) => candidate.id === accountId)?.name ?? accountId;
      const partial = cursor ? '-first-10000' : '';
      downloadCsv(auditCsv(all.slice(0, EXPORT_LIMIT)), `audit-log-${name}${partial}.csv`);
    } catch (error) {
      setExportError(serverErrorMessage(error));
    } finally {
      setExporting(false);
    }
  };

  return (
    <div className="fl-page">
      <PageHeader
        title="Audit log"
        summary={
          <span data-testid="audit-count">
            {log.data
              ? `${entries.length} ${entries.length === 1 ? 'entry' : 'entries'}${log.hasNextPage ? ' so far' : ''}`
              : ' '}
          </span>
        }
      >
        <div className="audit-toolbar">
          {accounts.length > 1 && (
            <select
              className="fl-select audit-account-select"
              aria-label="Account"
              value={accountId ?? ''}
              onChange={(event) => {
                setChosen(event.target.value);
                setSeen({ users: [], devices: [] });
              }}
            >
              {accounts.map((candidate) => (
                <option key={candidate.id} value={candidate.id}>
                  {candidate.name}
                </option>
              ))}
            </select>
          )}
          <Button size="sm" variant="secondary" busy={exporting} disabled={!accountId} onClick={() => void onExport()}>
            Export CSV
          </Button>
        </div>
      </PageHeader>
      <AuditFilterForm users={choices.users} devices={choices.devices} onApply={onApply} />
      {exportError && <InlineAlert tone="error">The export failed: {exportError}</InlineAlert>}
      <ListState
        query={log}
        noun="audit log"
        empty={
          entries.length > 0
            ? null
            : {
                icon: <AccountsIcon size={22} />,
                title: 'No entries',
                text: 'Changes made in this account appear here: sign-ins, device commands, edits of users, groups, devices and more.',
              }
        }
      >
        <div className="audit-table-wrap fl-card fl-table-frame">
          <table className="fl-table audit-table">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Who</th>
                <th scope="col">Action</th>
                <th scope="col">On</th>
                <th scope="col">Change</th>
                <th scope="col">From</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <tr key={entry.id} data-testid="audit-entry">
                  <td data-label="Time" className="audit-time">
                    {formatDateTime(entry.at, clock)}
                  </td>
                  <td data-label="Who">
                    {entry.actor.name}
                    {entry.actor.kind !== 'user' && <span className="fl-sub">{entry.actor.kind}</span>}
                  </td>
                  <td data-label="Action">{actionLabel(entry.action)}</td>
                  <td data-label="On">
                    {entry.target ? (entry.target.name ?? entry.target.id) : '—'}
                    {entry.target && <span className="fl-sub">{entry.target.kind}</span>}
                  </td>
                  <td data-label="Change" className="audit-change">
                    {entry.before !== null && <span className="audit-before">{shortJson(entry.before)}</span>}
                    {entry.after !== null && <span className="audit-after">{shortJson(entry.after)}</span>}
                  </td>
                  <td data-label="From" className="audit-origin">
                    {entry.address ?? '—'}
                    {entry.client && <span className="fl-sub">{entry.client}</span>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {log.hasNextPage && (
          <div className="audit-more">
            <Button
              size="sm"
              variant="secondary"
              busy={log.isFetchingNextPage}
              onClick={() => void log.fetchNextPage()}
            >
              Load more
            </Button>
          </div>
        )}
      </ListState>
    </div>
  );
}
