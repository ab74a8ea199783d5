import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';

export interface MenuItem {
  label: string;
  icon?: ReactNode;
  tone?: 'danger';
  disabled?: boolean;
  onSelect: () => void;
}

/** Where a menu opens: at a point (a right-click) or under the button that opened it. */
export type MenuPlace = { x: number; y: number } | HTMLElement;

const GAP = 4;
const MARGIN = 8;
const ITEMS = '[role="menuitem"]:not([disabled])';

function positionFor(place: MenuPlace, width: number, height: number) {
  const clampLeft = (left: number) => Math.max(MARGIN, Math.min(left, window.innerWidth - width - MARGIN));
  if (!(place instanceof HTMLElement)) {
    return {
      left: clampLeft(place.x),
      top: Math.max(MARGIN, Math.min(place.y, window.innerHeight - height - MARGIN)),
    };
  }
  const box = place.getBoundingClientRect();
  const below = box.bottom + GAP + height <= window.innerHeight - MARGIN;
  return {
    left: clampLeft(box.right - width),
    top: below ? box.bottom + GAP : Math.max(MARGIN, box.top - height - GAP),
  };
}

/**
 * A menu at a point or under a button: arrow keys, Home and End move, Enter chooses; Escape, Tab, a
 * click elsewhere, a scroll or a resize closes it. It stays inside the window; closed by key, it hands
 * the focus back to the button that opened it.
 */
export function Menu({
  place,
  label,
  items,
  onClose,
}: {
  place: MenuPlace;
  label: string;
  items: readonly MenuItem[];
  onClose: () => void;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [position, setPosition] = useState<{ left: number; top: number } | null>(null);
  const anchor = place instanceof HTMLElement ? place : null;
  // Where the focus was when the menu opened (the tree, or the button): a key that closes the menu
  // hands it back there rather than to the page.
  const [opener] = useState(() => (document.activeElement instanceof HTMLElement ? document.activeElement : null));

  useLayoutEffect(() => {
    const menu = ref.current;
    if (!menu) return;
    const { width, height } = menu.getBoundingClientRect();
    setPosition(positionFor(place, width, height));
  }, [place]);

  // The first item takes the focus once the menu is placed: while it is still hidden to be measured,
  // nothing in it can hold the focus, and the focus would stay where it was.
  const placed = position !== null;
  useLayoutEffect(() => {
    if (placed) ref.current?.querySelector<HTMLElement>(ITEMS)?.focus();
  }, [placed]);

  useEffect(() => {
    // The opening button toggles the menu itself, so a press on it is not "elsewhere".
    const outside = (event: Event) => {
      const target = event.target as Node;
      if (!ref.current?.contains(target) && !anchor?.contains(target)) onClose();
    };
    document.addEventListener('pointerdown', outside, true);
    window.addEventListener('scroll', outside, true);
    window.addEventListener('resize', onClose);
    return () => {
      document.removeEventListener('pointerdown', outside, true);
      window.removeEventListener('scroll', outside, true);
      window.removeEventListener('resize', onClose);
    };
  }, [anchor, onClose]);

  const focusItem = (pick: (index: number, count: number) => number) => {
    const buttons = [...(ref.current?.querySelectorAll<HTMLElement>(ITEMS) ?? [])];
    const index = buttons.indexOf(document.activeElement as HTMLElement);
    buttons[(pick(index, buttons.length) + buttons.length) % buttons.length]?.focus();
  };

  return createPortal(
    <div
      ref={ref}
      className="fl-menu fl-card"
      role="menu"
      aria-label={label}
      style={position ?? { visibility: 'hidden', left: 0, top: 0 }}
      onKeyDown={(event) => {
        if (event.key === 'ArrowDown') focusItem((index) => index + 1);
        else if (event.key === 'ArrowUp') focusItem((index) => index - 1);
        else if (event.key === 'Home') focusItem(() => 0);
        else if (event.key === 'End') focusItem((_, count) => count - 1);
        else if (event.key === 'Escape' || event.key === 'Tab') {
          onClose();
          (anchor ?? opener)?.focus();
        } else return;
        event.preventDefault();
        event.stopPropagation();
      }}
    >
      {items.map((item) => (
        <button
          key={item.label}
          type="button"
          role="menuitem"
          disabled={item.disabled}
          tabIndex={-1}
          className={`fl-menu__item${item.tone === 'danger' ? ' fl-menu__item--danger' : ''}`}
          onClick={() => {
            onClose();
            item.onSelect();
          }}
        >
          {item.icon}
          {item.label}
        </button>
      ))}
      {items.every((item) => item.disabled) && <div className="fl-menu__none">Nothing to do here.</div>}
    </div>,
    document.body,
  );
}
