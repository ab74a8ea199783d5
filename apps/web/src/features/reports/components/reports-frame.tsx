import type { ReactNode } from 'react';
import type { Account } from '@fieldlink/api/account';
import type { Capability } from '@fieldlink/domain/permissions';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { InlineAlert } from '../../../components/ui/inline-alert';
import { LoadingNote } from '../../../components/ui/list-state';
import { PanelMessage } from '../../../components/ui/panel-message';
import { serverErrorMessage } from '../../../lib/api-client';
import { useCan } from '../../../lib/session/use-can';
import { useSessionContext } from '../../../lib/session/use-session-context';
import type { ReportAccountChoice } from '../model/report-accounts';
import './reports.css';

/**
 * The frame of the reports pages: a note when the permission is missing, the account tree while it
 * is read, then the page with the caller's accounts.
 */
export function ReportsFrame({
  capability,
  icon,
  title,
  permission,
  noun,
  children,
}: {
  capability: Capability;
  icon: ReactNode;
  /** Title of the note shown without the permission. */
  title: string;
  /** The permission's name, for that note. */
  permission: string;
  noun: string;
  children: (accounts: readonly Account[]) => ReactNode;
}) {
  const session = useSessionContext();
  const allowed = useCan(capability);
  if (!allowed) {
    return (
      <div className="fl-page">
        <PanelMessage icon={icon} title={title}>
          This needs the {permission} permission. Ask an administrator of your account.
        </PanelMessage>
      </div>
    );
  }
  if (session.status === 'error') {
    return (
      <div className="fl-page">
        <InlineAlert tone="error">The account could not be read: {serverErrorMessage(session.error)}</InlineAlert>
      </div>
    );
  }
  if (session.status === 'pending') {
    return (
      <div className="fl-page">
        <LoadingNote noun={noun} />
      </div>
    );
  }
  return <>{children(session.accounts)}</>;
}

/**
 * The account picker of the reports pages, shown when the user works in more than one account: its
 * own accounts and, indented below each, the customer accounts its tree holds.
 */
export function AccountPicker({
  accounts,
  account,
  onChoose,
}: {
  accounts: readonly ReportAccountChoice[];
  account: Account;
  onChoose: (id: string) => void;
}) {
  if (accounts.length < 2) return null;
  return (
    <select
      className="fl-select reports-account"
      aria-label="Account"
      value={account.id}
      onChange={(event) => onChoose(event.target.value)}
    >
      {accounts.map(({ account: candidate, depth }) => (
        <option key={candidate.id} value={candidate.id}>
          {`${'\u00a0\u00a0'.repeat(depth)}${candidate.name}`}
        </option>
      ))}
    </select>
  );
}

/** Confirms deleting the chosen reports or schedules, naming each. */
export function DeleteDialog({
  names,
  noun,
  note,
  busy,
  onConfirm,
  onClose,
}: {
  names: readonly { id: string; name: string }[];
  noun: 'report' | 'schedule';
  note: string;
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <Dialog
      title={names.length === 1 ? `Delete this ${noun}?` : `Delete ${names.length} ${noun}s?`}
      description={note}
      tone="danger"
      size="sm"
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="danger" busy={busy} onClick={onConfirm}>
            Delete
          </Button>
        </>
      }
    >
      <ul className="reports-confirm-list">
        {names.map((item) => (
          <li key={item.id}>{item.name}</li>
        ))}
      </ul>
    </Dialog>
  );
}
