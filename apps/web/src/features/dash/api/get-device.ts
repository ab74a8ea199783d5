import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Device } from '@fieldlink/api/device';
import { apiGet } from '../../../lib/api-client';

export const getDevice = (id: string, signal?: AbortSignal) => apiGet<Device>('/device', { id }, signal);

export const deviceQuery = (id: string) =>
  queryOptions({ queryKey: ['device', id], queryFn: ({ signal }) => getDevice(id, signal), staleTime: 30_000 });

export const useDevice = (id: string | undefined) => useQuery({ ...deviceQuery(id ?? ''), enabled: Boolean(id) });
