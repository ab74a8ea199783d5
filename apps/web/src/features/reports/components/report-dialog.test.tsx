// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Account, GroupNode } from '@fieldlink/api/account';
import type { ReportMeta } from '@fieldlink/api/reports';
import { treeGroup } from '../../../lib/tree-fixtures';
import { ReportDialog } from './report-dialog';
import type { ReportDialogTarget } from '../model/report-dialog-target';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const NOW = Date.UTC(2026, 10, 29, 14, 30);
const HOUR = 3_600_000;

const group = (id: string, path: string, changes: Partial<GroupNode> = {}): GroupNode =>
  treeGroup(id, { name: id.replace('group-', ''), accountId: 'account-1', relativePath: path, ...changes });

const boiler = {
  id: 'device-1',
  name: 'Boiler 1',
  thingName: 'THING-1',
  channels: [
    { code: 'S1', name: 'Flow temperature' },
    { code: 'S2', name: 'Return temperature' },
  ],
};
const user = (email: string, firstName: string) => ({ email, firstName, lastName: '' });
const boilers = group('group-boilers', './group-plant/group-boilers', {
  devices: [boiler] as unknown as GroupNode['devices'],
  fullUsers: [user('bea@fieldlink.test', 'Bea')] as unknown as GroupNode['fullUsers'],
});
const chillers = group('group-chillers', './group-plant/group-chillers', {
  fullUsers: [user('carl@fieldlink.test', 'Carl')] as unknown as GroupNode['fullUsers'],
});
const plant = group('group-plant', './group-plant', { kind: 'root', groups: [boilers, chillers] });
const account = {
  id: 'account-1',
  name: 'Plant',
  appType: 'default',
  kind: 'customer',
  rootGroup: plant,
} as unknown as Account;

const report = {
  id: 'report-1',
  accountId: 'account-1',
  name: 'Boiler week',
  comments: 'For the audit',
  tags: ['boilers'],
  state: 'READY',
  props: {
    format: 'CSV',
    interval: 'HOUR',
    start: NOW - 7 * 24 * HOUR,
    end: NOW,
    devices: [{ deviceId: 'device-1', codes: ['S1'] }],
    visibility: 'CREATOR_ONLY',
    access: { type: 'CREATOR_ONLY', groupIds: [], users: [] },
    notifyAudience: 'NOBODY',
    notifyUsers: [],
  },
} as unknown as ReportMeta;

/** The calls that left for the server: method, path and body. */
let sent: { method: string; url: string; body: unknown }[] = [];

function renderDialog(target: ReportDialogTarget) {
  const onClose = vi.fn();
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <ReportDialog account={account} target={target} onClose={onClose} />
    </QueryClientProvider>,
  );
  return { onClose, dialog: screen.getByRole('dialog') };
}

const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const choose = type;
const alertText = () => screen.getByRole('alert').textContent;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
  sent = [];
  vi.stubGlobal('fetch', (url: string, init: RequestInit) => {
    sent.push({ method: init.method ?? 'GET', url: String(url), body: JSON.parse(String(init.body ?? 'null')) });
    return Promise.resolve(
      new Response(JSON.stringify(report), { status: 200, headers: { 'content-type': 'application/json' } }),
    );
  });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

// Issue 37 item 5: the report dialog as a person fills it in.
describe('the report dialog', { timeout: 30_000 }, () => {
  it('says what is missing, in the order a person fixes it, and sends nothing', () => {
    renderDialog({ kind: 'report' });
    fireEvent.click(screen.getByRole('button', { name: 'Generate report' }));
    expect(alertText()).toBe('Give the report a name.');
    type('Name', 'Boiler week');
    expect(alertText()).toBe('Choose at least one channel.');
    fireEvent.click(screen.getByRole('checkbox', { name: /Boiler 1/ }));
    choose('Period', 'CUSTOM');
    type('From', '2026-11-29T12:00');
    type('To', '2026-11-29T10:00');
    expect(alertText()).toBe('The period must end after it starts.');
    expect(sent).toEqual([]);
  });

  it('checks sharing against the chosen devices as it is chosen', () => {
    renderDialog({ kind: 'report' });
    const validity = () => screen.getByTestId('access-validity').textContent;
    choose('Visibility', 'SELECTED_GROUPS_IN_SCOPE');
    expect(validity()).toBe('Choose the devices first: sharing is checked against them.');
    fireEvent.click(screen.getByRole('checkbox', { name: /Boiler 1/ }));
    expect(validity()).toBe('Choose at least one group.');
    const groups = screen.getByRole('list', { name: 'Groups to share with' });
    fireEvent.click(within(groups).getByRole('checkbox', { name: 'chillers' }));
    expect(validity()).toBe('Every chosen group must hold all of the report’s devices.');
    fireEvent.click(within(groups).getByRole('checkbox', { name: 'chillers' }));
    fireEvent.click(within(groups).getByRole('checkbox', { name: 'boilers' }));
    expect(validity()).toBe('Everyone chosen already sees all of these devices.');

    choose('Visibility', 'SELECTED_USERS_IN_SCOPE');
    const users = screen.getByRole('list', { name: 'Users to share with' });
    fireEvent.click(within(users).getByRole('checkbox', { name: /Carl/ }));
    expect(validity()).toBe('Every chosen user must be in a group that holds all of the report’s devices.');
  });

  it('sends the new report with its period counted back from now, then closes', async () => {
    const { onClose } = renderDialog({ kind: 'report' });
    type('Name', '  Boiler week ');
    type('Comments', 'For the audit');
    type('Tags', 'boilers, weekly, boilers');
    fireEvent.click(screen.getByRole('button', { name: 'Show the channels of Boiler 1' }));
    fireEvent.click(screen.getByRole('checkbox', { name: /Return temperature/ }));
    choose('Period', 'WEEK');
    choose('Format', 'PDF');
    choose('Notify', 'SELECTED_USERS');
    fireEvent.click(screen.getByRole('button', { name: 'Generate report' }));
    expect(alertText()).toBe('Choose who to notify.');
    fireEvent.click(
      within(screen.getByRole('list', { name: 'Users to notify' })).getByRole('checkbox', { name: /Bea/ }),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Generate report' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(sent).toEqual([
      {
        method: 'POST',
        url: expect.stringMatching(/\/api\/v1\/report$/),
        body: {
          accountId: 'account-1',
          name: 'Boiler week',
          comments: 'For the audit',
          tags: ['boilers', 'weekly'],
          props: {
            format: 'PDF',
            visibility: 'CREATOR_ONLY',
            access: { type: 'CREATOR_ONLY', groupIds: [], users: [] },
            notifyAudience: 'SELECTED_USERS',
            notifyUsers: ['bea@fieldlink.test'],
            devices: [{ deviceId: 'device-1', codes: ['S2'] }],
            interval: 'HOUR',
            start: NOW - 7 * 24 * HOUR,
            end: NOW,
          },
        },
      },
    ]);
  });

  it('keeps an existing report’s coverage fixed and sends only what may change', async () => {
    const { onClose } = renderDialog({ kind: 'report', report });
    expect(screen.queryByRole('list', { name: 'Devices and channels' })).toBeNull();
    expect(screen.getByText('1 channels of 1 devices.')).toBeTruthy();
    for (const label of ['Period', 'Figures per', 'Format'])
      expect((screen.getByLabelText(label) as HTMLSelectElement).disabled).toBe(true);
    type('Name', 'Boiler week (audit)');
    choose('Visibility', 'PUBLIC');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(sent).toEqual([
      {
        method: 'PUT',
        url: expect.stringMatching(/\/api\/v1\/report\/meta$/),
        body: {
          id: 'report-1',
          accountId: 'account-1',
          props: {
            name: 'Boiler week (audit)',
            comments: 'For the audit',
            tags: ['boilers'],
            visibility: 'PUBLIC',
            access: { type: 'PUBLIC', groupIds: [], users: [] },
            notifyAudience: 'NOBODY',
            notifyUsers: [],
          },
        },
      },
    ]);
  });

  it('creates a monthly schedule on the chosen day and time', async () => {
    const { onClose } = renderDialog({ kind: 'schedule' });
    type('Name', 'Monthly boilers');
    fireEvent.click(screen.getByRole('checkbox', { name: /Boiler 1/ }));
    choose('Frequency', 'MONTHLY');
    choose('On day', '31');
    type('At', '06:15');
    fireEvent.click(screen.getByRole('button', { name: 'Create schedule' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      method: 'POST',
      url: expect.stringMatching(/\/api\/v1\/reports\/schedule$/),
      body: {
        accountId: 'account-1',
        name: 'Monthly boilers',
        props: {
          frequency: 'MONTHLY',
          dayOfMonth: 31,
          time: '06:15',
          enabled: true,
          devices: [{ deviceId: 'device-1', codes: ['S1', 'S2'] }],
        },
      },
    });
  });
});
