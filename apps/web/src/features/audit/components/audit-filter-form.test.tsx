// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { AuditFilterForm } from './audit-filter-form';

const USERS = [
  { id: 'u1', name: 'ann@fieldlink.test' },
  { id: 'u2', name: 'bob@fieldlink.test' },
];
const DEVICES = [{ id: 'd1', name: 'Fermenter FV1' }];

function renderForm() {
  const onApply = vi.fn();
  render(<AuditFilterForm users={USERS} devices={DEVICES} timeZone="America/New_York" onApply={onApply} />);
  return onApply;
}

const choose = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

// Issue 38 item 1: the audit log's filter form, as an administrator uses it.
// Rendering and five changes take seconds on a loaded machine, past the default five.
describe('The audit log filters', { timeout: 30_000 }, () => {
  afterEach(cleanup);

  it('offers the users, devices and every action by their readable names', () => {
    renderForm();
    const options = (label: string) =>
      [...(screen.getByLabelText(label) as HTMLSelectElement).options].map((option) => option.textContent);
    expect(options('User')).toEqual(['All users', 'ann@fieldlink.test', 'bob@fieldlink.test']);
    expect(options('Device')).toEqual(['All devices', 'Fermenter FV1']);
    expect(options('Action')).toContain('Device command');
    expect(options('Action')).toContain('Sign-in refused');
    // The time range is read in the zone the page shows its times in, and says which.
    expect(screen.getAllByText('America/New_York')).toHaveLength(2);
  });

  it('applies the chosen user, device, action and time range (in the zone given) together', () => {
    const onApply = renderForm();
    choose('User', 'u2');
    choose('Device', 'd1');
    choose('Action', 'device.command');
    choose('From', '2026-11-01T08:00');
    choose('To', '2026-11-02T17:30');
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect(onApply).toHaveBeenCalledWith({
      userId: 'u2',
      deviceId: 'd1',
      action: 'device.command',
      // New York is UTC-5 once summer time ends (01:00 on 1 November 2026).
      from: Date.UTC(2026, 10, 1, 13, 0),
      to: Date.UTC(2026, 10, 2, 22, 30) + 59_999,
    });
  });

  it('refuses a range that ends before it starts, and says why', () => {
    const onApply = renderForm();
    choose('From', '2026-11-02T08:00');
    choose('To', '2026-11-01T08:00');
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect(onApply).not.toHaveBeenCalled();
    expect(screen.getByRole('alert').textContent).toBe('The time range ends before it starts.');
  });

  it('clears every filter at once', () => {
    const onApply = renderForm();
    choose('Action', 'move');
    fireEvent.click(screen.getByRole('button', { name: 'Clear' }));
    expect(onApply).toHaveBeenLastCalledWith({});
    expect((screen.getByLabelText('Action') as HTMLSelectElement).value).toBe('');
  });
});
