// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { AccountAnswer } from '@fieldlink/api/account';
import type { Webhook, WebhookDelivery } from '@fieldlink/api/webhooks';
import { formatDateTime } from '@fieldlink/domain/date-format';
import { accountQuery } from '../../../lib/api/get-account';
import { SIGNED_OUT_SESSION, appStore } from '../../../lib/app-store/app-store';
import { readerClock } from '../../../lib/page-time-zone';
import { WebhooksPage } from './webhooks-page';

const ACCOUNT = 'acc-orchard';
const CLOCK = { timeZone: 'Asia/Tokyo', hourCycle: '24', dateOrder: 'dmy' } as const;
const HOOK: Webhook = {
  id: 'wh1',
  accountId: ACCOUNT,
  url: 'https://hooks.example.com/fieldlink',
  events: ['alarm.raised', 'alarm.cleared'],
  format: 'json',
  createdAt: 1_790_000_000_000,
  updatedAt: 1_790_000_000_000,
};
const DELIVERED: WebhookDelivery = {
  id: 'd1',
  webhookId: 'wh1',
  eventId: 'ev1',
  event: 'alarm.raised',
  at: 1_790_000_100_000,
  state: 'delivered',
  attempts: 1,
  lastAttemptAt: 1_790_000_100_050,
  status: 204,
  responseMs: 38,
  detail: null,
  nextAttemptAt: null,
};
const RETRYING: WebhookDelivery = {
  ...DELIVERED,
  id: 'd2',
  eventId: 'ev2',
  event: 'alarm.cleared',
  at: 1_790_000_200_000,
  state: 'pending',
  attempts: 3,
  status: 503,
  responseMs: 120,
  detail: 'Service Unavailable',
  nextAttemptAt: 1_790_000_270_000,
};

interface Sent {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
}

/** The API at the network's edge: answers the webhook calls from a list kept here, and records each call. */
function fakeApi() {
  const sent: Sent[] = [];
  const hooks: Webhook[] = [HOOK];
  const answer = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const fetch = vi.fn(async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input), 'http://console.test');
    const path = url.pathname.replace(/^.*\/api\/v1/, '');
    const query = Object.fromEntries(url.searchParams);
    const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : undefined;
    const method = init?.method ?? 'GET';
    sent.push({ method, path, query, body });
    if (method === 'GET' && path === '/webhooks') return answer(200, { webhooks: hooks });
    if (method === 'GET' && path === '/webhooks/deliveries') {
      return answer(200, { deliveries: query.id === 'wh1' ? [RETRYING, DELIVERED] : [] });
    }
    if (method === 'POST' && path === '/webhooks') {
      if (String(body?.url).includes('127.0.0.1')) {
        return answer(400, { message: 'The URL leads to a private, loopback or link-local address.' });
      }
      const created = { ...HOOK, ...body, id: 'wh2' } as Webhook;
      hooks.push(created);
      return answer(200, { ...created, secret: 'whsec_only-shown-once' });
    }
    if (method === 'PUT' && path === '/webhooks') return answer(200, { ...HOOK, ...body });
    if (method === 'DELETE' && path === '/webhooks') return answer(200, {});
    if (method === 'POST' && path === '/webhooks/test') {
      return answer(200, { ...DELIVERED, id: 'd3', event: 'webhook.test', responseMs: 41 });
    }
    return answer(404, { message: 'Not found.' });
  });
  return { sent, fetch, writes: () => sent.filter((call) => call.method !== 'GET') };
}

function renderPage(permissions: string[]) {
  appStore.setState((state) => ({
    ...state,
    session: { ...SIGNED_OUT_SESSION, email: 'admin@fieldlink.test', permissions, clock: CLOCK },
  }));
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  client.setQueryData(accountQuery().queryKey, {
    accounts: [{ id: ACCOUNT, name: 'Orchard Spray Co' }],
  } as unknown as AccountAnswer);
  return render(
    <QueryClientProvider client={client}>
      <WebhooksPage />
    </QueryClientProvider>,
  );
}

// Issue 39 item 3: Accounts → Webhooks, where an account's administrators manage its webhooks.
describe('Webhooks page', () => {
  let api: ReturnType<typeof fakeApi>;
  beforeEach(() => {
    api = fakeApi();
    vi.stubGlobal('fetch', api.fetch);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    appStore.setState((state) => ({ ...state, session: SIGNED_OUT_SESSION }));
  });

  it('lists each webhook with its recent deliveries in the user’s own clock', async () => {
    renderPage(['ADMIN']);
    const card = await screen.findByRole('region', { name: HOOK.url });
    expect(card.textContent).toContain('Fieldlink JSON · Alarm raised, Alarm cleared');
    const table = await within(card).findByRole('table', { name: `Deliveries to ${HOOK.url}` });
    const rows = within(table).getAllByTestId('webhook-delivery');
    const clock = readerClock(CLOCK);
    const cells = (row: HTMLElement) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent);
    expect(cells(rows[0]!)).toEqual([
      'Alarm cleared',
      formatDateTime(RETRYING.at, clock),
      'Retrying',
      '503: Service Unavailable',
      '120 ms',
      '3',
      formatDateTime(RETRYING.nextAttemptAt!, clock),
    ]);
    expect(cells(rows[1]!)).toEqual([
      'Alarm raised',
      formatDateTime(DELIVERED.at, clock),
      'Delivered',
      '204',
      '38 ms',
      '1',
      '—',
    ]);
    // The user's own zone and format, not the browser's or UTC: 14:15 UTC is 23:15 in Tokyo.
    expect(cells(rows[1]!)[1]).toBe('21/09/26 23:15:00');
  });

  it('adds a webhook with its URL, events and format, and shows the secret once with a copy button', async () => {
    const writeText = vi.fn(async () => undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    renderPage(['ADMIN']);
    fireEvent.click(await screen.findByRole('button', { name: 'Add webhook' }));
    const form = screen.getByRole('dialog', { name: 'Add webhook' });
    fireEvent.change(within(form).getByLabelText('URL'), {
      target: { value: 'https://hooks.slack.com/services/T0/B0/x' },
    });
    fireEvent.change(within(form).getByLabelText('Format'), { target: { value: 'slack' } });
    fireEvent.click(within(form).getByRole('checkbox', { name: 'Alarm acknowledged' }));
    fireEvent.click(within(form).getByRole('checkbox', { name: 'Update failed' }));
    fireEvent.click(within(form).getByRole('button', { name: 'Add webhook' }));

    const shown = await screen.findByRole('dialog', { name: 'Webhook added' });
    expect(api.writes()).toEqual([
      {
        method: 'POST',
        path: '/webhooks',
        query: {},
        body: {
          accountId: ACCOUNT,
          url: 'https://hooks.slack.com/services/T0/B0/x',
          events: ['alarm.raised', 'alarm.acknowledged', 'ota.failed'],
          format: 'slack',
        },
      },
    ]);
    expect(within(shown).getByLabelText('Signing secret').textContent).toBe('whsec_only-shown-once');
    fireEvent.click(within(shown).getByRole('button', { name: 'Copy secret' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('whsec_only-shown-once'));
    fireEvent.click(within(shown).getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    await screen.findByRole('region', { name: 'https://hooks.slack.com/services/T0/B0/x' });
    expect(document.body.textContent).not.toContain('whsec_only-shown-once');
  });

  it('refuses a bad URL or no event before sending, and shows the server’s refusal', async () => {
    renderPage(['ADMIN']);
    fireEvent.click(await screen.findByRole('button', { name: 'Add webhook' }));
    const form = screen.getByRole('dialog', { name: 'Add webhook' });
    const submit = within(form).getByRole('button', { name: 'Add webhook' });
    fireEvent.click(submit);
    expect(within(form).getByText('Enter the receiver’s URL.')).toBeTruthy();
    fireEvent.change(within(form).getByLabelText('URL'), { target: { value: 'ftp://files.example.com/' } });
    fireEvent.click(submit);
    expect(within(form).getByText('The URL must start with https:// or http://.')).toBeTruthy();
    fireEvent.change(within(form).getByLabelText('URL'), { target: { value: 'http://127.0.0.1:9000/hook' } });
    fireEvent.click(within(form).getByRole('checkbox', { name: 'Alarm raised' }));
    fireEvent.click(submit);
    expect(within(form).getByText('Choose at least one event.')).toBeTruthy();
    expect(api.writes()).toEqual([]);
    fireEvent.click(within(form).getByRole('checkbox', { name: 'Report ready' }));
    fireEvent.click(submit);
    expect(await within(form).findByText('The URL leads to a private, loopback or link-local address.')).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: 'Webhook added' })).toBeNull();
  });

  it('edits a webhook’s events, sends a test event, and deletes only after asking', async () => {
    renderPage(['ADMIN']);
    const card = await screen.findByRole('region', { name: HOOK.url });
    fireEvent.click(within(card).getByRole('button', { name: `Edit ${HOOK.url}` }));
    const form = screen.getByRole('dialog', { name: 'Edit webhook' });
    expect((within(form).getByLabelText('URL') as HTMLInputElement).value).toBe(HOOK.url);
    expect((within(form).getByRole('checkbox', { name: 'Alarm cleared' }) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(within(form).getByRole('checkbox', { name: 'Alarm cleared' }));
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    fireEvent.click(within(card).getByRole('button', { name: 'Send test event' }));
    await waitFor(() => expect(api.writes()).toHaveLength(2));

    fireEvent.click(within(card).getByRole('button', { name: `Delete ${HOOK.url}` }));
    const ask = screen.getByRole('dialog', { name: 'Delete this webhook?' });
    expect(ask.textContent).toContain(HOOK.url);
    fireEvent.click(within(ask).getByRole('button', { name: 'Cancel' }));
    expect(api.writes()).toHaveLength(2);
    fireEvent.click(within(card).getByRole('button', { name: `Delete ${HOOK.url}` }));
    fireEvent.click(
      within(screen.getByRole('dialog', { name: 'Delete this webhook?' })).getByRole('button', { name: 'Delete' }),
    );
    await waitFor(() => expect(api.writes()).toHaveLength(3));

    expect(api.writes()).toEqual([
      {
        method: 'PUT',
        path: '/webhooks',
        query: { id: 'wh1' },
        body: { url: HOOK.url, events: ['alarm.raised'], format: 'json' },
      },
      { method: 'POST', path: '/webhooks/test', query: { id: 'wh1' }, body: undefined },
      { method: 'DELETE', path: '/webhooks', query: { id: 'wh1' }, body: undefined },
    ]);
  });

  it('without the administrator’s right offers nothing and asks the server nothing', () => {
    // The navigation leaves the tab out (sections.test.ts); opened by its URL, the page says who may.
    const permissions = ['VIEW_DASH', 'VIEW_ACCOUNTS', 'ADD_EDIT_DELETE_GROUPS', 'INVITE_USERS', 'ADD_DEVICES'];

    renderPage([...permissions]);
    expect(screen.getByText('Webhooks are managed by administrators (“Administrator” permission).')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Add webhook' })).toBeNull();
    expect(api.sent).toEqual([]);
  });
});
