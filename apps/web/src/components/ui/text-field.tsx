import { useId, type InputHTMLAttributes, type ReactNode } from 'react';

export interface TextFieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  hint?: ReactNode;
  /** Shown on the label's line, right-aligned (a "Forgot password?" link). */
  aside?: ReactNode;
}

export function TextField({ label, hint, aside, id, className, ...props }: TextFieldProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const hintId = hint ? `${inputId}-hint` : undefined;
  return (
    <div className={`fl-field${className ? ` ${className}` : ''}`}>
      <div className="fl-field__row">
        <label className="fl-field__label" htmlFor={inputId}>
          {label}
        </label>
        {aside}
      </div>
      <input id={inputId} className="fl-input" aria-describedby={hintId} {...props} />
      {hint && (
        <span id={hintId} className="fl-field__hint">
          {hint}
        </span>
      )}
    </div>
  );
}
