import type { Account } from '@fieldlink/api/account';
import {
  NOTIFY_AUDIENCES,
  NOTIFY_AUDIENCE_LABELS,
  REPORT_FORMATS,
  REPORT_INTERVALS,
  REPORT_INTERVAL_LABELS,
  REPORT_VISIBILITIES,
  REPORT_VISIBILITY_LABELS,
} from '@fieldlink/domain/reports';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { CheckCircleIcon, WarningIcon } from '../../../components/ui/icons';
import { InlineAlert } from '../../../components/ui/inline-alert';
import { TextField } from '../../../components/ui/text-field';
import { serverErrorMessage } from '../../../lib/api-client';
import { dateTimeInputValue, instantOfDateTimeInput } from '@fieldlink/domain/date-format';
import { useReportForm } from '../hooks/use-report-form';
import { useSaveReport } from '../hooks/use-save-report';
import type { ReportDialogTarget } from '../model/report-dialog-target';
import { PERIOD_CHOICES, type ReportForm } from '../model/report-form';
import { ChannelPicker } from './channel-picker';
import { CheckList, Choice, ScheduleDayFields, Section } from './report-form-parts';

/**
 * Create or edit a report or a schedule: what it covers (devices and channels from the account
 * tree, period or timing, interval, format), who may see it (the validity rule shown as it is
 * chosen), who is told, and its name, comments and tags. A report's coverage is fixed once made.
 */
export function ReportDialog({
  account,
  target,
  onClose,
}: {
  account: Account;
  target: ReportDialogTarget;
  onClose: () => void;
}) {
  const {
    form,
    set,
    tagText,
    setTagText,
    choices,
    timeZone,
    existingReport,
    existingSchedule,
    fixedCoverage,
    shownIssue,
    accessIssue,
    submit,
  } = useReportForm(account, target);
  const { save, saving, failure } = useSaveReport({
    accountId: account.id,
    kind: target.kind,
    existingReport,
    existingSchedule,
    onSaved: onClose,
  });

  const onSave = () => {
    const ready = submit();
    if (ready) save(ready);
  };

  const title =
    target.kind === 'report'
      ? existingReport
        ? 'Edit report'
        : 'New report'
      : existingSchedule
        ? 'Edit schedule'
        : 'New schedule';

  return (
    <Dialog
      title={title}
      description={
        target.kind === 'schedule'
          ? 'Each run makes a report of the period before it and tells the people you choose.'
          : fixedCoverage
            ? 'What the report covers is fixed; its name, sharing and notices can change.'
            : 'The report is generated in the background; you can leave this page.'
      }
      size="lg"
      onClose={onClose}
      footer={
        <>
          {shownIssue && (
            <span className="reports-dialog__issue" role="alert">
              {shownIssue}
            </span>
          )}
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" busy={saving} onClick={onSave}>
            {existingReport || existingSchedule
              ? 'Save'
              : target.kind === 'report'
                ? 'Generate report'
                : 'Create schedule'}
          </Button>
        </>
      }
    >
      <div className="reports-form">
        {failure && <InlineAlert tone="error">{serverErrorMessage(failure)}</InlineAlert>}
        <Section title="Report">
          <TextField
            label="Name"
            value={form.name}
            maxLength={120}
            onChange={(event) => set('name', event.target.value)}
            autoFocus
          />
          <label className="fl-field">
            <span className="fl-field__label">Comments</span>
            <textarea
              className="fl-input reports-textarea"
              rows={2}
              maxLength={2000}
              value={form.comments}
              onChange={(event) => set('comments', event.target.value)}
            />
          </label>
          <TextField
            label="Tags"
            hint="Separate tags with commas."
            value={tagText}
            onChange={(event) => setTagText(event.target.value)}
          />
        </Section>

        <Section title="Devices and channels">
          {fixedCoverage ? (
            <p className="fl-muted">
              {form.channels && Object.values(form.channels).reduce((sum, codes) => sum + codes.length, 0)} channels of{' '}
              {Object.keys(form.channels).length} devices.
            </p>
          ) : (
            <ChannelPicker
              devices={choices.devices}
              value={form.channels}
              onChange={(value) => set('channels', value)}
            />
          )}
        </Section>

        <Section title={target.kind === 'schedule' ? 'When' : 'Period and figures'}>
          <div className="reports-grid">
            {target.kind === 'report' ? (
              <Choice label="Period">
                <select
                  className="fl-select"
                  value={form.period}
                  disabled={fixedCoverage}
                  onChange={(event) => set('period', event.target.value as ReportForm['period'])}
                >
                  {PERIOD_CHOICES.map((choice) => (
                    <option key={choice.value} value={choice.value}>
                      {choice.label}
                    </option>
                  ))}
                </select>
              </Choice>
            ) : (
              <>
                <ScheduleDayFields form={form} set={set} />
                <TextField
                  label="At"
                  type="time"
                  value={form.time}
                  onChange={(event) => set('time', event.target.value)}
                  hint={form.timeZone}
                />
              </>
            )}
            <Choice label="Figures per">
              <select
                className="fl-select"
                value={form.interval}
                disabled={fixedCoverage}
                onChange={(event) => set('interval', event.target.value as ReportForm['interval'])}
              >
                {REPORT_INTERVALS.map((interval) => (
                  <option key={interval} value={interval}>
                    {REPORT_INTERVAL_LABELS[interval]}
                  </option>
                ))}
              </select>
            </Choice>
            <Choice label="Format">
              <select
                className="fl-select"
                value={form.format}
                disabled={fixedCoverage}
                onChange={(event) => set('format', event.target.value as ReportForm['format'])}
              >
                {REPORT_FORMATS.map((format) => (
                  <option key={format} value={format}>
                    {format === 'CSV' ? 'CSV (spreadsheet)' : 'PDF (charts and summary)'}
                  </option>
                ))}
              </select>
            </Choice>
          </div>
          {target.kind === 'report' && form.period === 'CUSTOM' && (
            <div className="reports-grid">
              <TextField
                label="From"
                type="datetime-local"
                disabled={fixedCoverage}
                value={dateTimeInputValue(form.start, timeZone)}
                onChange={(event) => set('start', instantOfDateTimeInput(event.target.value, timeZone) ?? Number.NaN)}
                hint={timeZone}
              />
              <TextField
                label="To"
                type="datetime-local"
                disabled={fixedCoverage}
                value={dateTimeInputValue(form.end, timeZone)}
                onChange={(event) => set('end', instantOfDateTimeInput(event.target.value, timeZone) ?? Number.NaN)}
                hint={timeZone}
              />
            </div>
          )}
          {target.kind === 'schedule' && (
            <label className="reports-check">
              <input
                type="checkbox"
                checked={form.enabled}
                onChange={(event) => set('enabled', event.target.checked)}
              />
              <span>Enabled</span>
            </label>
          )}
        </Section>

        <Section title="Who may see it">
          <Choice label="Visibility">
            <select
              className="fl-select"
              value={form.visibility}
              onChange={(event) => set('visibility', event.target.value as ReportForm['visibility'])}
            >
              {REPORT_VISIBILITIES.map((visibility) => (
                <option key={visibility} value={visibility}>
                  {REPORT_VISIBILITY_LABELS[visibility]}
                </option>
              ))}
            </select>
          </Choice>
          {form.visibility === 'SELECTED_GROUPS_IN_SCOPE' && (
            <CheckList
              label="Groups to share with"
              options={choices.groups.map((group) => ({ value: group.id, label: group.name }))}
              value={form.groupIds}
              onChange={(value) => set('groupIds', value)}
            />
          )}
          {form.visibility === 'SELECTED_USERS_IN_SCOPE' && (
            <CheckList
              label="Users to share with"
              options={choices.users.map((user) => ({ value: user.email, label: user.name, sub: user.email }))}
              value={form.users}
              onChange={(value) => set('users', value)}
            />
          )}
          <p
            className={`reports-validity${accessIssue ? ' is-invalid' : ''}`}
            data-testid="access-validity"
            aria-live="polite"
          >
            {accessIssue ? <WarningIcon size={15} /> : <CheckCircleIcon size={15} />}
            {accessIssue ??
              (form.visibility === 'PUBLIC'
                ? 'Anyone with the link can open the file; you can revoke the link at any time.'
                : form.visibility === 'CREATOR_ONLY'
                  ? 'Only you (and the account’s administrators) can see it.'
                  : 'Everyone chosen already sees all of these devices.')}
          </p>
        </Section>

        <Section title="Who is told when it is ready">
          <Choice label="Notify">
            <select
              className="fl-select"
              value={form.notifyAudience}
              onChange={(event) => set('notifyAudience', event.target.value as ReportForm['notifyAudience'])}
            >
              {NOTIFY_AUDIENCES.map((audience) => (
                <option key={audience} value={audience}>
                  {NOTIFY_AUDIENCE_LABELS[audience]}
                </option>
              ))}
            </select>
          </Choice>
          {form.notifyAudience === 'SELECTED_USERS' && (
            <CheckList
              label="Users to notify"
              options={choices.users.map((user) => ({ value: user.email, label: user.name, sub: user.email }))}
              value={form.notifyUsers}
              onChange={(value) => set('notifyUsers', value)}
            />
          )}
        </Section>
      </div>
    </Dialog>
  );
}
