import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { StoreDeviceLogsAnswer } from '@fieldlink/api/inventory';
import { apiGet } from '../../../lib/api-client';
import { INVENTORY_KEY } from './get-overview';

export const getStoreDeviceLogs = (groupId: string, productIds: readonly string[], signal?: AbortSignal) =>
  apiGet<StoreDeviceLogsAnswer>('/inv/store-device-logs', { groupId, productIds: productIds.join(',') }, signal);

export const storeDeviceLogsQuery = (groupId: string, productIds: readonly string[]) =>
  queryOptions({
    queryKey: [...INVENTORY_KEY, 'store-device-logs', groupId, productIds.join(',')],
    queryFn: ({ signal }) => getStoreDeviceLogs(groupId, productIds, signal),
    staleTime: 60_000,
  });

/** `GET /inv/store-device-logs` for the chart's products; the last chart stays while another loads. */
export const useStoreDeviceLogs = (groupId: string, productIds: readonly string[]) =>
  useQuery({
    ...storeDeviceLogsQuery(groupId, productIds),
    enabled: productIds.length > 0,
    placeholderData: keepPreviousData,
  });
