// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ConnectionBar } from './connection-bar';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

afterEach(cleanup);

// Issue 39 item 1: a console that loses the network says so, and since when, until it is back.
describe('The connection bar', () => {
  it('says "You are offline" and since when while the browser has no network', () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false, enabled: false } } });
    render(
      <QueryClientProvider client={client}>
        <ConnectionBar />
      </QueryClientProvider>,
    );
    const status = () => screen.getByTestId('connection-status').textContent;
    expect(status()).toBe('Disconnected');

    act(() => {
      window.dispatchEvent(new Event('offline'));
    });
    expect(status()).toMatch(
      /^You are offline · since \d{1,2}:\d{2}( am| pm)?; reconnecting by itself, values shown are the last received$/,
    );
    expect(screen.getByRole('status').className).toContain('is-offline');

    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    expect(status()).toBe('Disconnected');
  });
});
