// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { PhoneAnswer } from '@fieldlink/api/phone';
import type { MfaStatusAnswer } from '@fieldlink/api/mfa';
import { FALLBACK_CLIENT_CONFIG, clientConfigQuery } from '../../../lib/api/get-client-config';
import { PHONE_KEY } from '../api/get-phone';
import { MFA_KEY } from '../api/get-mfa';
import type { AccountAnswer } from '@fieldlink/api/account';
import { accountQuery } from '../../../lib/api/get-account';
import { selfQuery } from '../../../lib/api/get-self';
import { API_TOKENS_KEY } from '../api/get-api-tokens';
import { PASSKEYS_KEY } from '../api/get-passkeys';
import { SESSIONS_KEY } from '../api/get-sessions';
import { SecurityPage } from './security-page';

const NOTHING: PhoneAnswer = { phone: null, verifiedAt: null, pending: null };
const PENDING: PhoneAnswer = { ...NOTHING, pending: { phone: '+447700900101', expiresAt: 2_000_000_000_000 } };
const VERIFIED: PhoneAnswer = { phone: '+447700900101', verifiedAt: 1_900_000_000_000, pending: null };

/** Requests the page made, and what the fake server answers each (by method and path). */
let sent: { method: string; path: string; body: unknown }[] = [];
let answers: Record<string, { status: number; body: object }> = {};

function renderPage(sms: boolean, phone: PhoneAnswer) {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  client.setQueryData(clientConfigQuery().queryKey, { ...FALLBACK_CLIENT_CONFIG, sms });
  client.setQueryData(MFA_KEY, { totp: false, recoveryCodesLeft: 0 } as MfaStatusAnswer);
  client.setQueryData(PHONE_KEY, phone);
  // The page's other sections (issue 38): the user, their passkeys, sessions and API tokens, already read.
  client.setQueryData(selfQuery().queryKey, {
    id: 'u1',
    email: 'ops@fieldlink.test',
    firstName: 'Olive',
    lastName: 'Ops',
    theme: null,
    linkedAccounts: [],
    monitorOnly: false,
    timeZone: null,
    hourCycle: null,
    dateOrder: null,
  });
  client.setQueryData(accountQuery().queryKey, { accounts: [] } as unknown as AccountAnswer);
  client.setQueryData(SESSIONS_KEY, { sessions: [] });
  client.setQueryData(API_TOKENS_KEY, { tokens: [] });
  client.setQueryData(PASSKEYS_KEY, { passkeys: [] });
  return render(
    <QueryClientProvider client={client}>
      <SecurityPage />
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  sent = [];
  answers = {};
  vi.stubGlobal('fetch', (url: string, init: RequestInit) => {
    const method = init.method ?? 'GET';
    const path = new URL(String(url), 'http://console.test').pathname.replace(/^\/api\/v1/, '');
    sent.push({ method, path, body: JSON.parse(String(init.body ?? 'null')) });
    const answer = answers[`${method} ${path}`] ?? { status: 500, body: { message: 'unexpected' } };
    return Promise.resolve(
      new Response(JSON.stringify(answer.body), {
        status: answer.status,
        headers: { 'content-type': 'application/json' },
      }),
    );
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

// Issue 39 item 4: the phone SMS alerts go to, on /account/security.
describe('Phone for SMS alerts', () => {
  it('is not shown where the server has no SMS', () => {
    renderPage(false, NOTHING);
    expect(screen.getByRole('heading', { name: 'Two-factor authentication is off' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Phone for SMS alerts' })).toBeNull();
    expect(sent).toEqual([]);
  });

  it('sends the number in international form, and explains a number it cannot read as one', async () => {
    renderPage(true, NOTHING);
    expect(screen.getByRole('heading', { name: 'Phone for SMS alerts' })).toBeTruthy();
    const field = screen.getByLabelText('Mobile number');
    fireEvent.change(field, { target: { value: '07700 900101' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send code' }));
    expect(screen.getByRole('alert').textContent).toMatch(/international form: \+ and the country code/);
    expect(sent).toEqual([]);

    answers['PUT /user/phone'] = { status: 200, body: PENDING };
    fireEvent.change(field, { target: { value: '+44 7700 900101' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send code' }));
    await screen.findByLabelText('Code from the SMS');
    expect(sent).toEqual([{ method: 'PUT', path: '/user/phone', body: { phone: '+447700900101' } }]);
    expect(screen.getByText('+447700900101')).toBeTruthy();
  });

  it('verifies with the code, says why a code is refused, and shows the number verified', async () => {
    renderPage(true, PENDING);
    const field = screen.getByLabelText('Code from the SMS');
    const verify = screen.getByRole('button', { name: 'Verify' }) as HTMLButtonElement;
    fireEvent.change(field, { target: { value: '123' } });
    expect(verify.disabled).toBe(true);

    answers['POST /user/phone/verify'] = {
      status: 400,
      body: { statusCode: 400, message: 'The code is not right. 4 tries left.' },
    };
    fireEvent.change(field, { target: { value: '123 456' } });
    fireEvent.click(verify);
    expect((await screen.findByRole('alert')).textContent).toBe('The code is not right. 4 tries left.');
    expect(sent).toEqual([{ method: 'POST', path: '/user/phone/verify', body: { code: '123456' } }]);

    answers['POST /user/phone/verify'] = { status: 200, body: VERIFIED };
    fireEvent.click(verify);
    await screen.findByText('Verified');
    expect(screen.getByText('+447700900101')).toBeTruthy();
    expect(screen.queryByLabelText('Code from the SMS')).toBeNull();
  });

  it('removes a verified number, and offers to add one again', async () => {
    renderPage(true, VERIFIED);
    answers['DELETE /user/phone'] = { status: 200, body: NOTHING };
    fireEvent.click(screen.getByRole('button', { name: 'Remove' }));
    await screen.findByLabelText('Mobile number');
    expect(sent).toEqual([{ method: 'DELETE', path: '/user/phone', body: null }]);
    expect(screen.queryByText('Verified')).toBeNull();
  });

  it('changes a verified number: the form opens, and Cancel leaves the verified one', async () => {
    renderPage(true, VERIFIED);
    fireEvent.click(screen.getByRole('button', { name: 'Change number' }));
    expect(screen.getByLabelText('Mobile number')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByLabelText('Mobile number')).toBeNull());
    expect(screen.getByText('Verified')).toBeTruthy();
  });
});
