import { postEventLog } from '../../lib/api/post-event-log';
import { isChunkLoadError } from './chunk-load-error';

/** Posts a crash to the event log (specification §7). Chunk failures are the network's, not a bug. */
export function reportCrash(error: unknown, componentStack?: string | null): void {
  if (isChunkLoadError(error)) return;
  const text = error instanceof Error ? `${error.name}: ${error.message}\n${error.stack ?? ''}` : String(error);
  void postEventLog({
    error: text.slice(0, 10_000),
    errorInfo: {
      componentStack: componentStack ?? null,
      path: window.location.pathname,
      userAgent: navigator.userAgent,
    },
  });
}
