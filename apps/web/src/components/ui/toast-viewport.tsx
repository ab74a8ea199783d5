import { useEffect, useRef, useState, type CSSProperties } from 'react';
import { appStore, closeToast } from '../../lib/app-store/app-store';
import type { Toast } from '../../lib/app-store/toast-queue';
import { useStore } from '../../lib/use-store';
import { AlertCircleIcon, CheckCircleIcon, InfoIcon, WarningIcon } from './icons';

const ICON = { error: AlertCircleIcon, success: CheckCircleIcon, info: InfoIcon, warning: WarningIcon };

/** Toasts of the app-wide queue, top-right; newest on top. */
export function ToastViewport() {
  const toasts = useStore(appStore, (s) => s.toasts.visible);
  return (
    <div className="fl-toasts" aria-live="polite" aria-relevant="additions">
      {[...toasts].reverse().map((toast) => (
        <ToastItem key={toast.id} toast={toast} />
      ))}
    </div>
  );
}

/**
 * One toast: closes after its lifetime, pauses while hovered or focused (the progress bar pauses
 * with it), closes on click.
 */
function ToastItem({ toast }: { toast: Toast }) {
  const [paused, setPaused] = useState(false);
  const remaining = useRef(toast.durationMs);

  useEffect(() => {
    if (paused) return;
    const started = Date.now();
    const timer = setTimeout(() => closeToast(toast.id), remaining.current);
    return () => {
      clearTimeout(timer);
      remaining.current = Math.max(0, remaining.current - (Date.now() - started));
    };
  }, [paused, toast.id]);

  const Icon = ICON[toast.kind];
  const progress = {
    animationDuration: `${toast.durationMs}ms`,
    animationPlayState: paused ? 'paused' : 'running',
  } as CSSProperties;
  return (
    <button
      type="button"
      className={`fl-toast fl-toast--${toast.kind}`}
      role={toast.kind === 'error' ? 'alert' : 'status'}
      onClick={() => closeToast(toast.id)}
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
      title="Click to dismiss"
    >
      <Icon size={18} className="fl-toast__icon" />
      <span className="fl-toast__message">{toast.message}</span>
      <span className="fl-toast__progress" style={progress} aria-hidden="true" />
    </button>
  );
}
