import { queryOptions, useQuery } from '@tanstack/react-query';
import { DEVICE_TABLE_BINARY_QUERY, DEVICE_TABLE_PATH } from '@fieldlink/api/device-table';
import { decodeDeviceTableBinary } from '@fieldlink/api/device-table-binary';
import { HeldAnswer } from '../../../lib/held-answer';
import { decodeDeviceTable, type DeviceTableData } from '../model/table-data';

/** Names of the timings this call leaves in the browser's performance timeline (read by the benchmark). */
export const DEVICE_TABLE_TIMINGS = {
  fetch: 'device-table:fetch',
  decode: 'device-table:decode',
} as const;

const BINARY = { format: DEVICE_TABLE_BINARY_QUERY };

/**
 * `GET /devices/table` in its binary form (read straight into typed columns, no JSON to parse),
 * revalidated with the ETag: an unchanged fleet answers 304 and the table already decoded is kept,
 * together with the sorted orders built on it.
 */
const table = new HeldAnswer(
  DEVICE_TABLE_PATH,
  BINARY,
  async (response, sent): Promise<DeviceTableData> => {
    const body = new Uint8Array(await response.arrayBuffer());
    const received = performance.now();
    const data = decodeDeviceTable(decodeDeviceTableBinary(body));
    performance.measure(DEVICE_TABLE_TIMINGS.fetch, { start: sent, end: received });
    performance.measure(DEVICE_TABLE_TIMINGS.decode, { start: received });
    return data;
  },
  // Without a decoded table (a reload), the browser's cache revalidates its stored copy and answers
  // the body it has, which saves the download.
  'no-cache',
);

export const getDeviceTable = (signal?: AbortSignal): Promise<DeviceTableData> => table.get(signal);

/**
 * How often an open table is refreshed. A big fleet changes somewhere every few seconds, so each
 * refresh of it is a new download and decode: those refresh less often, and on the Refresh button.
 */
export function refreshInterval(deviceCount: number | undefined): number {
  return (deviceCount ?? 0) > 10_000 ? 300_000 : 60_000;
}

export const deviceTableQuery = () =>
  queryOptions({
    queryKey: ['device-table'],
    queryFn: ({ signal }) => getDeviceTable(signal),
    staleTime: 15_000,
    refetchInterval: (query) => refreshInterval(query.state.data?.count),
  });

export const useDeviceTable = () => useQuery(deviceTableQuery());
