import { queryOptions, useQuery } from '@tanstack/react-query';
import { ACCOUNT_PATH } from '@fieldlink/api/first-calls';
import type { AccountAnswer } from '@fieldlink/api/account';
import {
  ACCOUNT_COLUMNS_QUERY,
  decodeAccountColumns,
  type AccountColumnsAnswer,
  type AccountQuery,
} from '@fieldlink/api/account-columns';
import { HeldAnswer } from '../held-answer';

// The account tree is read by the loading screen, the dashboards and the shell's banner. It is asked
// for in its compact form (a quarter of the bytes at 100,000 devices) and decoded into the plain tree.

const COMPACT: AccountQuery = { format: ACCOUNT_COLUMNS_QUERY };

/**
 * `GET /account?format=columns`, revalidated with the tree's ETag: every console reads the tree again
 * after a real-time reconnect, all at once after a server restart or a network blip, and an unchanged
 * tree then costs a 304 instead of 4 MB to send and 11 MB of JSON to parse at 100,000 devices; the
 * tree already decoded is kept (the same object, so nothing that shows it draws again). Holding none
 * (a start), the call is the one the entry sent early (`first-calls.ts`), and the browser's cache
 * revalidates its stored copy (the server says `no-cache`).
 */
const tree = new HeldAnswer(ACCOUNT_PATH, COMPACT, async (response) =>
  decodeAccountColumns((await response.json()) as AccountColumnsAnswer),
);

export const getAccount = (signal?: AbortSignal): Promise<AccountAnswer> => tree.get(signal);

export const accountQuery = () =>
  queryOptions({ queryKey: ['account'], queryFn: ({ signal }) => getAccount(signal), staleTime: 60_000 });

export const useAccount = () => useQuery(accountQuery());
