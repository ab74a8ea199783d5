// @vitest-environment happy-dom
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Widget } from '@fieldlink/api/scenes';
import { HIGH_WIND_BIT } from '@fieldlink/domain/spray';
import { SIGNED_OUT_SESSION, setSession } from '../../../lib/app-store/app-store';
import { queryClient } from '../../../lib/query-client';
import { stopRealtime, watchDevices } from '../../../lib/realtime/realtime-connection';
import { realtimeStore } from '../../../lib/realtime/realtime-store';
import { AnsweringSocket, breakRealtime, openRealtime, resetSentRequests } from '../../../lib/realtime/fixtures';
import { mosnixManualSprayWidget } from './control-widgets';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const WIND = 1 << HIGH_WIND_BIT;
/** The alarm bits the server stores in the device record. */
let storedMask = 0;

const answer = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function renderWidget() {
  const { View } = mosnixManualSprayWidget;
  const widget = { id: 'widget-1', type: 'mosnixManualSpray', value: 1 } as unknown as Widget;
  const channels = [
    {
      deviceId: 'dev-1',
      thingName: 'SPRAY_1',
      deviceName: 'North orchard',
      code: 'd1',
      name: 'Spray',
      units: '',
      legendVisibility: true,
    },
  ];
  render(
    <QueryClientProvider client={queryClient}>
      <View widget={widget} channels={channels} width={200} height={160} readOnly={false} confirmCommands={false} />
    </QueryClientProvider>,
  );
}

const blocked = () => screen.queryByText(/manual spray blocked$/) !== null;

beforeEach(async () => {
  storedMask = 0;
  resetSentRequests();
  vi.stubGlobal('WebSocket', AnsweringSocket);
  vi.stubGlobal('fetch', async (url: string) => {
    const { pathname, searchParams } = new URL(url, 'http://console.test');
    if (!pathname.endsWith('/device') || searchParams.get('id') !== 'dev-1') return answer({}, 404);
    return answer({ id: 'dev-1', thingName: 'SPRAY_1', status: { sp: storedMask } });
  });
  setSession({ ...SIGNED_OUT_SESSION, email: 'ann@fieldlink.test', canViewDash: true, permissions: ['VIEW_DASH'] });
  await openRealtime();
  // The page around it watches the device: the server pushes only what a socket subscribed to.
  watchDevices(['SPRAY_1']);
});
afterEach(() => {
  cleanup();
  stopRealtime();
  queryClient.clear();
  setSession(SIGNED_OUT_SESSION);
  vi.unstubAllGlobals();
});

describe('the manual spray widget’s alarm block', () => {
  it('follows the device record before any push', async () => {
    storedMask = WIND;
    renderWidget();
    await waitFor(() => expect(blocked()).toBe(true));
  });

  it('lifts when the alarm cleared while the console’s socket was down', async () => {
    renderWidget();
    await waitFor(() => expect(screen.getByText('Manual spray · Zone 1')).toBeTruthy());
    storedMask = WIND;
    AnsweringSocket.latest!.push({ type: 'server/alarms', thingName: 'SPRAY_1', status: { sp: WIND } });
    await waitFor(() => expect(blocked()).toBe(true));

    // The wind drops during the break: the record is stored, the push lost.
    storedMask = 0;
    await breakRealtime();

    await waitFor(() => expect(blocked()).toBe(false));
    expect(realtimeStore.getState().alarms.SPRAY_1).toBeUndefined();
  });

  it('stays when the alarm is still on after the break', async () => {
    renderWidget();
    await waitFor(() => expect(screen.getByText('Manual spray · Zone 1')).toBeTruthy());
    storedMask = WIND;
    AnsweringSocket.latest!.push({ type: 'server/alarms', thingName: 'SPRAY_1', status: { sp: WIND } });
    await waitFor(() => expect(blocked()).toBe(true));

    await breakRealtime();

    // The pre-break push is dropped once the record is read again; the record holds the block.
    await vi.waitFor(() => expect(realtimeStore.getState().alarms.SPRAY_1).toBeUndefined());
    expect(blocked()).toBe(true);
  });
});
