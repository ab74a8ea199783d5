import { queryOptions, useQuery } from '@tanstack/react-query';
import { ACCOUNT_PATH } from '@fieldlink/api/first-calls';
import type { AccountAnswer } from '@fieldlink/api/account';
import {
  ACCOUNT_COLUMNS_QUERY,
  decodeAccountColumns,
  type AccountColumnsAnswer,
  type AccountQuery,
} from '@fieldlink/api/account-columns';
import { apiGet } from '../api-client';

// The account tree is read by the loading screen, the dashboards and the shell's banner. It is asked
// for in its compact form (a quarter of the bytes at 100,000 devices) and decoded into the plain tree.

const COMPACT: AccountQuery = { format: ACCOUNT_COLUMNS_QUERY };

export const getAccount = async (signal?: AbortSignal): Promise<AccountAnswer> =>
  decodeAccountColumns(await apiGet<AccountColumnsAnswer>(ACCOUNT_PATH, COMPACT, signal));

export const accountQuery = () =>
  queryOptions({ queryKey: ['account'], queryFn: ({ signal }) => getAccount(signal), staleTime: 60_000 });

export const useAccount = () => useQuery(accountQuery());
