import type { Account } from '@fieldlink/api/account';
import { Button } from '../../../components/ui/button';
import { PlusIcon, TrashIcon } from '../../../components/ui/icons';
import { PageHeader } from '../../../components/ui/page-header';
import { RefreshButton } from '../../../components/ui/refresh-button';
import type { ReportAccountChoice } from '../model/report-accounts';
import { AccountPicker } from './reports-frame';

/**
 * The head of the reports and schedules lists: the count and refresh, the account picker, bulk
 * delete of the chosen items and the button that makes a new one.
 */
export function ListHeader({
  title,
  noun,
  count,
  query,
  accounts,
  account,
  onChooseAccount,
  canEdit,
  chosen,
  onDelete,
  onCreate,
}: {
  title: string;
  noun: 'report' | 'schedule';
  /** Items shown; null until the list is read. */
  count: number | null;
  query: Parameters<typeof RefreshButton>[0]['query'];
  /** The accounts to choose from: the user's and the customer accounts below them. */
  accounts: readonly ReportAccountChoice[];
  account: Account;
  onChooseAccount: (id: string) => void;
  canEdit: boolean;
  chosen: number;
  onDelete: () => void;
  onCreate: () => void;
}) {
  return (
    <PageHeader
      title={title}
      summary={
        <>
          <span data-testid={`${noun}-count`}>
            {count === null ? ' ' : `${count} ${count === 1 ? noun : `${noun}s`}`}
          </span>
          <RefreshButton query={query} />
        </>
      }
    >
      <div className="reports-actions">
        <AccountPicker accounts={accounts} account={account} onChoose={onChooseAccount} />
        {canEdit && chosen > 0 && (
          <Button variant="danger" size="sm" onClick={onDelete}>
            <TrashIcon size={15} /> Delete {chosen}
          </Button>
        )}
        {canEdit && (
          <Button variant="primary" size="sm" onClick={onCreate}>
            <PlusIcon size={15} /> New {noun}
          </Button>
        )}
      </div>
    </PageHeader>
  );
}
