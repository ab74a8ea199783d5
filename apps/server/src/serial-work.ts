/**
 * Work run one piece at a time per key, in the order it was given: per device, in the order its
 * frames were committed (the alarm evaluator, the shelf tracker). A failure is reported and does not
 * stop the key's later work.
 */
export class SerialWork {
  private readonly chains = new Map<string, Promise<void>>();

  constructor(private readonly onError: (error: unknown, key: string) => void) {}

  run(key: string, work: () => Promise<void>): void {
    const previous = this.chains.get(key) ?? Promise.resolve();
    const next = previous
      .then(work)
      .catch((error: unknown) => this.onError(error, key))
      .finally(() => {
        if (this.chains.get(key) === next) this.chains.delete(key);
      });
    this.chains.set(key, next);
  }

  /** Waits until no work is under way (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.chains.size > 0) await Promise.all([...this.chains.values()]);
  }
}
