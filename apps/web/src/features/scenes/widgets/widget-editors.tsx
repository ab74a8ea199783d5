import { useId, useState } from 'react';
import { buttonPressValue, compassOffsetOf, SPRAY_ZONES, sprayZoneOf } from '@fieldlink/domain/widget-values';
import { SelectField } from '../../../components/ui/select-field';
import { TextField } from '../../../components/ui/text-field';
import type { WidgetEditorProps } from './widget-definition';

/**
 * Type-specific editor sections, shown after the shared ones. Each keeps its setting in the widget's
 * `value` (or `isAlertMode`), the fields §3 gives a widget for its own data.
 */

/** A number field that keeps what the user types until it reads as a number. */
function NumberField({
  label,
  hint,
  value,
  step,
  min,
  max,
  onCommit,
}: {
  label: string;
  hint: string;
  value: number | null;
  step: string;
  min?: number;
  max?: number;
  onCommit: (value: number | null) => void;
}) {
  const [text, setText] = useState(value === null ? '' : String(value));
  return (
    <TextField
      label={label}
      hint={hint}
      type="number"
      inputMode="decimal"
      step={step}
      min={min}
      max={max}
      value={text}
      onChange={(event) => {
        setText(event.target.value);
        const number = Number(event.target.value);
        if (event.target.value.trim() === '') onCommit(null);
        else if (Number.isFinite(number)) onCommit(number);
      }}
    />
  );
}

export function ButtonEditor({ draft, onChange }: WidgetEditorProps) {
  return (
    <NumberField
      label="Value sent while pressed"
      hint="Released, the button sends 0."
      step="any"
      value={buttonPressValue(draft.value)}
      onCommit={(value) => onChange({ ...draft, value: value ?? 1 })}
    />
  );
}

export function CompassEditor({ draft, onChange }: WidgetEditorProps) {
  return (
    <NumberField
      label="North offset (degrees)"
      hint="Added to the reading, for a sensor not mounted facing north."
      step="1"
      min={-359}
      max={359}
      value={compassOffsetOf(draft.value)}
      onCommit={(value) => onChange({ ...draft, value: value ?? 0 })}
    />
  );
}

export function SprayZoneEditor({ draft, onChange }: WidgetEditorProps) {
  return (
    <SelectField
      label="Spray zone"
      hint="Start spray writes the zone number to the channel; stop writes 0."
      value={sprayZoneOf(draft.value)}
      onChange={(event) => onChange({ ...draft, value: Number(event.target.value) })}
    >
      {SPRAY_ZONES.map((zone) => (
        <option key={zone} value={zone}>
          Zone {zone}
        </option>
      ))}
    </SelectField>
  );
}

export function IndicatorEditor({ draft, onChange }: WidgetEditorProps) {
  const id = useId();
  return (
    <div className="fl-field">
      <label className="wv-editor-check" htmlFor={id}>
        <input
          id={id}
          type="checkbox"
          checked={draft.isAlertMode === true}
          onChange={(event) => onChange({ ...draft, isAlertMode: event.target.checked })}
        />
        Alert mode: blink while on
      </label>
    </div>
  );
}
