import { useState } from 'react';
import { serverErrorMessage } from '../../../lib/api-client';

/**
 * The save or delete of a scene dialog: busy while it runs, the dialog closed when it succeeds, the
 * server's refusal kept for the dialog to show when it fails.
 */
export function useDialogAction(onClose: () => void) {
  const [busy, setBusy] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const run = async (action: () => Promise<unknown>) => {
    setBusy(true);
    setServerError(null);
    try {
      await action();
      onClose();
    } catch (failure) {
      setServerError(serverErrorMessage(failure));
      setBusy(false);
    }
  };
  return { busy, serverError, run };
}
