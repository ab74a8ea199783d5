import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';

export interface MenuItem {
  label: string;
  icon?: ReactNode;
  tone?: 'danger';
  onSelect: () => void;
}

/**
 * A context menu at a point (right-click) or under a button: arrow keys move, Enter chooses, Escape,
 * a click elsewhere or a scroll closes it. It stays inside the window.
 */
export function ContextMenu({
  x,
  y,
  label,
  items,
  onClose,
}: {
  x: number;
  y: number;
  label: string;
  items: readonly MenuItem[];
  onClose: () => void;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [position, setPosition] = useState({ left: x, top: y });
  const [active, setActive] = useState(0);

  useLayoutEffect(() => {
    const menu = ref.current;
    if (!menu) return;
    const { width, height } = menu.getBoundingClientRect();
    setPosition({
      left: Math.max(8, Math.min(x, window.innerWidth - width - 8)),
      top: Math.max(8, Math.min(y, window.innerHeight - height - 8)),
    });
    menu.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
  }, [x, y]);

  useEffect(() => {
    const onPointer = (event: PointerEvent) => {
      if (!ref.current?.contains(event.target as Node)) onClose();
    };
    const onScroll = (event: Event) => {
      if (!ref.current?.contains(event.target as Node)) onClose();
    };
    document.addEventListener('pointerdown', onPointer, true);
    window.addEventListener('scroll', onScroll, true);
    window.addEventListener('resize', onClose);
    return () => {
      document.removeEventListener('pointerdown', onPointer, true);
      window.removeEventListener('scroll', onScroll, true);
      window.removeEventListener('resize', onClose);
    };
  }, [onClose]);

  const focusItem = (index: number) => {
    const next = (index + items.length) % items.length;
    setActive(next);
    ref.current?.querySelectorAll<HTMLElement>('[role="menuitem"]')[next]?.focus();
  };

  return createPortal(
    <div
      ref={ref}
      className="tree-menu fl-card"
      role="menu"
      aria-label={label}
      style={{ left: position.left, top: position.top }}
      onKeyDown={(event) => {
        if (event.key === 'ArrowDown') focusItem(active + 1);
        else if (event.key === 'ArrowUp') focusItem(active - 1);
        else if (event.key === 'Home') focusItem(0);
        else if (event.key === 'End') focusItem(items.length - 1);
        else if (event.key === 'Escape' || event.key === 'Tab') onClose();
        else return;
        event.preventDefault();
        event.stopPropagation();
      }}
    >
      {items.map((item, index) => (
        <button
          key={item.label}
          type="button"
          role="menuitem"
          tabIndex={index === active ? 0 : -1}
          className={`tree-menu__item${item.tone === 'danger' ? ' tree-menu__item--danger' : ''}`}
          onClick={() => {
            onClose();
            item.onSelect();
          }}
        >
          {item.icon}
          {item.label}
        </button>
      ))}
    </div>,
    document.body,
  );
}
