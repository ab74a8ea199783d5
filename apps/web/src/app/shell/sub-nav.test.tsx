// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { SIGNED_OUT_SESSION, appStore } from '../../lib/app-store/app-store';
import { SubNav } from './sub-nav';

function renderAt(path: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, enabled: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>
        <SubNav />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

// Issue 38: the account's security page showed the Dashboard's tabs, as if it were one of them.
describe('The sub-navigation', { timeout: 30_000 }, () => {
  beforeEach(() =>
    appStore.setState((state) => ({
      ...state,
      session: { ...SIGNED_OUT_SESSION, email: 'admin@fieldlink.test', permissions: ['VIEW_DASH', 'ADMIN'] },
    })),
  );
  afterEach(cleanup);

  it.each([
    ['/alarms', 'Alarms views', 'Alarms'],
    ['/dash', 'Dashboard views', 'Devices'],
  ])('shows the tabs of the section a page belongs to (%s)', (path, navigation, open) => {
    renderAt(path);
    const tabs = screen.getByRole('navigation', { name: navigation });
    expect(tabs.querySelector('[aria-current="page"]')?.textContent).toBe(open);
  });

  it.each(['/account/security', '/no-such-page'])('shows no section’s tabs on a page outside them (%s)', (path) => {
    const { container } = renderAt(path);
    expect(screen.queryByRole('navigation')).toBeNull();
    expect(container.textContent).toBe('');
  });

  it('marks the edges past which more tabs lie, as the row scrolls (its scrollbar is hidden)', () => {
    renderAt('/dash');
    const tabs = screen.getByRole('navigation', { name: 'Dashboard views' });
    // A phone's row: 300 px showing of 640.
    let scrollLeft = 0;
    let scrollWidth = 640;
    Object.defineProperties(tabs, {
      clientWidth: { get: () => 300 },
      scrollWidth: { get: () => scrollWidth },
      scrollLeft: { get: () => scrollLeft, set: (value: number) => (scrollLeft = value) },
    });
    const edgesAt = (left: number) => {
      scrollLeft = left;
      fireEvent.scroll(tabs);
      return tabs.getAttribute('data-more');
    };
    expect(edgesAt(0)).toBe('end');
    expect(edgesAt(120)).toBe('both');
    expect(edgesAt(340)).toBe('start');
    scrollWidth = 300;
    expect(edgesAt(0)).toBeNull();
  });
});
