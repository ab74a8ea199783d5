import { queryOptions, useQuery } from '@tanstack/react-query';
import type { StoreStatusAnswer } from '@fieldlink/api/inventory';
import { apiGet } from '../../../lib/api-client';
import { INVENTORY_KEY } from './get-overview';

export const getStoreStatus = (groupId: string, accountId: string, signal?: AbortSignal) =>
  apiGet<StoreStatusAnswer>('/inv/store-status', { groupId, accountId }, signal);

export const storeStatusQuery = (groupId: string, accountId: string) =>
  queryOptions({
    queryKey: [...INVENTORY_KEY, 'store-status', groupId, accountId],
    queryFn: ({ signal }) => getStoreStatus(groupId, accountId, signal),
  });

/** `GET /inv/store-status`; read again every 30 s while shown. */
export const useStoreStatus = (groupId: string, accountId: string) =>
  useQuery({ ...storeStatusQuery(groupId, accountId), refetchInterval: 30_000 });
