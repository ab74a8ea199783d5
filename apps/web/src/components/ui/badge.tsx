import type { ReactNode } from 'react';

export type BadgeTone = 'success' | 'danger' | 'warning' | 'neutral' | 'info';

export function Badge({ tone, dot = false, children }: { tone: BadgeTone; dot?: boolean; children: ReactNode }) {
  return (
    <span className={`fl-badge fl-badge--${tone}`}>
      {dot && <span className="fl-badge__dot" aria-hidden="true" />}
      {children}
    </span>
  );
}
