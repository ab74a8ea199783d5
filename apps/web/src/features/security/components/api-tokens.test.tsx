// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ApiTokenCreateAnswer, ApiTokenCreateBody, ApiTokenSummary } from '@fieldlink/api/api-tokens';
import { formatDate, formatDateTime, type Clock } from '@fieldlink/domain/date-format';
import { ApiTokens } from './api-tokens';

const CLOCK: Clock = { timeZone: 'America/New_York', hourCycle: '12', dateOrder: 'mdy' };
const NOW = Date.UTC(2026, 10, 29, 15, 0, 0);
const DAY = 86_400_000;
const SECRET = `flk_${'a'.repeat(43)}`;

const TOKENS: ApiTokenSummary[] = [
  {
    id: 't-ci',
    name: 'CI export',
    readOnly: true,
    createdAt: NOW - 10 * DAY,
    expiresAt: NOW + 80 * DAY,
    lastUsedAt: NOW - 3_600_000,
    lastUsedAddress: '203.0.113.9',
  },
  {
    id: 't-old',
    name: 'Old sync',
    readOnly: false,
    createdAt: NOW - 100 * DAY,
    expiresAt: NOW - DAY,
    lastUsedAt: null,
    lastUsedAddress: null,
  },
];

function renderTokens(tokens = TOKENS) {
  const onCreate = vi.fn(async (body: ApiTokenCreateBody): Promise<ApiTokenCreateAnswer> => ({
    id: 't-new',
    name: body.name,
    readOnly: body.readOnly ?? false,
    createdAt: NOW,
    expiresAt: body.expiresAt ?? NOW + 90 * DAY,
    lastUsedAt: null,
    lastUsedAddress: null,
    token: SECRET,
  }));
  const onRevoke = vi.fn();
  render(<ApiTokens tokens={tokens} clock={CLOCK} now={NOW} onCreate={onCreate} onRevoke={onRevoke} />);
  return { onCreate, onRevoke };
}

const openForm = () => {
  fireEvent.click(screen.getByRole('button', { name: 'New API token' }));
  return screen.getByRole('dialog', { name: 'New API token' });
};

// Issue 38 item 3 (console): the user's personal API tokens on the security page.
describe('The API tokens section', { timeout: 30_000 }, () => {
  afterEach(cleanup);

  it('lists each token with created, expires and last used in the reader’s clock, and read-only', () => {
    renderTokens();
    const [ci, old] = screen.getAllByTestId('api-token-row');
    expect(within(ci!).getByText('Read-only')).toBeTruthy();
    expect(within(ci!).getByText(formatDate(NOW - 10 * DAY, CLOCK))).toBeTruthy();
    expect(within(ci!).getByText(formatDate(NOW + 80 * DAY, CLOCK))).toBeTruthy();
    expect(within(ci!).getByText(formatDateTime(NOW - 3_600_000, CLOCK), { exact: false })).toBeTruthy();
    expect(within(ci!).getByText('from 203.0.113.9')).toBeTruthy();
    expect(within(old!).getByText('Read and write')).toBeTruthy();
    expect(within(old!).getByText('Expired')).toBeTruthy();
    expect(within(old!).getByText('Never')).toBeTruthy();
  });

  it('sends the name, the end of the chosen day in the reader’s zone and read-only', async () => {
    const { onCreate } = renderTokens();
    const form = openForm();
    fireEvent.change(within(form).getByLabelText('Name'), { target: { value: '  Nightly export  ' } });
    fireEvent.change(within(form).getByLabelText('Expires on (optional)'), { target: { value: '2026-12-31' } });
    fireEvent.click(within(form).getByRole('switch', { name: 'Read-only' }));
    fireEvent.click(within(form).getByRole('button', { name: 'Make token' }));
    // New York is UTC-5 in winter: 23:59:59.999 there is 04:59:59.999 UTC the next day.
    await waitFor(() =>
      expect(onCreate).toHaveBeenCalledExactlyOnceWith({
        name: 'Nightly export',
        readOnly: true,
        expiresAt: Date.UTC(2027, 0, 1, 4, 59, 59, 999),
      }),
    );
  });

  it('leaves the expiry to the server without a date, and refuses a nameless or too distant token', async () => {
    const { onCreate } = renderTokens();
    const form = openForm();
    fireEvent.click(within(form).getByRole('button', { name: 'Make token' }));
    expect(within(form).getByText('Give the token a name, so you know later what uses it.')).toBeTruthy();
    fireEvent.change(within(form).getByLabelText('Name'), { target: { value: 'Sync' } });
    fireEvent.change(within(form).getByLabelText('Expires on (optional)'), { target: { value: '2028-01-01' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Make token' }));
    expect(within(form).getByText('An API token can last at most 365 days.')).toBeTruthy();
    expect(onCreate).not.toHaveBeenCalled();
    fireEvent.change(within(form).getByLabelText('Expires on (optional)'), { target: { value: '' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Make token' }));
    await waitFor(() => expect(onCreate).toHaveBeenCalledExactlyOnceWith({ name: 'Sync', readOnly: false }));
  });

  it('shows the new token once, with a copy button and a warning, and never again', async () => {
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderTokens();
    const form = openForm();
    fireEvent.change(within(form).getByLabelText('Name'), { target: { value: 'Nightly export' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Make token' }));
    const shown = await screen.findByRole('dialog', { name: 'API token “Nightly export”' });
    expect(within(shown).getByTestId('new-api-token').textContent).toBe(SECRET);
    expect(shown.textContent).toContain('Copy the token now: it will not be shown again.');
    fireEvent.click(within(shown).getByRole('button', { name: 'Copy' }));
    expect(writeText).toHaveBeenCalledExactlyOnceWith(SECRET);

    fireEvent.click(within(shown).getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.body.textContent).not.toContain(SECRET);
    // Opening the form again starts empty: the secret is gone from the page.
    const again = openForm();
    expect((within(again).getByLabelText('Name') as HTMLInputElement).value).toBe('');
    expect(document.body.textContent).not.toContain(SECRET);
  });

  it('asks before revoking, and revokes only that token once confirmed', () => {
    const { onRevoke } = renderTokens();
    fireEvent.click(screen.getByRole('button', { name: 'Revoke CI export' }));
    const dialog = screen.getByRole('dialog', { name: 'Revoke this API token?' });
    expect(dialog.textContent).toContain('“CI export” stops working at once.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(onRevoke).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Revoke CI export' }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Revoke' }));
    expect(onRevoke).toHaveBeenCalledExactlyOnceWith('t-ci');
  });
});
