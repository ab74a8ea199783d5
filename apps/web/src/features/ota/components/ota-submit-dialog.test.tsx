// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { OTA_DEFAULT_DEVICES_PER_MINUTE } from '@fieldlink/domain/ota';
import { OtaSubmitDialog, type FleetDevice } from './ota-submit-dialog';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const FLEET: FleetDevice[] = [
  { id: 'device-1', hw: null, fw: '4.2.0' },
  { id: 'device-2', hw: null, fw: '4.3.0' },
  { id: 'device-3', hw: null, fw: '4.1.7' },
];

/** The calls that left for the server, and what the OTA call answers. */
let sent: { method: string; url: string; body: unknown }[] = [];
let otaAnswer: unknown[] = [];

function renderDialog({ canSkipApproval, fleet }: { canSkipApproval: boolean; fleet?: FleetDevice[] }) {
  const onClose = vi.fn();
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <OtaSubmitDialog
        deviceIds={['device-1', 'device-2']}
        fleet={fleet ? () => fleet : undefined}
        canSkipApproval={canSkipApproval}
        onClose={onClose}
      />
    </QueryClientProvider>,
  );
  return onClose;
}

const otaCalls = () => sent.filter((call) => call.url.endsWith('/devices/ota-submit'));
const submitButton = (name: string) => screen.getByRole('button', { name });

beforeEach(() => {
  sent = [];
  otaAnswer = [
    { deviceId: 'device-1', updateId: 'u1', state: 'PENDING' },
    { deviceId: 'device-2', updateId: 'u2', state: 'PENDING' },
  ];
  vi.stubGlobal('fetch', (url: string, init: RequestInit) => {
    sent.push({ method: init.method ?? 'GET', url: String(url), body: JSON.parse(String(init.body ?? 'null')) });
    const answer = String(url).endsWith('/devices/ota-submit') ? otaAnswer : { accounts: [] };
    return Promise.resolve(
      new Response(JSON.stringify(answer), { status: 200, headers: { 'content-type': 'application/json' } }),
    );
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

// Issue 37 item 5: the OTA submission, for an operator and for an administrator.
describe('the OTA update dialog', { timeout: 30_000 }, () => {
  it('offers an operator no way past approval, and says who approves', () => {
    renderDialog({ canSkipApproval: false, fleet: FLEET });
    expect(screen.queryByRole('checkbox', { name: /Skip approval/ })).toBeNull();
    expect(
      screen.getByText(/Nothing is sent until an administrator approves the update in Pending OTA updates/),
    ).toBeTruthy();
    expect(submitButton('Submit for approval')).toBeTruthy();
  });

  it('offers the fleet’s versions newest first and sends the newest for approval', async () => {
    const onClose = renderDialog({ canSkipApproval: false, fleet: FLEET });
    const versions = [...(screen.getByLabelText('Firmware version') as HTMLSelectElement).options].map(
      (option) => option.textContent,
    );
    expect(versions).toEqual(['4.3.0 (newest)', '4.2.0', '4.1.7']);
    fireEvent.click(submitButton('Submit for approval'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(otaCalls()).toEqual([
      {
        method: 'POST',
        url: expect.stringMatching(/\/api\/v1\/devices\/ota-submit$/),
        body: {
          deviceIds: ['device-1', 'device-2'],
          updateCommand: 'firmware 4.3.0',
          skipApproval: false,
          devicesPerMinute: OTA_DEFAULT_DEVICES_PER_MINUTE,
        },
      },
    ]);
  });

  it('lets an administrator send at once, at the pace chosen', async () => {
    const onClose = renderDialog({ canSkipApproval: true, fleet: FLEET });
    fireEvent.change(screen.getByLabelText('Firmware version'), { target: { value: '4.2.0' } });
    fireEvent.change(screen.getByLabelText('Rollout pace'), { target: { value: '300' } });
    fireEvent.click(screen.getByRole('checkbox', { name: /Skip approval/ }));
    fireEvent.click(submitButton('Send update'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(otaCalls().map((call) => call.body)).toEqual([
      {
        deviceIds: ['device-1', 'device-2'],
        updateCommand: 'firmware 4.2.0',
        skipApproval: true,
        devicesPerMinute: 300,
      },
    ]);
  });

  it.each([
    ['', 'Enter an update command.'],
    ['firmware\u00074.3.0', 'The update command may not contain control characters.'],
  ])('refuses the command %j and says why', (typed, reason) => {
    renderDialog({ canSkipApproval: false });
    const command = screen.getByLabelText('Update command');
    fireEvent.change(command, { target: { value: typed } });
    fireEvent.click(submitButton('Submit for approval'));
    expect(screen.getByText(reason)).toBeTruthy();
    expect(command.getAttribute('aria-invalid')).toBe('true');
    expect(otaCalls()).toEqual([]);
  });

  it('sends a typed command trimmed, and lists the devices the server refused', async () => {
    otaAnswer = [
      { deviceId: 'device-1', updateId: 'u1', state: 'PENDING' },
      { error: { message: 'The device already has an update waiting.' } },
    ];
    const onClose = renderDialog({ canSkipApproval: false });
    fireEvent.change(screen.getByLabelText('Update command'), { target: { value: '  https://fw.example/4.3.0.bin ' } });
    fireEvent.click(submitButton('Submit for approval'));
    expect(await screen.findByRole('dialog', { name: 'OTA update submitted with failures' })).toBeTruthy();
    expect(screen.getByRole('list', { name: 'Failed devices' }).textContent).toBe(
      'device-2The device already has an update waiting.',
    );
    expect(otaCalls()[0]!.body).toMatchObject({ updateCommand: 'https://fw.example/4.3.0.bin' });
    expect(onClose).not.toHaveBeenCalled();
  });
});
