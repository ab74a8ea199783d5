/**
 * A connection's budget of messages (a token bucket): `ratePerSecond` on average, `burst` at once.
 * Each message takes one; `take` answers how long the connection should not be read for its balance
 * to come back to zero (0 while within the budget).
 */
export class ReadBudget {
  private tokens: number;
  private updatedAt: number;

  constructor(
    private readonly ratePerSecond: number,
    private readonly burst: number,
    private readonly now: () => number = Date.now,
  ) {
    this.tokens = burst;
    this.updatedAt = now();
  }

  /** Takes one message; the milliseconds to stop reading, or 0. */
  take(): number {
    this.refill();
    this.tokens -= 1;
    return this.deficitMs();
  }

  /** The milliseconds until the messages taken so far are within the budget again, or 0. */
  waitMs(): number {
    this.refill();
    return this.deficitMs();
  }

  private refill(): void {
    const now = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.updatedAt) / 1000) * this.ratePerSecond);
    this.updatedAt = now;
  }

  private deficitMs(): number {
    return this.tokens >= 0 ? 0 : Math.ceil((-this.tokens / this.ratePerSecond) * 1000);
  }
}
