import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChannelAlarm, PutDeviceAlarmBody } from '@fieldlink/api/alarms';
import { apiRequest } from '../../../lib/api-client';
import { ALARMS_KEY } from './get-alarms';
import { DEVICE_ALARMS_KEY } from './get-device-alarms';

export const putDeviceAlarm = (body: PutDeviceAlarmBody) => apiRequest<ChannelAlarm>('PUT', '/device/alarm', { body });

export function usePutDeviceAlarm() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: putDeviceAlarm,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: DEVICE_ALARMS_KEY }),
        queryClient.invalidateQueries({ queryKey: ALARMS_KEY }),
      ]),
    // Specification §8: an alarm update failure is only logged.
    onError: (error) => console.error('Alarm update failed', error),
  });
}
