import { useCallback, useState, type ReactNode } from 'react';
import { OperateConfirmDialog, type OperateCommand } from './operate-confirm-dialog';

/**
 * Select before operate (issue 36 item 1): `ask` opens the confirmation of a device command and
 * sends it only once confirmed; the control renders `dialog` where it likes. With `confirm` false (a
 * scene widget its author marked "no confirmation") `ask` sends at once.
 */
export function useConfirmedCommand(confirm = true): {
  ask: (command: OperateCommand) => void;
  dialog: ReactNode;
} {
  const [asking, setAsking] = useState<OperateCommand | null>(null);
  const ask = useCallback(
    (command: OperateCommand) => {
      if (confirm) setAsking(command);
      else command.send();
    },
    [confirm],
  );
  const dialog = asking && (
    <OperateConfirmDialog
      command={asking}
      onConfirm={() => {
        setAsking(null);
        asking.send();
      }}
      onCancel={() => setAsking(null)}
    />
  );
  return { ask, dialog };
}
