import { useState, type FormEvent } from 'react';
import { AUDIT_ACTIONS, AUDIT_ACTION_LABELS } from '@fieldlink/domain/audit';
import { Button } from '../../../components/ui/button';
import { SelectField } from '../../../components/ui/select-field';
import { TextField } from '../../../components/ui/text-field';
import {
  EMPTY_AUDIT_FILTER_DRAFT,
  auditFiltersOf,
  type AuditFilterDraft,
  type AuditFilters,
} from '../model/audit-filters';

/** A user or device the filters offer: its id and the name people know. */
export interface FilterChoice {
  id: string;
  name: string;
}

export interface AuditFilterFormProps {
  users: readonly FilterChoice[];
  devices: readonly FilterChoice[];
  /** The zone the From and To fields are read in: the page's, where its times are shown. */
  timeZone: string;
  /** Called with the filters when they are applied (and with none when cleared). */
  onApply: (filters: AuditFilters) => void;
}

/** The audit log's filters: user, device, action and time range, applied together. */
export function AuditFilterForm({ users, devices, timeZone, onApply }: AuditFilterFormProps) {
  const [draft, setDraft] = useState<AuditFilterDraft>(EMPTY_AUDIT_FILTER_DRAFT);
  const [problem, setProblem] = useState<string | null>(null);
  const set = (field: keyof AuditFilterDraft) => (event: { target: { value: string } }) =>
    setDraft((current) => ({ ...current, [field]: event.target.value }));
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const result = auditFiltersOf(draft, timeZone);
    if ('problem' in result) {
      setProblem(result.problem);
      return;
    }
    setProblem(null);
    onApply(result.filters);
  };
  const onClear = () => {
    setDraft(EMPTY_AUDIT_FILTER_DRAFT);
    setProblem(null);
    onApply({});
  };
  const zone = <span className="audit-filters__zone">{timeZone}</span>;
  return (
    <form className="audit-filters" aria-label="Filter the audit log" onSubmit={onSubmit}>
      <SelectField label="User" value={draft.userId} onChange={set('userId')}>
        <option value="">All users</option>
        {users.map((user) => (
          <option key={user.id} value={user.id}>
            {user.name}
          </option>
        ))}
      </SelectField>
      <SelectField label="Device" value={draft.deviceId} onChange={set('deviceId')}>
        <option value="">All devices</option>
        {devices.map((device) => (
          <option key={device.id} value={device.id}>
            {device.name}
          </option>
        ))}
      </SelectField>
      <SelectField label="Action" value={draft.action} onChange={set('action')}>
        <option value="">All actions</option>
        {AUDIT_ACTIONS.map((action) => (
          <option key={action} value={action}>
            {AUDIT_ACTION_LABELS[action]}
          </option>
        ))}
      </SelectField>
      <TextField label="From" type="datetime-local" value={draft.from} onChange={set('from')} aside={zone} />
      <TextField label="To" type="datetime-local" value={draft.to} onChange={set('to')} aside={zone} />
      <div className="audit-filters__actions">
        <Button type="submit" size="sm" variant="primary">
          Apply
        </Button>
        <Button type="button" size="sm" variant="secondary" onClick={onClear}>
          Clear
        </Button>
      </div>
      {problem && (
        <p className="audit-filters__problem" role="alert">
          {problem}
        </p>
      )}
    </form>
  );
}
