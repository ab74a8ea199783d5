/**
 * A minimal external store for `useSyncExternalStore`: immutable state, replaced by `setState`, with
 * subscribers told after each change. Selectors must return stored references or primitives so that
 * an unrelated change leaves the selected value identical and React skips the render.
 */
export interface Store<S> {
  getState(): S;
  setState(update: (state: S) => S): void;
  subscribe(listener: () => void): () => void;
}

export function createStore<S>(initial: S): Store<S> {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    getState: () => state,
    setState(update) {
      const next = update(state);
      if (Object.is(next, state)) return;
      state = next;
      for (const listener of [...listeners]) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
