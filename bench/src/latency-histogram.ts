/** Latency percentiles in milliseconds. */
export interface LatencySummary {
  count: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

// 10 µs buckets up to 20 s: fixed memory (8 MB) however long the run, and finer than anything reported.
const BUCKET_MS = 0.01;
const BUCKETS = 2_000_000;

/** A fixed-resolution latency histogram, so recording costs the same at any sample count. */
export class LatencyHistogram {
  private readonly counts = new Uint32Array(BUCKETS);
  private count = 0;
  private maxMs = 0;

  record(ms: number): void {
    const bucket = Math.min(BUCKETS - 1, Math.max(0, Math.floor(ms / BUCKET_MS)));
    this.counts[bucket]! += 1;
    this.count += 1;
    if (ms > this.maxMs) this.maxMs = ms;
  }

  reset(): void {
    this.counts.fill(0);
    this.count = 0;
    this.maxMs = 0;
  }

  summary(): LatencySummary {
    return { count: this.count, p50Ms: this.percentile(0.5), p99Ms: this.percentile(0.99), maxMs: this.maxMs };
  }

  /** Upper edge of the bucket holding the q-th sample: never understates a latency. */
  private percentile(q: number): number {
    if (this.count === 0) return Number.NaN;
    const rank = Math.ceil(q * this.count);
    let seen = 0;
    for (let bucket = 0; bucket < BUCKETS; bucket += 1) {
      seen += this.counts[bucket]!;
      if (seen >= rank) return Math.min((bucket + 1) * BUCKET_MS, this.maxMs);
    }
    return this.maxMs;
  }
}
