import { keepPreviousData, queryOptions, useQueries, useQuery } from '@tanstack/react-query';
import { DEVICE_LOGS_FORMAT, type DeviceLogsAnswer } from '@fieldlink/api/device-logs';
import { apiGet } from '../api-client';

// `GET /device-logs`, shared by the device dash's log chart and the scene chart and table widgets.

export interface DeviceLogsRequest {
  deviceId: string;
  channels: readonly string[];
  start: number;
  end: number;
  binCount: number;
}

export const getDeviceLogs = ({ deviceId, channels, start, end, binCount }: DeviceLogsRequest, signal?: AbortSignal) =>
  apiGet<DeviceLogsAnswer>(
    '/device-logs',
    { format: DEVICE_LOGS_FORMAT, deviceId, channels: channels.join(','), start, end, binCount },
    signal,
  );

export const deviceLogsQuery = (request: DeviceLogsRequest) =>
  queryOptions({
    queryKey: [
      'device-logs',
      request.deviceId,
      request.channels.join(','),
      request.start,
      request.end,
      request.binCount,
    ],
    queryFn: ({ signal }) => getDeviceLogs(request, signal),
    staleTime: 60_000,
  });

/** Logs of a window; the previous chart stays on screen while a new window loads. */
export const useDeviceLogs = (request: DeviceLogsRequest | null) =>
  useQuery({
    ...deviceLogsQuery(request ?? { deviceId: '', channels: [], start: 0, end: 1, binCount: 1 }),
    enabled: request !== null && request.channels.length > 0,
    placeholderData: keepPreviousData,
  });

/** The same window of several devices, one call per device; answers in request order. */
export const useDevicesLogs = (requests: readonly DeviceLogsRequest[]) =>
  useQueries({
    queries: requests.map((request) => ({
      ...deviceLogsQuery(request),
      enabled: request.channels.length > 0,
      placeholderData: keepPreviousData,
    })),
  });
