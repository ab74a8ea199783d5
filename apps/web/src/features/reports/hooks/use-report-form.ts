import { useMemo, useState } from 'react';
import type { Account } from '@fieldlink/api/account';
import { usePageClock } from '../../../lib/page-time-zone';
import {
  accessIssueOf,
  emptyReportForm,
  formIssue,
  parseTags,
  reportChoices,
  reportFormOf,
  scheduleFormOf,
  type ReportForm,
} from '../model/report-form';
import type { ReportDialogTarget } from '../model/report-dialog-target';

/**
 * The report dialog's form state: the fields, the tags as typed, whether saving was tried, and what
 * keeps it from being saved (the rules of `model/report-form`, which apply the domain's).
 */
export function useReportForm(account: Account, target: ReportDialogTarget) {
  const [now] = useState(() => Date.now());
  const { timeZone } = usePageClock();
  const existingReport = target.kind === 'report' ? target.report : undefined;
  const existingSchedule = target.kind === 'schedule' ? target.schedule : undefined;
  const [form, setForm] = useState<ReportForm>(() =>
    existingReport
      ? reportFormOf(existingReport, now, timeZone)
      : existingSchedule
        ? scheduleFormOf(existingSchedule, now, timeZone)
        : emptyReportForm(now, timeZone),
  );
  const [tagText, setTagText] = useState(form.tags.join(', '));
  const [tried, setTried] = useState(false);
  const choices = useMemo(() => reportChoices(account), [account]);

  const set = <K extends keyof ReportForm>(key: K, value: ReportForm[K]) =>
    setForm((old) => ({ ...old, [key]: value }));
  const ready: ReportForm = { ...form, tags: parseTags(tagText) };
  const issue = formIssue(ready, choices, now, target.kind);

  return {
    form,
    set,
    tagText,
    setTagText,
    choices,
    timeZone,
    existingReport,
    existingSchedule,
    /** A report's coverage is fixed once made. */
    fixedCoverage: existingReport !== undefined,
    issue,
    /** Shown only once saving was tried. */
    shownIssue: tried ? issue : null,
    accessIssue: accessIssueOf(form, choices),
    /** The form to send, or null (and the issue shown) when it cannot be saved. */
    submit: (): ReportForm | null => {
      setTried(true);
      return issue ? null : ready;
    },
  };
}
