// @vitest-environment happy-dom
import { Suspense } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { isChunkLoadError } from './crash/chunk-load-error';
import { SCRIPT_LOAD_TIMEOUT_MS, lazyPage, withScriptLoadTimeout } from './lazy-page';

describe('withScriptLoadTimeout', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('is the 120 s of §9', () => expect(SCRIPT_LOAD_TIMEOUT_MS).toBe(120_000));

  it('passes a load that arrives in time', async () => {
    // eslint-disable-next-line no-restricted-syntax -- a page arriving at 119 s of vitest's fake clock (an injected clock)
    const loaded = withScriptLoadTimeout(new Promise((resolve) => setTimeout(() => resolve('page'), 119_000)));
    await vi.advanceTimersByTimeAsync(119_000);
    await expect(loaded).resolves.toBe('page');
  });

  it('fails a load still missing after 120 s with a ChunkLoadError (the reload screen)', async () => {
    const loaded = withScriptLoadTimeout(new Promise(() => undefined));
    const failure = loaded.catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(SCRIPT_LOAD_TIMEOUT_MS);
    const error = await failure;
    expect(isChunkLoadError(error)).toBe(true);
  });
});

describe('lazyPage', () => {
  afterEach(cleanup);

  const pageModule = { AlarmsPage: ({ title = 'Alarms' }: { title?: string }) => <h1>{title}</h1> };
  const renderInSuspense = (Page: ReturnType<typeof lazyPage<typeof pageModule, 'AlarmsPage'>>) =>
    render(
      <Suspense fallback={<p>Loading</p>}>
        <Page title="Open alarms" />
      </Suspense>,
    );

  it('renders a page whose code is loaded at once, with its props, never showing the fallback', async () => {
    const Page = lazyPage(() => Promise.resolve(pageModule), 'AlarmsPage');
    await Page.preload();
    renderInSuspense(Page);
    // Synchronously after the render: a suspension would show the fallback here.
    expect(screen.getByRole('heading', { name: 'Open alarms' })).toBeTruthy();
    expect(screen.queryByText('Loading')).toBeNull();
  });

  it('shows the fallback while the code loads, then the page', async () => {
    let arrive: (module: typeof pageModule) => void = () => undefined;
    const Page = lazyPage(() => new Promise<typeof pageModule>((resolve) => (arrive = resolve)), 'AlarmsPage');
    renderInSuspense(Page);
    expect(screen.getByText('Loading')).toBeTruthy();
    arrive(pageModule);
    expect(await screen.findByRole('heading', { name: 'Open alarms' })).toBeTruthy();
  });

  it('loads the code once however often it is asked for, and again after a failed load', async () => {
    const load = vi
      .fn<() => Promise<typeof pageModule>>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'))
      .mockResolvedValue(pageModule);
    const Page = lazyPage(load, 'AlarmsPage');
    await expect(Page.preload()).rejects.toThrow('Failed to fetch');
    await Promise.all([Page.preload(), Page.preload()]);
    expect(load).toHaveBeenCalledTimes(2);
  });
});
