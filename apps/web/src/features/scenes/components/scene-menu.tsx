import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';

export interface SceneMenuItem {
  label: string;
  icon?: ReactNode;
  tone?: 'danger';
  disabled?: boolean;
  onSelect: () => void;
}

/**
 * A menu under the button that opened it: arrow keys move, Enter chooses; Escape, Tab, a click
 * elsewhere, a scroll or a resize closes it. It stays inside the window.
 */
export function SceneMenu({
  anchor,
  label,
  items,
  onClose,
}: {
  anchor: HTMLElement;
  label: string;
  items: readonly SceneMenuItem[];
  onClose: () => void;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [position, setPosition] = useState<{ left: number; top: number } | null>(null);
  const enabled = items.filter((item) => !item.disabled);

  useLayoutEffect(() => {
    const menu = ref.current;
    if (!menu) return;
    const box = anchor.getBoundingClientRect();
    const { width, height } = menu.getBoundingClientRect();
    const below = box.bottom + 4 + height <= window.innerHeight - 8;
    setPosition({
      left: Math.max(8, Math.min(box.right - width, window.innerWidth - width - 8)),
      top: below ? box.bottom + 4 : Math.max(8, box.top - height - 4),
    });
    menu.querySelector<HTMLElement>('[role="menuitem"]:not([disabled])')?.focus();
  }, [anchor]);

  useEffect(() => {
    const outside = (event: Event) => {
      const target = event.target as Node;
      if (!ref.current?.contains(target) && !anchor.contains(target)) onClose();
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

  const focusNext = (step: number) => {
    const buttons = [...(ref.current?.querySelectorAll<HTMLElement>('[role="menuitem"]:not([disabled])') ?? [])];
    const index = buttons.indexOf(document.activeElement as HTMLElement);
    buttons[(index + step + buttons.length) % buttons.length]?.focus();
  };

  return createPortal(
    <div
      ref={ref}
      className="scene-menu fl-card"
      role="menu"
      aria-label={label}
      style={position ? { left: position.left, top: position.top } : { visibility: 'hidden', left: 0, top: 0 }}
      onKeyDown={(event) => {
        if (event.key === 'ArrowDown') focusNext(1);
        else if (event.key === 'ArrowUp') focusNext(-1);
        else if (event.key === 'Escape' || event.key === 'Tab') {
          onClose();
          anchor.focus();
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
          className={`scene-menu__item${item.tone === 'danger' ? ' scene-menu__item--danger' : ''}`}
          onClick={() => {
            onClose();
            item.onSelect();
          }}
        >
          {item.icon}
          {item.label}
        </button>
      ))}
      {enabled.length === 0 && <div className="scene-menu__none">Nothing to do here.</div>}
    </div>,
    document.body,
  );
}
