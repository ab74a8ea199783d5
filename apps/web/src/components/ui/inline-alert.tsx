import type { ReactNode } from 'react';
import { AlertCircleIcon, CheckCircleIcon, InfoIcon, WarningIcon } from './icons';

export type AlertTone = 'error' | 'success' | 'info' | 'warning';

const ICON = { error: AlertCircleIcon, success: CheckCircleIcon, info: InfoIcon, warning: WarningIcon };

/** A message inside a form or panel; errors are announced to screen readers at once. */
export function InlineAlert({ tone, children }: { tone: AlertTone; children: ReactNode }) {
  const Icon = ICON[tone];
  return (
    <div className={`fl-alert fl-alert--${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      <Icon size={17} />
      <div>{children}</div>
    </div>
  );
}
