import { lazy, type ComponentType } from 'react';

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

/**
 * A route page split into its own chunk. Pages are named exports (STYLE.md), React.lazy wants a
 * default one; this bridges the two.
 */
export function lazyPage<M extends Record<string, unknown>, K extends keyof M>(
  load: () => Promise<M>,
  name: K,
): ComponentType {
  return lazy(async () => ({ default: (await withScriptLoadTimeout(load()))[name] as ComponentType }));
}
