import { useLayoutEffect, useState, type RefObject } from 'react';

/**
 * The height from the element's top to the bottom of the window, less a margin: the table fills the
 * page and scrolls inside itself, so the shell and the toolbar stay in view. `layout` is anything that
 * moves the element (panels opening above it); a change measures again before paint.
 */
export function useAvailableHeight(
  ref: RefObject<HTMLElement | null>,
  margin: number,
  minimum: number,
  layout: unknown,
): number {
  const [height, setHeight] = useState(minimum);
  useLayoutEffect(() => {
    const measure = () => {
      const top = ref.current?.getBoundingClientRect().top ?? 0;
      setHeight(Math.max(minimum, Math.floor(window.innerHeight - top - margin)));
    };
    measure();
    window.addEventListener('resize', measure);
    return () => window.removeEventListener('resize', measure);
  }, [ref, margin, minimum, layout]);
  return height;
}
