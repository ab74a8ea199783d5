import { Spinner } from '../ui/spinner';
import './operate.css';

/** Where a confirmed command stands: sent and awaiting the device's report, then done. */
export type OperateProgress = 'sending' | 'done' | null;

/**
 * The line a control shows after a confirmed command (issue 36 item 1): "Sending…" until the device
 * reports the new value, then "Done" for a moment. A failure is the control's own alert.
 */
export function OperateStatus({ progress, className }: { progress: OperateProgress; className?: string }) {
  return (
    <span
      className={`operate-status${progress ? ` operate-status--${progress}` : ''}${className ? ` ${className}` : ''}`}
      role="status"
      data-testid="operate-status"
    >
      {progress === 'sending' && (
        <>
          <Spinner size={12} /> Sending…
        </>
      )}
      {progress === 'done' && <>✓ Done</>}
    </span>
  );
}
