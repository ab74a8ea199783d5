import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DeviceAlarmsAnswer } from '@fieldlink/api/alarms';
import { apiGet } from '../../../lib/api-client';

export const DEVICE_ALARMS_KEY = ['device-alarms'] as const;

export const getDeviceAlarms = (deviceId: string, signal?: AbortSignal) =>
  apiGet<DeviceAlarmsAnswer>('/device/alarms', { deviceId }, signal);

export const deviceAlarmsQuery = (deviceId: string) =>
  queryOptions({
    queryKey: [...DEVICE_ALARMS_KEY, deviceId],
    queryFn: async ({ signal }) => {
      try {
        return await getDeviceAlarms(deviceId, signal);
      } catch (error) {
        // Specification §8: an alarm fetch failure is only logged.
        if (!signal?.aborted) console.error('Alarm fetch failed', error);
        throw error;
      }
    },
  });

/** One device's channel alarms; every channel card of the device shares the one request. */
export const useDeviceAlarms = (deviceId: string) =>
  useQuery({ ...deviceAlarmsQuery(deviceId), refetchInterval: 30_000, retry: false });
