import { createStore } from '../create-store';
import { useStore } from '../use-store';

/**
 * Since when this browser has been offline (its `offline` event, or offline at start-up), null while it
 * is online. One pair of window listeners for the whole console, added on first use.
 */
const offlineSince = createStore<number | null>(null);
let listening = false;

function listen(): void {
  if (listening || typeof window === 'undefined') return;
  listening = true;
  if (navigator.onLine === false) offlineSince.setState(() => Date.now());
  window.addEventListener('offline', () => offlineSince.setState((since) => since ?? Date.now()));
  window.addEventListener('online', () => offlineSince.setState(() => null));
}

/** When the browser lost the network (unix ms), or null while it has it. */
export function useOfflineSince(): number | null {
  listen();
  return useStore(offlineSince, (since) => since);
}
