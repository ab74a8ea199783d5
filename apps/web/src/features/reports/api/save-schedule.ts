import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  REPORTS_SCHEDULE_PATH,
  type NewScheduleBody,
  type ReportRef,
  type ReportSchedule,
  type ScheduleUpdate,
} from '@fieldlink/api/reports';
import { apiPost, apiRequest } from '../../../lib/api-client';
import { SCHEDULES_KEY } from './reports-keys';

export const createSchedule = (body: NewScheduleBody) => apiPost<ReportSchedule>(REPORTS_SCHEDULE_PATH, body);
export const updateSchedule = (body: ScheduleUpdate) =>
  apiRequest<ReportSchedule>('PUT', REPORTS_SCHEDULE_PATH, { body });
/** `DELETE /reports/schedule {id, accountId}`, one call per schedule. */
export const deleteSchedule = (ref: ReportRef) =>
  apiRequest<ReportSchedule>('DELETE', REPORTS_SCHEDULE_PATH, { body: ref });

/** `POST /reports/schedule` or `PUT /reports/schedule {id, props, accountId}`. */
export function useSaveSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (save: { create: NewScheduleBody } | { update: ScheduleUpdate }) =>
      'create' in save ? createSchedule(save.create) : updateSchedule(save.update),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SCHEDULES_KEY }),
  });
}
