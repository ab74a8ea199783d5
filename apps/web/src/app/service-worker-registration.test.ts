import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { registerServiceWorker } from './service-worker-registration';

/** A promise and the function that settles it, for a call that answers when the test says so. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => (resolve = settle));
  return { promise, resolve };
}

/** Page events the test fires by hand: the `load` event and each idle period. */
function handQuiet() {
  const load = deferred<void>();
  const latest = deferred<void>();
  let idleWaiters: (() => void)[] = [];
  return {
    quiet: {
      loaded: () => load.promise,
      idle: () => new Promise<void>((resolve) => idleWaiters.push(resolve)),
      latest: () => latest.promise,
    },
    fireLatest: () => latest.resolve(),
    fireLoad: () => load.resolve(),
    /** Ends the current idle wait, if any (each idle wait is a new requestIdleCallback). */
    fireIdle: () => {
      const waiters = idleWaiters;
      idleWaiters = [];
      waiters.forEach((resolve) => resolve());
    },
  };
}

/** Runs what is due now: settled promises and TanStack Query's notifications (a zero-delay timer). */
const settle = () => vi.advanceTimersByTimeAsync(0);

describe('registerServiceWorker: the worker installs once the first page has its data (issue 41 item 5)', () => {
  const register = vi.fn(() => Promise.resolve());
  let queryClient: QueryClient;

  beforeEach(() => {
    vi.useFakeTimers();
    vi.stubEnv('PROD', true);
    vi.stubGlobal('navigator', { serviceWorker: { register } });
    queryClient = new QueryClient();
  });

  afterEach(() => {
    queryClient.clear();
    register.mockClear();
    vi.unstubAllEnvs();
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('waits for the load event, the first calls and an idle main thread, then registers /sw.js', async () => {
    const page = handQuiet();
    const table = deferred<string>();
    void queryClient.prefetchQuery({ queryKey: ['device-table'], queryFn: () => table.promise });
    registerServiceWorker(queryClient, page.quiet);

    page.fireLoad();
    await settle();
    page.fireIdle();
    await settle();
    // The table is still arriving: its download must not share the network with the worker's install.
    expect(register).not.toHaveBeenCalled();

    table.resolve('100,000 devices');
    await settle();
    expect(register).not.toHaveBeenCalled();
    page.fireIdle();
    await settle();
    expect(register).toHaveBeenCalledExactlyOnceWith('/sw.js');
  });

  it('waits for a call the page starts after the load event', async () => {
    const page = handQuiet();
    registerServiceWorker(queryClient, page.quiet);
    page.fireLoad();
    await settle();

    // The first page renders after `load` and asks for its data before the main thread is idle.
    const account = deferred<string>();
    void queryClient.prefetchQuery({ queryKey: ['account'], queryFn: () => account.promise });
    page.fireIdle();
    await settle();
    expect(register).not.toHaveBeenCalled();

    account.resolve('tree');
    await settle();
    page.fireIdle();
    await settle();
    expect(register).toHaveBeenCalledOnce();
  });

  it('registers at the latest time even while a call is still in flight', async () => {
    const page = handQuiet();
    void queryClient.prefetchQuery({ queryKey: ['slow'], queryFn: () => new Promise<never>(() => undefined) });
    registerServiceWorker(queryClient, page.quiet);
    page.fireLoad();
    page.fireIdle();
    await settle();
    expect(register).not.toHaveBeenCalled();
    page.fireLatest();
    await settle();
    expect(register).toHaveBeenCalledOnce();
  });

  it('registers nothing before the load event', async () => {
    const page = handQuiet();
    registerServiceWorker(queryClient, page.quiet);
    page.fireIdle();
    await settle();
    expect(register).not.toHaveBeenCalled();
  });
});
