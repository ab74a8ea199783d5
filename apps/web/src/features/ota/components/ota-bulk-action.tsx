import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { useOtaAccess } from '../hooks/use-ota-access';
import { OtaSubmitDialog, type FleetDevice } from './ota-submit-dialog';
import { UpdateIcon } from './ota-icons';

/** "OTA update" in the device table's selection bar, for users with the OTA_UPDATE flag. */
export function OtaBulkAction({ deviceIds, fleet }: { deviceIds: string[]; fleet?: () => readonly FleetDevice[] }) {
  const { canSubmit, isAdmin } = useOtaAccess();
  const [open, setOpen] = useState(false);
  if (!canSubmit) return null;
  return (
    <>
      <Button size="sm" variant="primary" onClick={() => setOpen(true)}>
        <UpdateIcon size={15} /> OTA update
      </Button>
      {open && (
        <OtaSubmitDialog deviceIds={deviceIds} fleet={fleet} canSkipApproval={isAdmin} onClose={() => setOpen(false)} />
      )}
    </>
  );
}
