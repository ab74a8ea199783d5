/**
 * How long work may run in one stand-in idle period: a frame's share, so a page that has no idle
 * callbacks still draws between the pieces of the work.
 */
const STAND_IN_IDLE_MS = 10;

const hasIdleCallbacks = () => 'requestIdleCallback' in globalThis;

/**
 * Runs `work` when the main thread is next idle: the browser's `requestIdleCallback`, or where it has
 * none (Safari, iOS included) a timer after the current task, whose deadline allows a piece of work a
 * frame's share of time. Cancel with {@link cancelIdle}.
 */
export function whenIdle(work: IdleRequestCallback, options?: IdleRequestOptions): number {
  if (hasIdleCallbacks()) return requestIdleCallback(work, options);
  // A number in the browser; `Number` reads Node.js's timer (tests) as the id `clearTimeout` takes.
  return Number(
    setTimeout(() => {
      const start = performance.now();
      work({ didTimeout: false, timeRemaining: () => Math.max(0, STAND_IN_IDLE_MS - (performance.now() - start)) });
    }, 1),
  );
}

/** Cancels work scheduled by {@link whenIdle}. */
export function cancelIdle(handle: number): void {
  if (hasIdleCallbacks()) cancelIdleCallback(handle);
  else clearTimeout(handle);
}
