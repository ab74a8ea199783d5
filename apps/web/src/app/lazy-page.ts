import { lazy, type ComponentType } from 'react';

/**
 * A route page split into its own chunk. Pages are named exports (STYLE.md), React.lazy wants a
 * default one; this bridges the two.
 */
export function lazyPage<M extends Record<string, unknown>, K extends keyof M>(
  load: () => Promise<M>,
  name: K,
): ComponentType {
  return lazy(async () => ({ default: (await load())[name] as ComponentType }));
}
