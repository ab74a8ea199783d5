// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import type { SessionSummary } from '@fieldlink/api/sessions';
import { formatDateTime, type Clock } from '@fieldlink/domain/date-format';
import { SessionList } from './session-list';

// A reader in Tokyo with a 24-hour clock, day first: the list writes every time in that clock.
const CLOCK: Clock = { timeZone: 'Asia/Tokyo', hourCycle: '24', dateOrder: 'dmy' };
const AT = Date.UTC(2026, 10, 29, 15, 4, 5);

const session = (id: string, browser: string, address: string | null, current = false): SessionSummary => ({
  id,
  current,
  browser,
  userAgent: `agent of ${browser}`,
  address,
  createdAt: AT - 86_400_000,
  lastSeenAt: AT,
});

function renderList(sessions: SessionSummary[]) {
  const onSignOut = vi.fn();
  const onSignOutOthers = vi.fn();
  render(<SessionList sessions={sessions} clock={CLOCK} onSignOut={onSignOut} onSignOutOthers={onSignOutOthers} />);
  return { onSignOut, onSignOutOthers };
}

const rows = () => screen.getAllByTestId('session-row');

// Issue 38 item 4: the user's signed-in sessions on the security page.
describe('The signed-in sessions list', { timeout: 30_000 }, () => {
  afterEach(cleanup);

  it('names each browser in words with its address and times in the reader’s clock, this browser first', () => {
    renderList([
      session('s-phone', 'Safari on iPhone', '192.0.2.7'),
      session('s-here', 'Firefox on Linux', '127.0.0.1', true),
      session('s-script', 'curl', null),
    ]);
    expect(rows().map((row) => within(row).getAllByRole('cell')[0]!.textContent)).toEqual([
      'Firefox on LinuxThis browser',
      'Safari on iPhone',
      'curl',
    ]);
    const phone = rows()[1]!;
    expect(within(phone).getByText('192.0.2.7')).toBeTruthy();
    expect(within(phone).getByText(formatDateTime(AT - 86_400_000, CLOCK))).toBeTruthy();
    expect(within(phone).getByText(formatDateTime(AT, CLOCK))).toBeTruthy();
    // Tokyo is UTC+9: 15:04 UTC is past midnight there, the next day.
    expect(formatDateTime(AT, CLOCK)).toContain('00:04:05');
    expect(within(rows()[2]!).getByText('Unknown')).toBeTruthy();
    // This browser is not signed out from here; every other one is.
    expect(within(rows()[0]!).queryByRole('button')).toBeNull();
    expect(rows().map((row) => within(row).queryByRole('button')?.textContent ?? null)).toEqual([
      null,
      'Sign out',
      'Sign out',
    ]);
  });

  it('asks before signing one session out, and sends only its id once confirmed', () => {
    const { onSignOut, onSignOutOthers } = renderList([
      session('s-here', 'Firefox on Linux', '127.0.0.1', true),
      session('s-phone', 'Safari on iPhone', '192.0.2.7'),
    ]);
    fireEvent.click(screen.getByRole('button', { name: 'Sign out Safari on iPhone (192.0.2.7)' }));
    const dialog = screen.getByRole('dialog', { name: 'Sign this session out?' });
    expect(dialog.textContent).toContain('Safari on iPhone at 192.0.2.7 is signed out at once');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(onSignOut).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole('button', { name: 'Sign out Safari on iPhone (192.0.2.7)' }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Sign out' }));
    expect(onSignOut).toHaveBeenCalledExactlyOnceWith('s-phone');
    expect(onSignOutOthers).not.toHaveBeenCalled();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('asks before signing every other session out, saying how many', () => {
    const { onSignOut, onSignOutOthers } = renderList([
      session('s-here', 'Firefox on Linux', '127.0.0.1', true),
      session('s-phone', 'Safari on iPhone', '192.0.2.7'),
      session('s-office', 'Edge on Windows', '198.51.100.3'),
    ]);
    fireEvent.click(screen.getByRole('button', { name: 'Sign out all other sessions' }));
    const dialog = screen.getByRole('dialog', { name: 'Sign out all other sessions?' });
    expect(dialog.textContent).toContain('2 other sessions are signed out at once. This browser stays signed in.');
    expect(onSignOutOthers).not.toHaveBeenCalled();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Sign out all others' }));
    expect(onSignOutOthers).toHaveBeenCalledOnce();
    expect(onSignOut).not.toHaveBeenCalled();
  });

  it('offers nothing to sign out when this browser is the only session', () => {
    renderList([session('s-here', 'Firefox on Linux', '127.0.0.1', true)]);
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.getByText('You are signed in on this browser only.')).toBeTruthy();
  });
});
