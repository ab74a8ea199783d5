import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isChunkLoadError } from './crash/chunk-load-error';
import { SCRIPT_LOAD_TIMEOUT_MS, withScriptLoadTimeout } from './lazy-page';

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
