import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AccountAnswer } from '@fieldlink/api/account';
import { apiGet } from '../api-client';

// The account tree is read by the loading screen, the dashboards and the shell's banner.

export const getAccount = (signal?: AbortSignal) => apiGet<AccountAnswer>('/account', undefined, signal);

export const accountQuery = () =>
  queryOptions({ queryKey: ['account'], queryFn: ({ signal }) => getAccount(signal), staleTime: 60_000 });

export const useAccount = () => useQuery(accountQuery());
