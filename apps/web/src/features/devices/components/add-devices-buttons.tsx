import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { PlusIcon, UploadIcon } from '../../../components/ui/icons';
import { useCan } from '../../../lib/session/use-can';
import { useSessionContext } from '../../../lib/session/use-session-context';
import { AddDevicesDialog, type AddDevicesMode } from './add-devices-dialog';

/**
 * "Add device" and "Import" for a list of devices, shown to users who may add devices (ADD_DEVICES):
 * devices go into the user's first account, in the group chosen in the dialog.
 */
export function AddDevicesButtons() {
  const allowed = useCan('addDevices');
  const session = useSessionContext();
  const [open, setOpen] = useState<AddDevicesMode | null>(null);
  if (!allowed || session.status !== 'ready' || session.accounts.length === 0) return null;
  const account = session.accounts[0]!;
  return (
    <>
      <Button size="sm" onClick={() => setOpen('one')}>
        <PlusIcon size={15} /> Add device
      </Button>
      <Button size="sm" onClick={() => setOpen('import')}>
        <UploadIcon size={15} /> Import
      </Button>
      {open && (
        <AddDevicesDialog
          accounts={session.accounts}
          place={{ accountId: account.id, groupId: null }}
          mode={open}
          onClose={() => setOpen(null)}
        />
      )}
    </>
  );
}

/** The add-devices dialog of the account tree's menus, opened on a group. */
export function TreeAddDevicesDialog({
  place,
  onClose,
}: {
  place: { accountId: string; groupId: string; mode: AddDevicesMode };
  onClose: () => void;
}) {
  const session = useSessionContext();
  if (session.status !== 'ready') return null;
  return <AddDevicesDialog accounts={session.accounts} place={place} mode={place.mode} onClose={onClose} />;
}
