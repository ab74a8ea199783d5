import { createElement, lazy, useState, type ComponentType, type FunctionComponent } from 'react';

/** A page's code that has not arrived after this long counts as failed to load (specification §9). */
export const SCRIPT_LOAD_TIMEOUT_MS = 120_000;

/**
 * The load, or a ChunkLoadError once {@link SCRIPT_LOAD_TIMEOUT_MS} pass without it: a chunk stuck
 * on a dead connection then shows the reload screen instead of a spinner that never ends.
 */
export function withScriptLoadTimeout<T>(load: Promise<T>, timeoutMs = SCRIPT_LOAD_TIMEOUT_MS): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new Error(`Loading chunk timed out after ${timeoutMs / 1000} s`);
      error.name = 'ChunkLoadError';
      reject(error);
    }, timeoutMs);
  });
  return Promise.race([load, timeout]).finally(() => clearTimeout(timer));
}

type PropsOf<C> = C extends ComponentType<infer P> ? P & object : object;

/** A route page split into its own chunk, whose code can be asked for before the page renders. */
export interface LazyPage<P extends object = object> extends FunctionComponent<P> {
  /** Starts loading the page's code (once; a failed load is tried again by the next call). */
  preload(): Promise<void>;
}

/**
 * A route page split into its own chunk. Pages are named exports (STYLE.md), React.lazy wants a
 * default one; this bridges the two.
 *
 * Once its code is loaded (preloaded while /loading reads the account, or shown before) the page
 * renders at once instead of suspending: React reveals content that suspended no sooner than 300 ms
 * after the fallback was shown, so each suspension on the way to a page cost up to 300 ms even when
 * its code was already in the cache (issue 36 item 8).
 */
export function lazyPage<M extends Record<string, unknown>, K extends keyof M>(
  load: () => Promise<M>,
  name: K,
): LazyPage<PropsOf<M[K]>> {
  type Props = PropsOf<M[K]>;
  let loaded: ComponentType<Props> | null = null;
  let loading: Promise<ComponentType<Props>> | null = null;
  const loadPage = () =>
    (loading ??= withScriptLoadTimeout(load()).then(
      (module) => (loaded = module[name] as ComponentType<Props>),
      (error: unknown) => {
        loading = null;
        throw error;
      },
    ));
  const Suspending = lazy(async () => ({ default: await loadPage() }));
  function Page(props: Props) {
    // Chosen once per mount: switching from the suspending form to the loaded one would remount the page.
    const [Component] = useState<ComponentType<Props>>(() => loaded ?? Suspending);
    return createElement(Component, props);
  }
  Page.preload = () => loadPage().then(() => undefined);
  return Page;
}
