import { useEffect, useId, useLayoutEffect, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { CloseIcon } from './icons';
import './dialog.css';

export interface DialogProps {
  title: string;
  /** One line under the title. */
  description?: ReactNode;
  children: ReactNode;
  /** Buttons at the bottom right. */
  footer?: ReactNode;
  onClose: () => void;
  /** Wider for dialogs holding a tree or a long form. */
  size?: 'sm' | 'md' | 'lg';
  /** Red accent for destructive confirmations. */
  tone?: 'default' | 'danger';
}

const FOCUSABLE =
  'button:not([disabled]), [href], input:not([disabled]), select, textarea, [tabindex]:not([tabindex="-1"])';

/**
 * A modal dialog: focus moves in and stays in (Tab wraps), Escape and the backdrop close it, and
 * focus returns to what opened it.
 */
export function Dialog({ title, description, children, footer, onClose, size = 'md', tone = 'default' }: DialogProps) {
  const titleId = useId();
  const descriptionId = useId();
  const panelRef = useRef<HTMLDivElement>(null);
  const onCloseRef = useRef(onClose);
  useLayoutEffect(() => {
    onCloseRef.current = onClose;
  });

  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    const panel = panelRef.current;
    const first =
      panel?.querySelector<HTMLElement>('[autofocus], [data-autofocus]') ??
      panel?.querySelector<HTMLElement>(FOCUSABLE);
    (first ?? panel)?.focus();
    const onKey = (event: KeyboardEvent) => {
      // Only the topmost dialog (the last opened, e.g. a command's confirmation over an editor) answers.
      const open = document.querySelectorAll('.fl-dialog');
      if (panel && open[open.length - 1] !== panel) return;
      if (event.key === 'Escape') {
        event.stopPropagation();
        onCloseRef.current();
        return;
      }
      if (event.key !== 'Tab' || !panel) return;
      const focusable = [...panel.querySelectorAll<HTMLElement>(FOCUSABLE)];
      const [head, tail] = [focusable[0], focusable.at(-1)];
      if (!head || !tail) return;
      if (event.shiftKey && document.activeElement === head) {
        event.preventDefault();
        tail.focus();
      } else if (!event.shiftKey && document.activeElement === tail) {
        event.preventDefault();
        head.focus();
      }
    };
    document.addEventListener('keydown', onKey, true);
    return () => {
      document.removeEventListener('keydown', onKey, true);
      opener?.focus?.();
    };
  }, []);

  return createPortal(
    <div
      className="fl-dialog-backdrop"
      onPointerDown={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <div
        ref={panelRef}
        className={`fl-dialog fl-dialog--${size}${tone === 'danger' ? ' fl-dialog--danger' : ''}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={description ? descriptionId : undefined}
        tabIndex={-1}
      >
        <header className="fl-dialog__header">
          <div>
            <h2 id={titleId}>{title}</h2>
            {description && (
              <p id={descriptionId} className="fl-dialog__description">
                {description}
              </p>
            )}
          </div>
          <button type="button" className="fl-dialog__close" aria-label="Close" onClick={onClose}>
            <CloseIcon size={18} />
          </button>
        </header>
        <div className="fl-dialog__body">{children}</div>
        {footer && <footer className="fl-dialog__footer">{footer}</footer>}
      </div>
    </div>,
    document.body,
  );
}
