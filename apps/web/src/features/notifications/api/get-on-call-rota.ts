import { queryOptions, useQuery } from '@tanstack/react-query';
import type { OnCallRotaAnswer } from '@fieldlink/api/notifications';
import { apiGet } from '../../../lib/api-client';

export const onCallRotaKey = (accountId: string) => ['on-call-rota', accountId] as const;

export const getOnCallRota = (accountId: string, signal?: AbortSignal) =>
  apiGet<OnCallRotaAnswer>('/account/on-call-rota', { accountId }, signal);

const rotaQuery = (accountId: string) =>
  queryOptions({ queryKey: onCallRotaKey(accountId), queryFn: ({ signal }) => getOnCallRota(accountId, signal) });

/** An account's on-call rota; nothing is asked while no account is chosen. */
export const useOnCallRota = (accountId: string | null) =>
  useQuery({ ...rotaQuery(accountId ?? ''), enabled: accountId !== null });
