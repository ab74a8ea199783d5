import { useMemo } from 'react';
import { scenesHomeRoute } from '../../lib/account-tree';
import { useAccount } from '../../lib/api/get-account';

/** The route the Scenes sub-tab opens, from the account tree (null until it is read). */
export function useScenesHome(): string | null {
  const account = useAccount();
  return useMemo(() => (account.data ? scenesHomeRoute(account.data.accounts) : null), [account.data]);
}
