// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { FALLBACK_CLIENT_CONFIG, clientConfigQuery } from '../../lib/api/get-client-config';
import { PushSettings } from './push-settings';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/**
 * The browser's side stands in for what happy-dom lacks (a service worker container, the Push API):
 * the edge the console cannot run here. The worker registers only when `activate` is called.
 */
function browserWithLateWorker() {
  let registration: { pushManager: { getSubscription: () => Promise<null> } } | undefined;
  let activate = () => {};
  const ready = new Promise<void>((resolve) => {
    activate = () => {
      registration = { pushManager: { getSubscription: async () => null } };
      resolve();
    };
  });
  vi.stubGlobal('PushManager', class {});
  vi.stubGlobal('Notification', { permission: 'default' });
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: { getRegistration: async () => registration, ready: ready.then(() => registration) },
  });
  return { activate };
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  Reflect.deleteProperty(navigator, 'serviceWorker');
});

describe('Notifications on this browser', () => {
  it('can be turned on once the service worker that registered after the menu opened is active', async () => {
    const { activate } = browserWithLateWorker();
    const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
    client.setQueryData(clientConfigQuery().queryKey, { ...FALLBACK_CLIENT_CONFIG, pushPublicKey: 'BKey' });
    render(
      <QueryClientProvider client={client}>
        <PushSettings />
      </QueryClientProvider>,
    );
    const toggle = await screen.findByRole('switch', { name: 'Notifications on this browser' });
    expect(toggle).toHaveProperty('disabled', true);
    expect(screen.getByTestId('push-hint').textContent).toMatch(/^This browser cannot show notifications/);
    await act(async () => activate());
    await vi.waitFor(() => expect(toggle).toHaveProperty('disabled', false));
    expect(screen.getByTestId('push-hint').textContent).toMatch(/^Turn on to see your devices’ alarms/);
  });
});
