import { Spinner } from '../../components/ui/spinner';

/** Shown while a page's code loads; quiet, since it is usually there within a blink. */
export function PageFallback() {
  return (
    <div className="page-fallback" role="status" aria-label="Loading">
      <Spinner size={22} />
    </div>
  );
}
