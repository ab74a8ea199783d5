import { queryOptions, useQuery } from '@tanstack/react-query';
import { DEVICE_TABLE_BINARY_QUERY, DEVICE_TABLE_PATH } from '@fieldlink/api/device-table';
import { decodeDeviceTableBinary } from '@fieldlink/api/device-table-binary';
import { ApiError, apiFetch } from '../../../lib/api-client';
import { apiHeaders } from '../../../lib/api-address';
import { readToken } from '../../../lib/session-token';
import { currentSubdomain } from '../../../lib/subdomain';
import { decodeDeviceTable, type DeviceTableData } from '../model/table-data';

/** Names of the timings this call leaves in the browser's performance timeline (read by the benchmark). */
export const DEVICE_TABLE_TIMINGS = {
  fetch: 'device-table:fetch',
  decode: 'device-table:decode',
} as const;

const BINARY = { format: DEVICE_TABLE_BINARY_QUERY };

/** The last table received, with the ETag that validates it. */
let held: { etag: string; token: string | null; data: DeviceTableData } | null = null;

/**
 * `GET /devices/table` in its binary form (read straight into typed columns, no JSON to parse),
 * revalidated with the ETag: an unchanged fleet answers 304 and the table already decoded is kept,
 * together with the sorted orders built on it.
 */
export async function getDeviceTable(signal?: AbortSignal): Promise<DeviceTableData> {
  const token = readToken();
  const headers = apiHeaders(token, currentSubdomain());
  // Holding a decoded table, ask with its ETag ourselves: a 304 then reaches this code and the table
  // is kept. Without one (a reload), the browser's cache revalidates its stored copy and answers the
  // body it has, which saves the download.
  const conditional = held !== null && held.token === token;
  if (conditional) headers['if-none-match'] = held!.etag;
  const started = performance.now();
  let response: Response;
  try {
    response = await apiFetch(DEVICE_TABLE_PATH, BINARY, {
      headers,
      signal: signal ?? null,
      cache: conditional ? 'no-store' : 'no-cache',
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, null, null);
  }
  if (response.status === 304 && held) return held.data;
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { message?: unknown } | null;
    throw new ApiError(response.status, typeof body?.message === 'string' ? body.message : null, body);
  }
  const body = new Uint8Array(await response.arrayBuffer());
  const received = performance.now();
  const data = decodeDeviceTable(decodeDeviceTableBinary(body));
  performance.measure(DEVICE_TABLE_TIMINGS.fetch, { start: started, end: received });
  performance.measure(DEVICE_TABLE_TIMINGS.decode, { start: received });
  const etag = response.headers.get('etag');
  held = etag ? { etag, token, data } : null;
  return data;
}

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
