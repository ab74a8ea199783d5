import { useState } from 'react';
import { useAccount } from '../../lib/api/get-account';

/**
 * The signed-in user's accounts and the one a page works on: the first until another is chosen
 * (audit log, webhooks, on-call rota).
 */
export function useChosenAccount() {
  const account = useAccount();
  const accounts = account.data?.accounts ?? [];
  const [chosen, choose] = useState<string | null>(null);
  return { account, accounts, accountId: chosen ?? accounts[0]?.id ?? null, choose };
}

/** Chooses the account a page works on; nothing is shown with only one to choose from. */
export function AccountSelect({
  accounts,
  value,
  onChoose,
  className = '',
}: {
  accounts: readonly { id: string; name: string }[];
  value: string | null;
  onChoose: (accountId: string) => void;
  className?: string;
}) {
  if (accounts.length < 2) return null;
  return (
    <select
      className={`fl-select ${className}`.trim()}
      aria-label="Account"
      value={value ?? ''}
      onChange={(event) => onChoose(event.target.value)}
    >
      {accounts.map((candidate) => (
        <option key={candidate.id} value={candidate.id}>
          {candidate.name}
        </option>
      ))}
    </select>
  );
}
