import { useCallback, useRef, useState } from 'react';

export interface ElementSize {
  width: number;
  height: number;
}

/**
 * The content size of an element, measured with a ResizeObserver (whole pixels; a change below a
 * pixel does not re-render). Returns a callback ref to put on the element.
 */
export function useElementSize<T extends HTMLElement>(): [(element: T | null) => void, ElementSize] {
  const [size, setSize] = useState<ElementSize>({ width: 0, height: 0 });
  const observer = useRef<ResizeObserver | null>(null);
  const ref = useCallback((element: T | null) => {
    observer.current?.disconnect();
    observer.current = null;
    if (!element) return;
    const update = (width: number, height: number) => {
      const next = { width: Math.floor(width), height: Math.floor(height) };
      setSize((previous) => (previous.width === next.width && previous.height === next.height ? previous : next));
    };
    update(element.clientWidth, element.clientHeight);
    observer.current = new ResizeObserver(([entry]) => {
      if (entry) update(entry.contentRect.width, entry.contentRect.height);
    });
    observer.current.observe(element);
  }, []);
  return [ref, size];
}
