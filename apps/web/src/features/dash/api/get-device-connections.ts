import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DeviceConnectionsAnswer } from '@fieldlink/api/device';
import { apiGet } from '../../../lib/api-client';

export const getDeviceConnections = (deviceId: string, signal?: AbortSignal) =>
  apiGet<DeviceConnectionsAnswer>('/device/connections', { deviceId, limit: 50 }, signal);

export const deviceConnectionsQuery = (deviceId: string) =>
  queryOptions({
    queryKey: ['device-connections', deviceId],
    queryFn: ({ signal }) => getDeviceConnections(deviceId, signal),
  });

export const useDeviceConnections = (deviceId: string | undefined) =>
  useQuery({ ...deviceConnectionsQuery(deviceId ?? ''), enabled: Boolean(deviceId) });
