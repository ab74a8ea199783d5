import type { ButtonHTMLAttributes } from 'react';
import { Spinner } from './spinner';

type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  size?: 'md' | 'sm';
  block?: boolean;
  /** Shows a spinner and disables the button while an action runs. */
  busy?: boolean;
}

export function Button({
  variant = 'secondary',
  size = 'md',
  block = false,
  busy = false,
  className,
  children,
  disabled,
  type = 'button',
  ...props
}: ButtonProps) {
  const classes = ['fl-button', `fl-button--${variant}`];
  if (size === 'sm') classes.push('fl-button--sm');
  if (block) classes.push('fl-button--block');
  if (className) classes.push(className);
  return (
    <button type={type} className={classes.join(' ')} disabled={disabled || busy} aria-busy={busy} {...props}>
      {busy && <Spinner size={16} />}
      {children}
    </button>
  );
}
