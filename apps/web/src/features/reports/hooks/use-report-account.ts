import { useState } from 'react';
import type { Account } from '@fieldlink/api/account';

/** The account whose reports are shown: the first linked one until another is chosen. */
export function useReportAccount(accounts: readonly Account[]) {
  const [chosenId, setChosenId] = useState<string | null>(null);
  const account = accounts.find((candidate) => candidate.id === chosenId) ?? accounts[0] ?? null;
  return { account, choose: setChosenId };
}
