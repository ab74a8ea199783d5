import { useState, type FormEvent } from 'react';
import type { BatchProps } from '@fieldlink/api/brew';
import { GRAVITY_RANGE } from '@fieldlink/domain/brew';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { TextField } from '../../../components/ui/text-field';

const EMPTY: BatchProps = { beerName: '', style: '', originalGravity: null, targetGravity: null, notes: '' };

const gravityText = (value: number | null) => (value === null ? '' : String(value));
const gravityValue = (text: string) => (text.trim() === '' ? null : Number(text));

/** Start a batch, or edit its info (EDIT_BREW_INFO). */
export function BatchDialog({
  title,
  initial,
  busy,
  submitLabel,
  onSubmit,
  onClose,
}: {
  title: string;
  initial: BatchProps | null;
  busy: boolean;
  submitLabel: string;
  onSubmit: (props: BatchProps) => void;
  onClose: () => void;
}) {
  const start = initial ?? EMPTY;
  const [beerName, setBeerName] = useState(start.beerName);
  const [style, setStyle] = useState(start.style);
  const [og, setOg] = useState(gravityText(start.originalGravity));
  const [target, setTarget] = useState(gravityText(start.targetGravity));
  const [notes, setNotes] = useState(start.notes);
  const invalid = (text: string) => {
    const value = gravityValue(text);
    return value !== null && !(value >= GRAVITY_RANGE.min && value <= GRAVITY_RANGE.max);
  };
  const problem =
    beerName.trim() === ''
      ? 'Name the beer.'
      : invalid(og) || invalid(target)
        ? `Gravities lie between ${GRAVITY_RANGE.min.toFixed(3)} and ${GRAVITY_RANGE.max.toFixed(3)}.`
        : null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (problem) return;
    onSubmit({
      beerName: beerName.trim(),
      style: style.trim(),
      originalGravity: gravityValue(og),
      targetGravity: gravityValue(target),
      notes: notes.trim(),
    });
  };
  return (
    <Dialog
      title={title}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" type="submit" form="batch-form" busy={busy} disabled={problem !== null}>
            {submitLabel}
          </Button>
        </>
      }
    >
      <form id="batch-form" className="brew-form" onSubmit={submit}>
        <TextField
          label="Beer"
          value={beerName}
          onChange={(event) => setBeerName(event.target.value)}
          maxLength={80}
          autoFocus
        />
        <TextField label="Style" value={style} onChange={(event) => setStyle(event.target.value)} maxLength={80} />
        <div className="brew-form__row">
          <TextField
            label="Original gravity"
            inputMode="decimal"
            placeholder="1.050"
            value={og}
            onChange={(event) => setOg(event.target.value)}
          />
          <TextField
            label="Target gravity"
            inputMode="decimal"
            placeholder="1.010"
            value={target}
            onChange={(event) => setTarget(event.target.value)}
          />
        </div>
        <label className="fl-field">
          <span className="fl-field__label">Notes</span>
          <textarea
            className="fl-input brew-textarea"
            value={notes}
            maxLength={2000}
            onChange={(event) => setNotes(event.target.value)}
          />
        </label>
        {problem && beerName !== '' && <p className="brew-form__problem">{problem}</p>}
      </form>
    </Dialog>
  );
}
