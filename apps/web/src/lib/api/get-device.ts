import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Device } from '@fieldlink/api/device';
import { apiGet } from '../api-client';

// Shared by the device dash and the device panel (features do not import each other); a change
// through either updates this one cache entry.

export const getDevice = (id: string, signal?: AbortSignal) => apiGet<Device>('/device', { id }, signal);

/** The key every device record starts with: invalidate it to read all of them again. */
export const deviceQueryRoot = ['device'] as const;

export const deviceQueryKey = (id: string) => [...deviceQueryRoot, id] as const;

export const deviceQuery = (id: string) =>
  queryOptions({ queryKey: deviceQueryKey(id), queryFn: ({ signal }) => getDevice(id, signal), staleTime: 30_000 });

export const useDevice = (id: string | undefined) => useQuery({ ...deviceQuery(id ?? ''), enabled: Boolean(id) });
