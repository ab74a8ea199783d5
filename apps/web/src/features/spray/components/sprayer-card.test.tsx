// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Device } from '@fieldlink/api/device';
import { MONITOR_ONLY_REFUSAL } from '@fieldlink/domain/permissions';
import { CONFIGURE_DEVICES_REFUSAL } from '@fieldlink/domain/device-actions';
import { SIGNED_OUT_SESSION, setSession } from '../../../lib/app-store/app-store';
import { startRealtime, stopRealtime } from '../../../lib/realtime/realtime-connection';
import { realtimeStore } from '../../../lib/realtime/realtime-store';
import { SprayerCard } from './sprayer-card';
import { AnsweringSocket, resetSentRequests, sentRequests as sent } from '../../../lib/realtime/fixtures';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const NOW = Date.UTC(2026, 10, 30, 1, 0);

const sprayer = {
  id: 'device-1',
  name: 'North orchard',
  thingName: 'SPRAY-1',
  timeDate: null,
  channels: [],
  registers: {},
  isConnected: true,
  status: { sp: 0 },
} as unknown as Device;

function renderCard(session: { permissions: string[]; monitorOnly?: boolean }) {
  setSession({ ...SIGNED_OUT_SESSION, email: 'ann@fieldlink.test', canViewDash: true, monitorOnly: false, ...session });
  render(
    <MemoryRouter>
      <SprayerCard device={sprayer} />
    </MemoryRouter>,
  );
  return screen.getByRole('article', { name: 'North orchard' });
}

const button = (name: string | RegExp) => screen.getByRole('button', { name }) as HTMLButtonElement;
const controls = () => screen.getByRole('region', { name: 'Manual spray control' });

beforeEach(async () => {
  resetSentRequests();
  vi.stubGlobal('WebSocket', AnsweringSocket);
  await startRealtime({ token: 'token', canViewDash: true, onUnauthorized: () => {} });
  const latest = (value: number) => ({ value, t: NOW });
  realtimeStore.setState((state) => ({
    ...state,
    latest: {
      'SPRAY-1': {
        a16: latest(62.5),
        sp10: latest(10),
        sp11: latest(25),
        gpf9: latest(1),
        sp2: latest(4),
        t6: latest(3),
      },
    },
  }));
});
afterEach(() => {
  cleanup();
  stopRealtime();
  setSession(SIGNED_OUT_SESSION);
  vi.unstubAllGlobals();
});

// Issue 37 item 5: a sprayer card, as an operator, a monitor-only user and a configurer use it.
describe('a sprayer card', { timeout: 30_000 }, () => {
  it('shows the tank, today’s sprays and skip-spray from the latest values', () => {
    const card = renderCard({ permissions: ['VIEW_DASH'] });
    expect(within(card).getByText('62.5 %')).toBeTruthy();
    expect(within(card).getByText('Refill 25 %')).toBeTruthy();
    expect(within(card).getByText('Empty 10 %')).toBeTruthy();
    expect(screen.getByTestId('sprays-today-z1').textContent).toBe('3');
    expect(screen.getByTestId('sprays-today-z2').textContent).toBe('—');
    expect(screen.getByTestId('skip-spray').textContent).toBe('Enabled · not active · skip time 4 h');
    expect(screen.getByTestId('next-spray').textContent).toBe('No spray scheduled');
    expect(within(card).getByText('Online')).toBeTruthy();
  });

  it('lets an operator spray but not change schedules, and says why', () => {
    renderCard({ permissions: ['VIEW_DASH'] });
    expect(controls().getAttribute('title')).toBeNull();
    for (const name of ['Spray zone 1', 'Spray zone 2', 'Test spray', 'Skip sprays for 4 h'])
      expect(button(name).disabled).toBe(false);
    expect(button('Schedules').title).toBe(CONFIGURE_DEVICES_REFUSAL);
  });

  it('shows a monitor-only user every control disabled, saying why', () => {
    renderCard({ permissions: ['VIEW_DASH'], monitorOnly: true });
    expect(controls().getAttribute('title')).toBe(MONITOR_ONLY_REFUSAL);
    for (const name of ['Spray zone 1', 'Spray zone 2', 'Test spray', 'Skip sprays for 4 h'])
      expect(button(name).disabled).toBe(true);
  });

  it('offers someone who configures devices the schedule editor', () => {
    renderCard({ permissions: ['VIEW_DASH', 'ADD_DEVICES'] });
    expect(button('Edit schedules').title).toBe('');
  });

  it('sends nothing until the spray is confirmed, then writes the zone to manual spray control', async () => {
    renderCard({ permissions: ['VIEW_DASH'] });
    fireEvent.click(button('Spray zone 2'));
    const confirm = screen.getByRole('dialog', { name: 'Spray zone 2?' });
    expect(within(confirm).getByTestId('operate-now').textContent).toContain('Idle');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(sent).toEqual([]);

    fireEvent.click(button('Spray zone 2'));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Spray zone 2' }));
    await waitFor(() =>
      expect(sent).toEqual([{ type: 'server/writeChannel', thingName: 'SPRAY-1', code: 'gpf1', value: 2 }]),
    );
  });

  it('writes 1 to skip-spray for a skip', async () => {
    renderCard({ permissions: ['VIEW_DASH'] });
    fireEvent.click(button('Skip sprays for 4 h'));
    const confirm = screen.getByRole('dialog', { name: 'Skip sprays?' });
    expect(within(confirm).getByText('Skipping sprays for 4 h')).toBeTruthy();
    fireEvent.click(within(confirm).getByRole('button', { name: 'Skip sprays' }));
    await waitFor(() =>
      expect(sent).toEqual([{ type: 'server/writeChannel', thingName: 'SPRAY-1', code: 'gpf2', value: 1 }]),
    );
  });
});
