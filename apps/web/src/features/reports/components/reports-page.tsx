import { useEffect, useMemo, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Account } from '@fieldlink/api/account';
import type { ReportMeta } from '@fieldlink/api/reports';
import {
  filterReportList,
  opensInTab,
  reportListTags,
  reportStateLabel,
  sortReportsNewestFirst,
  type ReportListFilter,
  type ReportState,
} from '@fieldlink/domain/reports';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { PencilIcon, ReportsIcon } from '../../../components/ui/icons';
import { InlineAlert } from '../../../components/ui/inline-alert';
import { ListState } from '../../../components/ui/list-state';
import { PanelMessage } from '../../../components/ui/panel-message';
import { serverErrorMessage } from '../../../lib/api-client';
import { showToast } from '../../../lib/app-store/app-store';
import { formatDateTime } from '@fieldlink/domain/date-format';
import { usePageClock } from '../../../lib/page-time-zone';
import { realtimeStore, type ReportProgress } from '../../../lib/realtime/realtime-store';
import { useCan } from '../../../lib/session/use-can';
import { useStore } from '../../../lib/use-store';
import { deleteReport } from '../api/delete-reports';
import { useGeneratingReports } from '../api/get-report-meta';
import { getReportUrl } from '../api/get-report-url';
import { useReports } from '../api/get-reports';
import { REPORTS_KEY } from '../api/reports-keys';
import { useUpdateReport } from '../api/update-report';
import { useBulkDelete } from '../hooks/use-bulk-delete';
import { useReportAccount } from '../hooks/use-report-account';
import { newlyFailedReports } from '../model/report-failures';
import { periodText, REPORT_STATE_TONES, sizeText } from '../model/report-text';
import { SelectAllCell, SelectCell, TagsCell } from './list-cells';
import { ListHeader } from './list-header';
import { ListToolbar } from './list-toolbar';
import { DeleteDialog, ReportsFrame } from './reports-frame';
import type { ReportDialogTarget } from '../model/report-dialog-target';
import { ReportDialog } from './report-dialog';
import './reports.css';

/**
 * Opens (a new tab) or downloads a ready report through its short-lived signed URL; a CSV is always
 * downloaded (`opensInTab`).
 */
async function openReport(report: ReportMeta, download: boolean): Promise<void> {
  // A tab opened before the call keeps the click's permission to open one.
  const tab = download || !opensInTab(report.props.format) ? null : window.open('', '_blank');
  try {
    const { url } = await getReportUrl(report.id, report.accountId, download);
    if (tab) {
      tab.location.href = url;
      return;
    }
    const link = document.createElement('a');
    link.href = url;
    link.download = report.props.fileName ?? '';
    document.body.append(link);
    link.click();
    link.remove();
  } catch (error) {
    tab?.close();
    showToast('error', serverErrorMessage(error));
  }
}

/** The state of a report: its badge, and while it is generated its progress. */
function ReportState({ report, percent }: { report: ReportMeta; percent: number | null }) {
  return (
    <div className="reports-state">
      <Badge tone={REPORT_STATE_TONES[report.state]} dot>
        {report.state === 'ERROR' ? 'Error' : reportStateLabel(report.state)}
      </Badge>
      {report.state === 'GENERATING' && (
        <div
          className="reports-progress"
          role="progressbar"
          aria-label={`Generating ${report.name}`}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent ?? 0}
        >
          <span style={{ width: `${percent ?? 0}%` }} />
        </div>
      )}
      {report.state === 'ERROR' && (
        <span className="reports-error">{reportStateLabel(report.state, report.props.error)}</span>
      )}
    </div>
  );
}

/** The public link of a report, to copy, or to revoke. */
function PublicLinkDialog({ report, onClose }: { report: ReportMeta; onClose: () => void }) {
  const update = useUpdateReport();
  const url = report.props.publicUrl ?? '';
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      showToast('success', 'Public link copied.');
    } catch {
      showToast('warning', 'Select the link and copy it.');
    }
  };
  const revoke = () =>
    update.mutate(
      {
        id: report.id,
        accountId: report.accountId,
        props: { visibility: 'CREATOR_ONLY', access: { type: 'CREATOR_ONLY', groupIds: [], users: [] } },
      },
      {
        onSuccess: () => {
          showToast('success', 'Public link revoked: it no longer opens the report.');
          onClose();
        },
      },
    );
  return (
    <Dialog
      title="Public link"
      description="Anyone with this link can open the report’s file, without signing in."
      onClose={onClose}
      footer={
        <>
          <Button variant="danger" busy={update.isPending} onClick={revoke}>
            Revoke link
          </Button>
          <Button variant="primary" onClick={() => void copy()}>
            Copy link
          </Button>
        </>
      }
    >
      {update.error && <InlineAlert tone="error">{serverErrorMessage(update.error)}</InlineAlert>}
      <input
        className="fl-input"
        readOnly
        aria-label="Public link"
        value={url}
        onFocus={(event) => event.target.select()}
      />
    </Dialog>
  );
}

/**
 * Raises an error toast, with the reason, when a report fails (§4, §8): seen to move into the error
 * state, pushed so, or first seen failed though made since the page opened (`newlyFailedReports`).
 */
function useErrorToasts(reports: readonly ReportMeta[], pushed: Readonly<Record<string, ReportProgress>>): void {
  const seen = useRef(new Map<string, ReportState>());
  const openedAt = useRef(Date.now());
  useEffect(() => {
    const current = reports.map((report) => {
      const push = pushed[report.id];
      return push?.state === 'ERROR'
        ? { ...report, state: push.state, props: { ...report.props, error: push.error } }
        : report;
    });
    for (const report of newlyFailedReports(current, seen.current, openedAt.current)) {
      showToast('error', `Report “${report.name}” failed: ${reportStateLabel('ERROR', report.props.error)}`);
    }
  }, [reports, pushed]);
}

/** /reports: the account's reports, newest first, with their state, and what may be done with each. */
export function ReportsPage() {
  return (
    <ReportsFrame
      capability="readReports"
      icon={<ReportsIcon size={22} />}
      title="Reports are not available to you"
      permission="READ_REPORTS"
      noun="reports"
    >
      {(accounts) => <ReportsList accounts={accounts} />}
    </ReportsFrame>
  );
}

function ReportsList({ accounts }: { accounts: readonly Account[] }) {
  const clock = usePageClock();
  const { account, choices, choose } = useReportAccount(accounts);
  const reports = useReports(account?.id ?? null);
  const canEdit = useCan('editReports');
  const queryClient = useQueryClient();
  const [filter, setFilter] = useState<ReportListFilter>({ tags: [], text: '' });
  const [dialog, setDialog] = useState<ReportDialogTarget | null>(null);
  const [linkOf, setLinkOf] = useState<ReportMeta | null>(null);
  const pushed = useStore(realtimeStore, (state) => state.reports);
  const polled = useGeneratingReports(reports.data ?? []);

  // The freshest state of each report: the list, then its 10-second poll, then what was pushed.
  const merged = useMemo(
    () => sortReportsNewestFirst((reports.data ?? []).map((report) => polled.get(report.id) ?? report)),
    [reports.data, polled],
  );
  // A pushed or polled change of state is worth reading the list again for (file, size, error).
  useEffect(() => {
    const stale = merged.some(
      (report) =>
        (pushed[report.id] && pushed[report.id]!.state !== report.state) ||
        (polled.get(report.id) &&
          polled.get(report.id)!.state !== reports.data?.find((r) => r.id === report.id)?.state),
    );
    if (stale) void queryClient.invalidateQueries({ queryKey: [...REPORTS_KEY, 'list'] });
  }, [merged, pushed, polled, reports.data, queryClient]);
  useErrorToasts(merged, pushed);

  const shown = useMemo(() => filterReportList(merged, filter), [merged, filter]);
  const tags = useMemo(() => reportListTags(merged), [merged]);
  const bulk = useBulkDelete({ shown, noun: 'report', deleteOne: deleteReport, queryKey: REPORTS_KEY });

  if (!account) {
    return (
      <div className="fl-page">
        <PanelMessage icon={<ReportsIcon size={22} />} title="No account">
          You are not attached to an account yet.
        </PanelMessage>
      </div>
    );
  }

  return (
    <div className="fl-page">
      <ListHeader
        title="Reports"
        noun="report"
        count={reports.data ? shown.length : null}
        query={reports}
        accounts={choices}
        account={account}
        onChooseAccount={choose}
        canEdit={canEdit}
        chosen={bulk.chosen.length}
        onDelete={() => bulk.setConfirming(true)}
        onCreate={() => setDialog({ kind: 'report' })}
      />

      <ListToolbar filter={filter} tags={tags} onChange={setFilter} />

      <ListState
        query={reports}
        noun="reports"
        empty={
          shown.length > 0
            ? null
            : {
                icon: <ReportsIcon size={22} />,
                title: merged.length === 0 ? 'No reports yet' : 'No report matches',
                text:
                  merged.length === 0
                    ? 'A report sums up chosen channels over a period, as a CSV table or a PDF with charts.'
                    : 'Clear the search or the tags to see every report.',
              }
        }
      >
        <div className="fl-card fl-table-frame">
          <table className="fl-table reports-table">
            <thead>
              <tr>
                {canEdit && (
                  <SelectAllCell
                    noun="report"
                    chosen={bulk.chosen.length}
                    shown={shown.length}
                    onToggle={bulk.toggleAll}
                  />
                )}
                <th scope="col">Report</th>
                <th scope="col">State</th>
                <th scope="col">Covers</th>
                <th scope="col">Created</th>
                <th scope="col">Tags</th>
                <th scope="col" aria-label="Actions" />
              </tr>
            </thead>
            <tbody>
              {shown.map((report) => (
                <tr key={report.id} data-testid="report-row">
                  {canEdit && <SelectCell item={report} selected={bulk.selected} onToggle={bulk.toggle} />}
                  <td>
                    <span className="reports-name">{report.name}</span>
                    <span className="fl-sub">
                      {report.props.format}
                      {report.props.size !== null ? ` · ${sizeText(report.props.size)}` : ''}
                      {report.props.frequency ? ` · ${report.props.frequency.toLowerCase()} schedule` : ''}
                      {report.comments ? ` · ${report.comments}` : ''}
                    </span>
                  </td>
                  <td data-label="State">
                    <ReportState report={report} percent={pushed[report.id]?.percent ?? report.props.percent} />
                  </td>
                  <td data-label="Covers" className="reports-nowrap">
                    {periodText(report.props.start, report.props.end, report.props.interval, clock)}
                    <span className="fl-sub">
                      {report.props.devices.length} {report.props.devices.length === 1 ? 'device' : 'devices'}
                    </span>
                  </td>
                  <td data-label="Created" className="reports-nowrap">
                    {formatDateTime(report.createdAt, clock)}
                    <span className="fl-sub">{report.props.createdBy}</span>
                  </td>
                  <TagsCell tags={report.tags} />
                  <td className="reports-row-actions">
                    {report.state === 'READY' && (
                      <>
                        {opensInTab(report.props.format) && (
                          <Button size="sm" variant="ghost" onClick={() => void openReport(report, false)}>
                            Open
                          </Button>
                        )}
                        <Button size="sm" onClick={() => void openReport(report, true)}>
                          Download
                        </Button>
                      </>
                    )}
                    {report.props.publicUrl && (
                      <Button size="sm" variant="ghost" onClick={() => setLinkOf(report)}>
                        Public link
                      </Button>
                    )}
                    {canEdit && report.props.canChange && (
                      <Button
                        size="sm"
                        variant="ghost"
                        aria-label={`Edit ${report.name}`}
                        onClick={() => setDialog({ kind: 'report', report })}
                      >
                        <PencilIcon size={15} />
                      </Button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </ListState>

      {dialog && <ReportDialog account={account} target={dialog} onClose={() => setDialog(null)} />}
      {linkOf && <PublicLinkDialog report={linkOf} onClose={() => setLinkOf(null)} />}
      {bulk.confirming && (
        <DeleteDialog
          names={bulk.chosen}
          noun="report"
          note="Their files and public links go too. This cannot be undone."
          busy={bulk.busy}
          onConfirm={bulk.confirm}
          onClose={() => bulk.setConfirming(false)}
        />
      )}
    </div>
  );
}
