import { useMemo, useState } from 'react';
import type { Account } from '@fieldlink/api/account';
import { reportAccountsOf } from '../model/report-accounts';

/**
 * The account whose reports are shown: the first linked one until another is chosen, among the
 * user's accounts and the customer accounts below them.
 */
export function useReportAccount(accounts: readonly Account[]) {
  const [chosenId, setChosenId] = useState<string | null>(null);
  const choices = useMemo(() => reportAccountsOf(accounts), [accounts]);
  const account = choices.find((choice) => choice.account.id === chosenId)?.account ?? choices[0]?.account ?? null;
  return { account, choices, choose: setChosenId };
}
