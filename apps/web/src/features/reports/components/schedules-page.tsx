import { useMemo, useState } from 'react';
import type { Account } from '@fieldlink/api/account';
import type { ReportSchedule } from '@fieldlink/api/reports';
import {
  NOTIFY_AUDIENCE_LABELS,
  REPORT_FREQUENCY_LABELS,
  REPORT_INTERVAL_LABELS,
  REPORT_VISIBILITY_LABELS,
  filterReportList,
  reportListTags,
  type ReportListFilter,
} from '@fieldlink/domain/reports';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { ClockIcon, PencilIcon } from '../../../components/ui/icons';
import { ListState } from '../../../components/ui/list-state';
import { formatDateTime } from '@fieldlink/domain/date-format';
import { usePageClock } from '../../../lib/page-time-zone';
import { useCan } from '../../../lib/session/use-can';
import { useSchedules } from '../api/get-schedules';
import { SCHEDULES_KEY } from '../api/reports-keys';
import { deleteSchedule } from '../api/save-schedule';
import { useBulkDelete } from '../hooks/use-bulk-delete';
import { useReportAccount } from '../hooks/use-report-account';
import { SelectAllCell, SelectCell, TagsCell } from './list-cells';
import { ListHeader } from './list-header';
import { ListToolbar } from './list-toolbar';
import { ReportDialog } from './report-dialog';
import { DeleteDialog, ReportsFrame } from './reports-frame';
import './reports.css';

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** `Weekly on Monday at 07:00 (Europe/London)`. */
function timingText(schedule: ReportSchedule): string {
  const { props } = schedule;
  const when =
    props.frequency === 'WEEKLY'
      ? ` on ${WEEKDAYS[props.dayOfWeek]}`
      : props.frequency === 'MONTHLY'
        ? ` on day ${props.dayOfMonth}`
        : '';
  return `${REPORT_FREQUENCY_LABELS[props.frequency]}${when} at ${props.time} (${props.timeZone})`;
}

/** /reports/schedules: reports made on a schedule, with their next run. */
export function SchedulesPage() {
  return (
    <ReportsFrame
      capability="readReportSchedules"
      icon={<ClockIcon size={22} />}
      title="Schedules are not available to you"
      permission="READ_REPORT_SCHEDULES"
      noun="schedules"
    >
      {(accounts) => <SchedulesList accounts={accounts} />}
    </ReportsFrame>
  );
}

function SchedulesList({ accounts }: { accounts: readonly Account[] }) {
  const clock = usePageClock();
  const { account, choices, choose } = useReportAccount(accounts);
  const schedules = useSchedules(account?.id ?? null);
  const canEdit = useCan('editReportSchedules');
  const [filter, setFilter] = useState<ReportListFilter>({ tags: [], text: '' });
  const [editing, setEditing] = useState<{ schedule?: ReportSchedule } | null>(null);

  const ofAccount = useMemo(
    () => (schedules.data ?? []).filter((schedule) => schedule.accountId === account?.id),
    [schedules.data, account],
  );
  const shown = useMemo(() => filterReportList(ofAccount, filter), [ofAccount, filter]);
  const tags = useMemo(() => reportListTags(ofAccount), [ofAccount]);
  const bulk = useBulkDelete({ shown, noun: 'schedule', deleteOne: deleteSchedule, queryKey: SCHEDULES_KEY });

  if (!account) return null;

  return (
    <div className="fl-page">
      <ListHeader
        title="Schedules"
        noun="schedule"
        count={schedules.data ? shown.length : null}
        query={schedules}
        accounts={choices}
        account={account}
        onChooseAccount={choose}
        canEdit={canEdit}
        chosen={bulk.chosen.length}
        onDelete={() => bulk.setConfirming(true)}
        onCreate={() => setEditing({})}
      />

      <ListToolbar filter={filter} tags={tags} onChange={setFilter} />

      <ListState
        query={schedules}
        noun="schedules"
        empty={
          shown.length > 0
            ? null
            : {
                icon: <ClockIcon size={22} />,
                title: ofAccount.length === 0 ? 'No schedules yet' : 'No schedule matches',
                text:
                  ofAccount.length === 0
                    ? 'A schedule makes a report every day, week or month and mails it to the people you choose.'
                    : 'Clear the search or the tags to see every schedule.',
              }
        }
      >
        <div className="fl-card fl-table-frame">
          <table className="fl-table reports-table">
            <thead>
              <tr>
                {canEdit && (
                  <SelectAllCell
                    noun="schedule"
                    chosen={bulk.chosen.length}
                    shown={shown.length}
                    onToggle={bulk.toggleAll}
                  />
                )}
                <th scope="col">Schedule</th>
                <th scope="col">Runs</th>
                <th scope="col">Next run</th>
                <th scope="col">Sharing</th>
                <th scope="col">Tags</th>
                <th scope="col" aria-label="Actions" />
              </tr>
            </thead>
            <tbody>
              {shown.map((schedule) => (
                <tr key={schedule.id} data-testid="schedule-row">
                  {canEdit && <SelectCell item={schedule} selected={bulk.selected} onToggle={bulk.toggle} />}
                  <td>
                    <span className="reports-name">{schedule.name}</span>
                    <span className="fl-sub">
                      {schedule.props.format} · per {REPORT_INTERVAL_LABELS[schedule.props.interval].toLowerCase()} ·{' '}
                      {schedule.props.devices.length} {schedule.props.devices.length === 1 ? 'device' : 'devices'}
                      {schedule.comments ? ` · ${schedule.comments}` : ''}
                    </span>
                  </td>
                  <td data-label="Runs">{timingText(schedule)}</td>
                  <td data-label="Next run" className="reports-nowrap">
                    {schedule.props.enabled && schedule.props.nextRunAt !== null ? (
                      formatDateTime(schedule.props.nextRunAt, clock)
                    ) : (
                      <Badge tone="neutral">Paused</Badge>
                    )}
                    {schedule.props.lastRunAt !== null && (
                      <span className="fl-sub">Last {formatDateTime(schedule.props.lastRunAt, clock)}</span>
                    )}
                  </td>
                  <td data-label="Sharing">
                    {REPORT_VISIBILITY_LABELS[schedule.props.visibility]}
                    <span className="fl-sub">Notify: {NOTIFY_AUDIENCE_LABELS[schedule.props.notifyAudience]}</span>
                  </td>
                  <TagsCell tags={schedule.tags} />
                  <td className="reports-row-actions">
                    {canEdit && schedule.props.canChange && (
                      <Button
                        size="sm"
                        variant="ghost"
                        aria-label={`Edit ${schedule.name}`}
                        onClick={() => setEditing({ schedule })}
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

      {editing && (
        <ReportDialog
          account={account}
          target={{ kind: 'schedule', schedule: editing.schedule }}
          onClose={() => setEditing(null)}
        />
      )}
      {bulk.confirming && (
        <DeleteDialog
          names={bulk.chosen}
          noun="schedule"
          note="No more reports are made by them; the reports they made stay."
          busy={bulk.busy}
          onConfirm={bulk.confirm}
          onClose={() => bulk.setConfirming(false)}
        />
      )}
    </div>
  );
}
