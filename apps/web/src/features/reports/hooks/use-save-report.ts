import type { ReportMeta, ReportSchedule } from '@fieldlink/api/reports';
import { showToast } from '../../../lib/app-store/app-store';
import { useCreateReport } from '../api/create-report';
import { useSaveSchedule } from '../api/save-schedule';
import { useUpdateReport } from '../api/update-report';
import {
  newReportBody,
  newScheduleBody,
  reportUpdateBody,
  scheduleUpdateBody,
  type ReportForm,
} from '../model/report-form';

/**
 * The report dialog's calls: `POST /report`, `PUT /report/meta`, or `POST`/`PUT /reports/schedule`;
 * a success is toasted and closes the dialog.
 */
export function useSaveReport({
  accountId,
  kind,
  existingReport,
  existingSchedule,
  onSaved,
}: {
  accountId: string;
  kind: 'report' | 'schedule';
  existingReport?: ReportMeta;
  existingSchedule?: ReportSchedule;
  onSaved: () => void;
}) {
  const createReport = useCreateReport();
  const updateReport = useUpdateReport();
  const saveSchedule = useSaveSchedule();
  const done = (message: string) => {
    showToast('success', message);
    onSaved();
  };
  const save = (ready: ReportForm) => {
    if (kind === 'report') {
      if (existingReport)
        updateReport.mutate(reportUpdateBody(ready, existingReport), { onSuccess: () => done('Report saved.') });
      else
        createReport.mutate(newReportBody(ready, accountId, Date.now()), {
          onSuccess: () => done('Report started: it is being generated.'),
        });
    } else {
      saveSchedule.mutate(
        existingSchedule
          ? { update: scheduleUpdateBody(ready, existingSchedule) }
          : { create: newScheduleBody(ready, accountId) },
        { onSuccess: () => done('Schedule saved.') },
      );
    }
  };
  return {
    save,
    saving: createReport.isPending || updateReport.isPending || saveSchedule.isPending,
    failure: createReport.error ?? updateReport.error ?? saveSchedule.error,
  };
}
