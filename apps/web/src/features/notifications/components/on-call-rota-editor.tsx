import { useState, type FormEvent } from 'react';
import type { OnCallRotaAnswer } from '@fieldlink/api/notifications';
import { dateTimeInputValue, formatDateTime, instantOfDateTimeInput, type Clock } from '@fieldlink/domain/date-format';
import { onCallRotaProblem, type OnCallShift } from '@fieldlink/domain/notification-routing';
import { Button } from '../../../components/ui/button';
import { InlineAlert } from '../../../components/ui/inline-alert';

const HOUR = 3_600_000;

interface ShiftDraft {
  key: number;
  userId: string;
  from: string;
  to: string;
}

export interface OnCallRotaEditorProps {
  rota: OnCallRotaAnswer;
  /** The reader's clock: shifts are shown and typed in its zone. */
  clock: Clock;
  saving: boolean;
  now: number;
  onSave: (shifts: OnCallShift[]) => void;
}

/**
 * An account's on-call rota (issue 39 item 5): who is on call from when to when, in the reader's own
 * clock. Administrators of the account edit it; everyone else reads it.
 */
export function OnCallRotaEditor({ rota, clock, saving, now, onSave }: OnCallRotaEditorProps) {
  const zone = clock.timeZone;
  const emailOf = (userId: string) => rota.people.find((person) => person.userId === userId)?.email ?? userId;
  const [drafts, setDrafts] = useState<ShiftDraft[]>(() =>
    rota.shifts.map((shift, key) => ({
      key,
      userId: shift.userId,
      from: dateTimeInputValue(shift.from, zone),
      to: dateTimeInputValue(shift.to, zone),
    })),
  );
  const [nextKey, setNextKey] = useState(rota.shifts.length);
  const [problem, setProblem] = useState<string | null>(null);
  const onCall = rota.onCallNow.map(emailOf).join(', ');

  if (!rota.editable) {
    return (
      <div className="notifications-rota">
        <p>{onCall ? `On call now: ${onCall}` : 'Nobody is on call now: alarms reach everyone as they chose.'}</p>
        {rota.shifts.length === 0 ? (
          <p className="fl-muted">This account has no on-call rota. Its administrators can set one up.</p>
        ) : (
          <ul className="notifications-shift-list">
            {rota.shifts.map((shift, index) => (
              <li key={index}>
                {emailOf(shift.userId)}: {formatDateTime(shift.from, clock)} – {formatDateTime(shift.to, clock)}
              </li>
            ))}
          </ul>
        )}
      </div>
    );
  }

  const change = (key: number, field: 'userId' | 'from' | 'to', value: string) =>
    setDrafts((current) => current.map((draft) => (draft.key === key ? { ...draft, [field]: value } : draft)));
  const add = () => {
    const last = drafts.at(-1);
    const start = (last && instantOfDateTimeInput(last.to, zone)) ?? Math.ceil(now / HOUR) * HOUR;
    setDrafts((current) => [
      ...current,
      {
        key: nextKey,
        userId: rota.people[0]?.userId ?? '',
        from: dateTimeInputValue(start, zone),
        to: dateTimeInputValue(start + 12 * HOUR, zone),
      },
    ]);
    setNextKey((key) => key + 1);
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const shifts: OnCallShift[] = [];
    for (const [index, draft] of drafts.entries()) {
      const from = instantOfDateTimeInput(draft.from, zone);
      const to = instantOfDateTimeInput(draft.to, zone);
      if (from === null || to === null) {
        setProblem(`Shift ${index + 1}: enter when it starts and ends.`);
        return;
      }
      shifts.push({ userId: draft.userId, from, to });
    }
    const found = onCallRotaProblem(shifts);
    setProblem(found);
    if (!found) onSave(shifts);
  };

  return (
    <form className="notifications-rota" onSubmit={onSubmit} noValidate>
      <p>{onCall ? `On call now: ${onCall}` : 'Nobody is on call now: alarms reach everyone as they chose.'}</p>
      {rota.people.length === 0 && (
        <InlineAlert tone="info">Only Alarm Responders can be on call, and this account has none.</InlineAlert>
      )}
      <ol className="notifications-shifts">
        {drafts.map((draft, index) => (
          <li key={draft.key} className="notifications-shift">
            <label className="fl-field">
              <span className="fl-field__label">Shift {index + 1}: person</span>
              <select
                className="fl-select"
                value={draft.userId}
                onChange={(event) => change(draft.key, 'userId', event.target.value)}
              >
                {rota.people.map((person) => (
                  <option key={person.userId} value={person.userId}>
                    {person.email}
                  </option>
                ))}
              </select>
            </label>
            <label className="fl-field">
              <span className="fl-field__label">Shift {index + 1}: from</span>
              <input
                className="fl-input"
                type="datetime-local"
                value={draft.from}
                onChange={(event) => change(draft.key, 'from', event.target.value)}
              />
            </label>
            <label className="fl-field">
              <span className="fl-field__label">Shift {index + 1}: to</span>
              <input
                className="fl-input"
                type="datetime-local"
                value={draft.to}
                onChange={(event) => change(draft.key, 'to', event.target.value)}
              />
            </label>
            <Button
              size="sm"
              variant="ghost"
              aria-label={`Remove shift ${index + 1}`}
              onClick={() => setDrafts((current) => current.filter((item) => item.key !== draft.key))}
            >
              Remove
            </Button>
          </li>
        ))}
      </ol>
      <p className="fl-muted">Times are in {zone}. While a shift runs, only its person is woken by push and SMS.</p>
      {problem && <InlineAlert tone="error">{problem}</InlineAlert>}
      <div className="notifications-actions">
        <Button type="button" disabled={rota.people.length === 0} onClick={add}>
          Add shift
        </Button>
        <Button type="submit" variant="primary" busy={saving}>
          Save rota
        </Button>
      </div>
    </form>
  );
}
