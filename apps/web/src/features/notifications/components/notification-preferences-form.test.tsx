// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { NotificationPreferencesAnswer, OnCallRotaAnswer } from '@fieldlink/api/notifications';
import { DEFAULT_NOTIFICATION_PREFERENCES } from '@fieldlink/domain/notification-routing';
import { SPEC_CLOCK_FORMAT } from '@fieldlink/domain/date-format';
import { NotificationPreferencesForm } from './notification-preferences-form';
import { OnCallRotaEditor } from './on-call-rota-editor';

const ANSWER: NotificationPreferencesAnswer = {
  ...DEFAULT_NOTIFICATION_PREFERENCES,
  reach: {
    email: { available: true, reason: null },
    push: { available: false, reason: 'Turn notifications on in a browser to receive them.' },
    sms: { available: false, reason: 'This server does not send text messages.' },
  },
};

// Issue 39 item 5: the Notifications page's two parts, as a person uses them.
describe('Notification preferences', { timeout: 30_000 }, () => {
  afterEach(cleanup);

  it('says why SMS cannot be chosen, and saves per-channel choices and quiet hours in the user’s zone', () => {
    const onSave = vi.fn();
    render(
      <NotificationPreferencesForm preferences={ANSWER} timeZone="Europe/Berlin" saving={false} onSave={onSave} />,
    );
    expect(screen.getByText('This server does not send text messages.')).toBeTruthy();
    const sms = screen.getByRole('radiogroup', { name: 'Alarms by text messages (SMS)' });
    const smsEvery = sms.querySelector<HTMLInputElement>('input[value="all"]')!;
    expect(smsEvery.disabled).toBe(true);

    const push = screen.getByRole('radiogroup', { name: 'Alarms by push notifications' });
    fireEvent.click(push.querySelector<HTMLInputElement>('input[value="severities"]')!);
    const severities = screen.getByRole('group', { name: 'Severities by push notifications' });
    fireEvent.click(severities.querySelectorAll('input')[0]!); // CRITICAL
    fireEvent.click(screen.getByRole('checkbox', { name: /No push or SMS during these hours/ }));
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '23:00' } });
    expect(screen.getByText('Europe/Berlin')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Save notification settings' }));
    expect(onSave).toHaveBeenCalledWith({
      channels: {
        email: { alarms: 'all', severities: [] },
        push: { alarms: 'severities', severities: ['CRITICAL'] },
        sms: { alarms: 'none', severities: [] },
      },
      quietHours: { from: '23:00', to: '07:00', timeZone: 'Europe/Berlin' },
    });
  });

  it('refuses severities without any chosen, saying so, and sends nothing', () => {
    const onSave = vi.fn();
    render(<NotificationPreferencesForm preferences={ANSWER} timeZone="UTC" saving={false} onSave={onSave} />);
    const email = screen.getByRole('radiogroup', { name: 'Alarms by e-mail' });
    fireEvent.click(email.querySelector<HTMLInputElement>('input[value="severities"]')!);
    fireEvent.click(screen.getByRole('button', { name: 'Save notification settings' }));
    expect(screen.getByText('Choose at least one severity for e-mail, or none.')).toBeTruthy();
    expect(onSave).not.toHaveBeenCalled();
  });
});

const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 5, 1, 10, 0);
const ROTA: OnCallRotaAnswer = {
  accountId: 'acc',
  shifts: [{ userId: 'u-ann', from: NOW - HOUR, to: NOW + HOUR }],
  people: [
    { userId: 'u-ann', email: 'ann@fieldlink.test' },
    { userId: 'u-bob', email: 'bob@fieldlink.test' },
  ],
  onCallNow: ['u-ann'],
  editable: true,
};
const clock = { ...SPEC_CLOCK_FORMAT, timeZone: 'America/New_York' };

describe('The on-call rota', { timeout: 30_000 }, () => {
  afterEach(cleanup);

  it('shows who is on call and reads shifts in the reader’s zone for everyone else', () => {
    render(
      <OnCallRotaEditor rota={{ ...ROTA, editable: false }} clock={clock} now={NOW} saving={false} onSave={vi.fn()} />,
    );
    expect(screen.getByText('On call now: ann@fieldlink.test')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Save rota' })).toBeNull();
    // 09:00 UTC is 05:00 in New York (summer time).
    expect(screen.getByRole('listitem').textContent).toMatch(/^ann@fieldlink\.test: 01\/06\/26 5:00:00/);
  });

  it('lets an administrator add a shift for another responder, in their own clock', () => {
    const onSave = vi.fn();
    render(<OnCallRotaEditor rota={ROTA} clock={clock} now={NOW} saving={false} onSave={onSave} />);
    expect((screen.getByLabelText('Shift 1: from') as HTMLInputElement).value).toBe('2026-06-01T05:00');
    fireEvent.click(screen.getByRole('button', { name: 'Add shift' }));
    fireEvent.change(screen.getByLabelText('Shift 2: person'), { target: { value: 'u-bob' } });
    fireEvent.change(screen.getByLabelText('Shift 2: to'), { target: { value: '2026-06-01T20:00' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save rota' }));
    expect(onSave).toHaveBeenCalledWith([
      { userId: 'u-ann', from: NOW - HOUR, to: NOW + HOUR },
      // From the end of the last shift (07:00 New York) to 20:00 New York, 00:00 UTC.
      { userId: 'u-bob', from: NOW + HOUR, to: Date.UTC(2026, 6 - 1, 2, 0, 0) },
    ]);
  });

  it('refuses a shift that ends before it starts, and sends nothing', () => {
    const onSave = vi.fn();
    render(<OnCallRotaEditor rota={ROTA} clock={clock} now={NOW} saving={false} onSave={onSave} />);
    fireEvent.change(screen.getByLabelText('Shift 1: to'), { target: { value: '2026-06-01T04:00' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save rota' }));
    expect(screen.getByText('Shift 1 must end after it starts.')).toBeTruthy();
    expect(onSave).not.toHaveBeenCalled();
  });
});
