import { appStore } from '../../lib/app-store/app-store';
import { useStore } from '../../lib/use-store';
import { Spinner } from './spinner';

/** The app-wide loading overlay; shows the message of the most recent open overlay. */
export function LoadingOverlay() {
  const overlay = useStore(appStore, (s) => s.overlays.at(-1));
  if (!overlay) return null;
  return (
    <div className="fl-overlay" role="status" aria-live="polite">
      <div className="fl-card fl-overlay__box">
        <Spinner />
        {overlay.message}
      </div>
    </div>
  );
}
