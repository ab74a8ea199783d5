import { useId, type ReactNode } from 'react';
import { TextField } from '../../../components/ui/text-field';
import { COLOUR_MAX } from '../model/widget-form';

/** The widget editor's fields: a titled section, a field's problem, check box, number, text and colour. */
export function EditorSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="widget-editor__section">
      <legend className="widget-editor__legend">{title}</legend>
      {children}
    </fieldset>
  );
}

export function FieldError({ children }: { children: ReactNode }) {
  return <span className="scene-form__error">{children}</span>;
}

export function Checkbox({
  label,
  testId,
  checked,
  onChange,
}: {
  label: string;
  testId?: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  return (
    <label className="widget-editor__check">
      <input
        type="checkbox"
        data-testid={testId}
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
      />
      <span>{label}</span>
    </label>
  );
}

export function NumberField({
  label,
  testId,
  value,
  error,
  hint,
  placeholder,
  onChange,
  onBlur,
}: {
  label: string;
  testId: string;
  value: string;
  error?: string | undefined;
  hint?: string;
  placeholder?: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
}) {
  return (
    <TextField
      label={label}
      data-testid={testId}
      inputMode="decimal"
      autoComplete="off"
      value={value}
      placeholder={placeholder}
      aria-invalid={error ? true : undefined}
      hint={error ? <FieldError>{error}</FieldError> : hint}
      onChange={(event) => onChange(event.target.value)}
      onBlur={onBlur}
    />
  );
}

export function TextArea({
  label,
  testId,
  value,
  error,
  onChange,
}: {
  label: string;
  testId: string;
  value: string;
  error?: string | undefined;
  onChange: (value: string) => void;
}) {
  const id = useId();
  return (
    <div className="fl-field">
      <label className="fl-field__label" htmlFor={id}>
        {label}
      </label>
      <textarea
        id={id}
        className="fl-input widget-editor__textarea"
        data-testid={testId}
        rows={4}
        value={value}
        aria-invalid={error ? true : undefined}
        onChange={(event) => onChange(event.target.value)}
      />
      {error && (
        <span className="fl-field__hint">
          <FieldError>{error}</FieldError>
        </span>
      )}
    </div>
  );
}

/** Named colours the specification's defaults use, for the colour swatch (which takes #rrggbb). */
const NAMED_COLOURS: Record<string, string> = {
  red: '#ff0000',
  grey: '#808080',
  gray: '#808080',
  green: '#008000',
  blue: '#0000ff',
  orange: '#ffa500',
  yellow: '#ffff00',
  black: '#000000',
  white: '#ffffff',
};

function swatchOf(value: string): string {
  const text = value.trim().toLowerCase();
  if (/^#[0-9a-f]{6}$/.test(text)) return text;
  if (/^#[0-9a-f]{3}$/.test(text)) return `#${[...text.slice(1)].map((c) => c + c).join('')}`;
  return NAMED_COLOURS[text] ?? '#000000';
}

/** A CSS colour: a swatch to pick one, and the text for any CSS colour (`red`, `#CA9D43`). */
export function ColourField({
  label,
  testId,
  value,
  onChange,
}: {
  label: string;
  testId: string;
  value: string;
  onChange: (value: string) => void;
}) {
  const id = useId();
  return (
    <div className="fl-field">
      <label className="fl-field__label" htmlFor={id}>
        {label}
      </label>
      <div className="widget-editor__colour">
        <input
          type="color"
          className={`widget-editor__swatch${value.trim() === '' ? ' is-default' : ''}`}
          aria-label={`${label} swatch`}
          value={swatchOf(value)}
          onChange={(event) => onChange(event.target.value)}
        />
        <input
          id={id}
          className="fl-input"
          data-testid={testId}
          value={value}
          placeholder="Default"
          autoComplete="off"
          maxLength={COLOUR_MAX}
          onChange={(event) => onChange(event.target.value)}
        />
      </div>
    </div>
  );
}
