import { useEffect, useLayoutEffect, useRef, useState, type ReactNode, type UIEvent } from 'react';

/** Rows drawn beyond the visible window on each side, so a fast scroll never shows a gap. */
const OVERSCAN = 10;

export interface VirtualRowsProps<T> {
  items: readonly T[];
  rowHeight: number;
  /** Index to bring into view whenever it changes (keyboard navigation). */
  scrollToIndex?: number | null;
  renderRow: (item: T, index: number, top: number) => ReactNode;
  className?: string;
  /** Props for the scrolling element (role, keyboard handling, labels). */
  containerProps?: React.HTMLAttributes<HTMLDivElement> & Record<`data-${string}`, string>;
}

/**
 * A fixed-row-height virtual list: only the rows in view (and a few either side) are in the DOM, so
 * ten thousand rows scroll as smoothly as ten. The scroll container keeps the full height.
 */
export function VirtualRows<T>({
  items,
  rowHeight,
  scrollToIndex,
  renderRow,
  className,
  containerProps,
}: VirtualRowsProps<T>) {
  const ref = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(600);

  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    setHeight(element.clientHeight);
    const observer = new ResizeObserver(() => setHeight(element.clientHeight));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    const element = ref.current;
    if (!element || scrollToIndex == null || scrollToIndex < 0) return;
    const top = scrollToIndex * rowHeight;
    if (top < element.scrollTop) element.scrollTop = top;
    else if (top + rowHeight > element.scrollTop + element.clientHeight) {
      element.scrollTop = top + rowHeight - element.clientHeight;
    }
  }, [scrollToIndex, rowHeight]);

  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - OVERSCAN);
  const last = Math.min(items.length, Math.ceil((scrollTop + height) / rowHeight) + OVERSCAN);
  const visible: ReactNode[] = [];
  for (let index = first; index < last; index++) visible.push(renderRow(items[index]!, index, index * rowHeight));

  return (
    <div
      ref={ref}
      className={className}
      onScroll={(event: UIEvent<HTMLDivElement>) => setScrollTop(event.currentTarget.scrollTop)}
      {...containerProps}
    >
      <div style={{ position: 'relative', height: items.length * rowHeight }}>{visible}</div>
    </div>
  );
}
