import type { ReactNode } from 'react';

export interface PanelMessageProps {
  icon?: ReactNode;
  eyebrow?: string;
  title: string;
  children?: ReactNode;
  actions?: ReactNode;
}

/** A centred card that explains a page state: access denied, nothing to show, a failed load. */
export function PanelMessage({ icon, eyebrow, title, children, actions }: PanelMessageProps) {
  return (
    <section className="fl-card fl-panel-message">
      {icon && <div className="fl-panel-message__icon">{icon}</div>}
      {eyebrow && <div className="fl-panel-message__eyebrow">{eyebrow}</div>}
      <h1>{title}</h1>
      {children && <div className="fl-muted">{children}</div>}
      {actions && <div className="fl-panel-message__actions">{actions}</div>}
    </section>
  );
}
