import { useMemo, useState } from 'react';
import type { AuditEntry } from '@fieldlink/api/audit';
import { AUDIT_ACTION_LABELS, auditChangeLines, isAuditAction } from '@fieldlink/domain/audit';
import { formatDateTime, type Clock } from '@fieldlink/domain/date-format';
import { usePageClock } from '../../../lib/page-time-zone';
import { Button } from '../../../components/ui/button';
import { InlineAlert } from '../../../components/ui/inline-alert';
import { AccountsIcon } from '../../../components/ui/icons';
import { ListState } from '../../../components/ui/list-state';
import { PageHeader } from '../../../components/ui/page-header';
import { AccountSelect, useChosenAccount } from '../../../components/ui/account-select';
import { serverErrorMessage } from '../../../lib/api-client';
import { downloadCsv } from '../../../lib/download-csv';
import { useCan } from '../../../lib/session/use-can';
import { getAuditLog, useAuditChoices, useAuditLog } from '../api/get-audit-log';
import { auditCsv, type AuditFilters } from '../model/audit-filters';
import { AuditFilterForm } from './audit-filter-form';
import './audit.css';

/** Entries one export holds at most; past it the file says so in its name. */
const EXPORT_LIMIT = 10_000;
const EXPORT_PAGE = 500;

/** Who else than a user makes changes, as the filter names them. */
const ACTOR_KIND_LABELS = { token: 'API token', system: 'Fieldlink' } as const;

const actionLabel = (action: string) => (isAuditAction(action) ? AUDIT_ACTION_LABELS[action] : action);

/** What an entry changed, a line per value: `Name  North → South`. */
function ChangeLines({ entry, clock }: { entry: AuditEntry; clock: Clock }) {
  const lines = auditChangeLines(entry.before, entry.after, (t) => formatDateTime(t, clock));
  if (lines.length === 0) return <span className="fl-muted">—</span>;
  return (
    <dl className="audit-changes">
      {lines.map((line) => (
        <div key={line.field} className="audit-changes__line">
          <dt>{line.field}</dt>
          <dd>
            {line.before !== undefined && (
              <>
                <span className="audit-before">{line.before}</span>
                {line.after !== undefined && <span aria-label="changed to"> → </span>}
              </>
            )}
            {line.after !== undefined && <span className="audit-after">{line.after}</span>}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** Accounts → Audit log: who changed what and when in an account, newest first; filter and export. */
export function AuditLogPage() {
  const canRead = useCan('readAuditLog');
  const clock = usePageClock();
  const { accounts, accountId, choose } = useChosenAccount();
  const [filters, setFilters] = useState<AuditFilters>({});
  const log = useAuditLog(canRead ? accountId : null, filters);
  const entries = useMemo(() => log.data?.pages.flatMap((page) => page.entries) ?? [], [log.data]);
  const choices = useAuditChoices(canRead ? accountId : null).data;
  const actors = useMemo(
    () =>
      (choices?.actors ?? []).map((actor) => ({
        id: actor.id,
        name: actor.kind === 'user' ? actor.name : `${actor.name} (${ACTOR_KIND_LABELS[actor.kind]})`,
      })),
    [choices],
  );
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
          <AccountSelect className="audit-account-select" accounts={accounts} value={accountId} onChoose={choose} />
          <Button size="sm" variant="secondary" busy={exporting} disabled={!accountId} onClick={() => void onExport()}>
            Export CSV
          </Button>
        </div>
      </PageHeader>
      <AuditFilterForm users={actors} devices={choices?.devices ?? []} timeZone={clock.timeZone} onApply={setFilters} />
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
                    <ChangeLines entry={entry} clock={clock} />
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
