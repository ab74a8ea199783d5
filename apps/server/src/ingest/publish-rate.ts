/**
 * Frames per device in fixed 10 s windows (the protocol's limit is averaged over 10 s). The embedded
 * broker closes a device over the limit; behind an external broker, which cannot be asked to, the
 * frames over it are dropped and counted.
 */
export class PublishRate {
  private readonly windows = new Map<string, { start: number; count: number }>();
  private readonly maxPerWindow: number;

  constructor(
    maxFramesPerSecond: number,
    private readonly windowMs = 10_000,
    private readonly now: () => number = Date.now,
  ) {
    this.maxPerWindow = maxFramesPerSecond * (windowMs / 1000);
  }

  /** Counts one frame; true when the device is over its limit. */
  isOver(thingName: string): boolean {
    const now = this.now();
    const window = this.windows.get(thingName);
    if (!window || now - window.start >= this.windowMs) {
      this.windows.set(thingName, { start: now, count: 1 });
      if (this.windows.size > 200_000) this.sweep(now);
      return false;
    }
    window.count += 1;
    return window.count > this.maxPerWindow;
  }

  forget(thingName: string): void {
    this.windows.delete(thingName);
  }

  private sweep(now: number): void {
    for (const [key, window] of this.windows) if (now - window.start >= this.windowMs) this.windows.delete(key);
  }
}
