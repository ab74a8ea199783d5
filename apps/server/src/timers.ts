/**
 * The clock and the timers a part that acts on time runs on (the frame writer's batch delay, the log
 * inbox's move cycle). The product runs on {@link REAL_TIMERS}; a test passes timers it moves by hand
 * (apps/server/testing/manual-timers.ts), so it says "not yet" and "now" without waiting.
 */
export interface Timers {
  /** Milliseconds on a monotonic clock (`performance.now()` in the product). */
  now(): number;
  /** Runs `task` once `ms` have passed on this clock. */
  setTimeout(task: () => void, ms: number): Timer;
}

export interface Timer {
  cancel(): void;
  /** Lets the process end while the timer waits (a no-op where there is no process to keep). */
  unref(): void;
}

export const REAL_TIMERS: Timers = {
  now: () => performance.now(),
  setTimeout(task, ms) {
    const handle = setTimeout(task, ms);
    return { cancel: () => clearTimeout(handle), unref: () => void handle.unref() };
  },
};
