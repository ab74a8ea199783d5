// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { AccountSecondFactorAnswer } from '@fieldlink/api/mfa';
import { secondFactorQuery } from '../api/second-factor';
import { SecondFactorRequirement } from './second-factor-requirement';

const ACCOUNT = 'acc-1';

function renderSwitch(setting: AccountSecondFactorAnswer) {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  client.setQueryData(secondFactorQuery(ACCOUNT).queryKey, setting);
  return render(
    <QueryClientProvider client={client}>
      <SecondFactorRequirement accountId={ACCOUNT} accountName="Acme Controls" />
    </QueryClientProvider>,
  );
}

// Issue 38 item 2: an administrator requires a second factor of an account's users.
describe('Require a second factor', () => {
  const sent: { method: string; url: string; body: unknown }[] = [];
  beforeEach(() => {
    sent.length = 0;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        const body = JSON.parse(String(init.body)) as { accountId: string; required: boolean };
        sent.push({ method: init.method ?? 'GET', url: String(url), body });
        return new Response(JSON.stringify({ ...body, requiredAbove: false }), {
          status: 200,
          headers: { 'content-type': 'application/json' },
        });
      }),
    );
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('shows the account’s setting and turns it on with one PUT', async () => {
    renderSwitch({ accountId: ACCOUNT, required: false, requiredAbove: false });
    const toggle = screen.getByRole('switch', { name: 'Require a second factor' });
    expect(toggle.getAttribute('aria-checked')).toBe('false');
    expect(screen.queryByText(/An account above/)).toBeNull();
    fireEvent.click(toggle);
    await waitFor(() => expect(toggle.getAttribute('aria-checked')).toBe('true'));
    expect(sent).toHaveLength(1);
    expect(sent[0]!.method).toBe('PUT');
    expect(sent[0]!.url).toMatch(/\/api\/v1\/account\/second-factor$/);
    expect(sent[0]!.body).toEqual({ accountId: ACCOUNT, required: true });
    await waitFor(() => expect((toggle as HTMLButtonElement).disabled).toBe(false));
    expect(screen.getByText(/nobody can turn theirs off/)).toBeTruthy();
  });

  it('turns it off, and says when an account above requires it anyway', async () => {
    renderSwitch({ accountId: ACCOUNT, required: true, requiredAbove: true });
    expect(screen.getByText('An account above this one already requires a second factor of its users.')).toBeTruthy();
    const toggle = screen.getByRole('switch', { name: 'Require a second factor' });
    expect(toggle.getAttribute('aria-checked')).toBe('true');
    fireEvent.click(toggle);
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]!.body).toEqual({ accountId: ACCOUNT, required: false });
    await waitFor(() => expect(toggle.getAttribute('aria-checked')).toBe('false'));
  });
});
