import { useId, type ReactNode, type SelectHTMLAttributes } from 'react';

export interface SelectFieldProps extends SelectHTMLAttributes<HTMLSelectElement> {
  label: string;
  /** A line under the list saying what the choice does. */
  hint?: ReactNode;
  /** The `<option>`s. */
  children: ReactNode;
}

/** A labelled drop-down list with an optional hint: the `<select>` twin of {@link TextField}. */
export function SelectField({ label, hint, id, className, children, ...props }: SelectFieldProps) {
  const generatedId = useId();
  const selectId = id ?? generatedId;
  const hintId = hint ? `${selectId}-hint` : undefined;
  return (
    <div className={`fl-field${className ? ` ${className}` : ''}`}>
      <label className="fl-field__label" htmlFor={selectId}>
        {label}
      </label>
      <select id={selectId} className="fl-select" aria-describedby={hintId} {...props}>
        {children}
      </select>
      {hint && (
        <span id={hintId} className="fl-field__hint">
          {hint}
        </span>
      )}
    </div>
  );
}
