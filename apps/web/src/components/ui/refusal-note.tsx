import { LockIcon } from './icons';

/**
 * Why the controls near it are disabled, in words a person reads on any screen (a disabled control's
 * tooltip is not seen on a phone). Renders nothing without a reason.
 */
export function RefusalNote({ reason }: { reason: string | null }) {
  if (reason === null) return null;
  return (
    <p className="fl-refusal-note" data-testid="refusal-note">
      <LockIcon size={14} /> {reason}
    </p>
  );
}
