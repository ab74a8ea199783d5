import { useSyncExternalStore } from 'react';
import type { Store } from './create-store';

/** Reads a slice of a store; the component re-renders only when the selected value changes. */
export function useStore<S, T>(store: Store<S>, selector: (state: S) => T): T {
  const read = () => selector(store.getState());
  return useSyncExternalStore(store.subscribe, read, read);
}
