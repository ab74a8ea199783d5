import type { ReactNode } from 'react';
import { REPORT_FREQUENCIES, REPORT_FREQUENCY_LABELS } from '@fieldlink/domain/reports';
import type { ReportForm } from '../model/report-form';

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** One titled part of the report dialog. */
export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="reports-section">
      <legend>{title}</legend>
      {children}
    </fieldset>
  );
}

export function Choice({ label, children }: { label: string; children: ReactNode }) {
  return (
    <label className="fl-field">
      <span className="fl-field__label">{label}</span>
      {children}
    </label>
  );
}

/** Ticks from a list of options (groups or users to share with, users to notify). */
export function CheckList({
  label,
  options,
  value,
  onChange,
}: {
  label: string;
  options: readonly { value: string; label: string; sub?: string }[];
  value: readonly string[];
  onChange: (value: string[]) => void;
}) {
  return (
    <ul className="reports-checklist" aria-label={label}>
      {options.length === 0 && <li className="fl-muted">None in this account.</li>}
      {options.map((option) => (
        <li key={option.value}>
          <label className="reports-check">
            <input
              type="checkbox"
              checked={value.includes(option.value)}
              onChange={(event) =>
                onChange(
                  event.target.checked ? [...value, option.value] : value.filter((item) => item !== option.value),
                )
              }
            />
            <span>
              {option.label}
              {option.sub && <span className="fl-sub">{option.sub}</span>}
            </span>
          </label>
        </li>
      ))}
    </ul>
  );
}

/** A schedule's frequency, and its weekday or day of the month when it has one. */
export function ScheduleDayFields({
  form,
  set,
}: {
  form: ReportForm;
  set: <K extends keyof ReportForm>(key: K, value: ReportForm[K]) => void;
}) {
  return (
    <>
      <Choice label="Frequency">
        <select
          className="fl-select"
          value={form.frequency}
          onChange={(event) => set('frequency', event.target.value as ReportForm['frequency'])}
        >
          {REPORT_FREQUENCIES.map((frequency) => (
            <option key={frequency} value={frequency}>
              {REPORT_FREQUENCY_LABELS[frequency]}
            </option>
          ))}
        </select>
      </Choice>
      {form.frequency === 'WEEKLY' && (
        <Choice label="On">
          <select
            className="fl-select"
            value={form.dayOfWeek}
            onChange={(event) => set('dayOfWeek', Number(event.target.value))}
          >
            {WEEKDAYS.map((day, index) => (
              <option key={day} value={index}>
                {day}
              </option>
            ))}
          </select>
        </Choice>
      )}
      {form.frequency === 'MONTHLY' && (
        <Choice label="On day">
          <select
            className="fl-select"
            value={form.dayOfMonth}
            onChange={(event) => set('dayOfMonth', Number(event.target.value))}
          >
            {Array.from({ length: 31 }, (_, index) => index + 1).map((day) => (
              <option key={day} value={day}>
                {day === 31 ? '31 (or the last day)' : day}
              </option>
            ))}
          </select>
        </Choice>
      )}
    </>
  );
}
