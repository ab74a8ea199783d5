import type { ReactNode } from 'react';
import { Button } from './button';
import { Dialog } from './dialog';
import { InlineAlert } from './inline-alert';

/**
 * A yes-or-no question before something that cannot be undone (deleting, ending, revoking, signing
 * out). The caller does the work in `onConfirm` and closes the dialog when it is done; `busy` keeps
 * the confirming button spinning meanwhile and `error` shows a refusal in place. A dangerous question
 * opens with Cancel focused, so that Enter alone never deletes (operating an output has its own
 * dialog, where Enter confirms: components/operate).
 */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  tone = 'danger',
  busy = false,
  error,
  onConfirm,
  onClose,
}: {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  tone?: 'default' | 'danger';
  busy?: boolean;
  error?: string | null;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const danger = tone === 'danger';
  return (
    <Dialog
      title={title}
      size="sm"
      tone={tone}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose} data-autofocus={danger || undefined}>
            Cancel
          </Button>
          <Button variant={danger ? 'danger' : 'primary'} busy={busy} onClick={onConfirm}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      {children}
      {error && <InlineAlert tone="error">{error}</InlineAlert>}
    </Dialog>
  );
}
