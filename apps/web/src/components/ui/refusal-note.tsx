import { LockIcon } from './icons';

/**
 * Why the controls near it are disabled, in words a person reads on any screen (a disabled control's
 * tooltip is not seen on a phone). Renders nothing without a reason.
 */
export function RefusalNote({ reason, testId = 'refusal-note' }: { reason: string | null; testId?: string }) {
  if (reason === null) return null;
  return (
    <p className="fl-refusal-note" data-testid={testId}>
      <LockIcon size={14} /> {reason}
    </p>
  );
}
