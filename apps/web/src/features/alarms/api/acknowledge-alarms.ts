import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AcknowledgeAlarmsBody, AlarmListAnswer } from '@fieldlink/api/alarms';
import { apiPost } from '../../../lib/api-client';
import { ALARMS_KEY } from './get-alarms';
import { DEVICE_ALARMS_KEY } from './get-device-alarms';

export const acknowledgeAlarms = (body: AcknowledgeAlarmsBody) => apiPost<AlarmListAnswer>('/alarms/acknowledge', body);

/** Acknowledges alarms; every alarm list and device alarm answer is read again. */
export function useAcknowledgeAlarms() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: acknowledgeAlarms,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ALARMS_KEY }),
        queryClient.invalidateQueries({ queryKey: DEVICE_ALARMS_KEY }),
      ]),
    // Specification §8: an alarm update failure is only logged.
    onError: (error) => console.error('Alarm acknowledgement failed', error),
  });
}
