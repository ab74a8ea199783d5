import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cancelIdle, whenIdle } from './idle';

describe('whenIdle', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('uses the browser’s idle callbacks where it has them', () => {
    const request = vi.fn(() => 7);
    const cancel = vi.fn();
    vi.stubGlobal('requestIdleCallback', request);
    vi.stubGlobal('cancelIdleCallback', cancel);
    const work = () => undefined;
    expect(whenIdle(work, { timeout: 10_000 })).toBe(7);
    expect(request).toHaveBeenCalledWith(work, { timeout: 10_000 });
    cancelIdle(7);
    expect(cancel).toHaveBeenCalledWith(7);
  });

  describe('without idle callbacks (Safari)', () => {
    beforeEach(() => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
      // happy-dom has none either; a stub left by another test file would hide the case.
      vi.stubGlobal('requestIdleCallback', undefined);
      delete (globalThis as { requestIdleCallback?: unknown }).requestIdleCallback;
    });

    it('runs the work after the current task, with a deadline that runs out', () => {
      const remaining: number[] = [];
      whenIdle((deadline) => {
        remaining.push(deadline.timeRemaining());
        vi.advanceTimersByTime(4);
        remaining.push(deadline.timeRemaining());
        vi.advanceTimersByTime(20);
        remaining.push(deadline.timeRemaining());
      });
      expect(remaining).toEqual([]);
      vi.advanceTimersByTime(1);
      expect(remaining).toEqual([10, 6, 0]);
    });

    it('cancels work not yet run', () => {
      const work = vi.fn();
      cancelIdle(whenIdle(work));
      vi.advanceTimersByTime(100);
      expect(work).not.toHaveBeenCalled();
    });
  });
});
