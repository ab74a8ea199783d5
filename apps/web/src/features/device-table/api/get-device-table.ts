import { queryOptions, useQuery } from '@tanstack/react-query';
import { DEVICE_TABLE_PATH, type DeviceTableAnswer } from '@fieldlink/api/device-table';
import { apiGet } from '../../../lib/api-client';
import { decodeDeviceTable, type DeviceTableData } from '../model/table-data';

/**
 * `GET /devices/table`. The browser's HTTP cache revalidates it with the ETag (no-cache), so a
 * reload of an unchanged fleet transfers no body; the decoded table is what the query keeps.
 */
export const getDeviceTable = async (signal?: AbortSignal): Promise<DeviceTableData> =>
  decodeDeviceTable(await apiGet<DeviceTableAnswer>(DEVICE_TABLE_PATH, undefined, signal));

/** Refreshed every minute while open, for connection states and health; the server caches too. */
export const DEVICE_TABLE_REFRESH_MS = 60_000;

export const deviceTableQuery = () =>
  queryOptions({
    queryKey: ['device-table'],
    queryFn: ({ signal }) => getDeviceTable(signal),
    staleTime: 15_000,
    refetchInterval: DEVICE_TABLE_REFRESH_MS,
  });

export const useDeviceTable = () => useQuery(deviceTableQuery());
