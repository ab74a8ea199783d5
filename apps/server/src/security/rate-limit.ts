/**
 * Fixed-window attempt counters kept in memory, per key (an e-mail or an address). One instance's
 * view: with several instances each enforces its own limit (docs/decisions.md).
 */
export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** True when the key has used up its attempts in the current window. */
  isLimited(key: string): boolean {
    const window = this.current(key);
    return window !== undefined && window.count >= this.limit;
  }

  /**
   * Counts one attempt unless the key has used up its attempts, in one step: callers reserve before
   * the costly work, so however many arrive at once, at most the limit get through.
   */
  reserve(key: string): boolean {
    if (this.isLimited(key)) return false;
    this.hit(key);
    return true;
  }

  /** Gives back one reserved attempt (the attempt was not made, or does not count). */
  release(key: string): void {
    const window = this.current(key);
    if (window && window.count > 0) window.count -= 1;
  }

  /** Counts one attempt. */
  hit(key: string): void {
    const window = this.current(key);
    if (window) window.count += 1;
    else this.windows.set(key, { start: this.now(), count: 1 });
    if (this.windows.size > 100_000) this.sweep();
  }

  /** Seconds until the key's window ends. */
  retryAfterSeconds(key: string): number {
    const window = this.current(key);
    return window ? Math.ceil((window.start + this.windowMs - this.now()) / 1000) : 0;
  }

  reset(key: string): void {
    this.windows.delete(key);
  }

  private current(key: string) {
    const window = this.windows.get(key);
    if (window && this.now() - window.start >= this.windowMs) {
      this.windows.delete(key);
      return undefined;
    }
    return window;
  }

  private sweep(): void {
    for (const key of this.windows.keys()) this.current(key);
  }
}
