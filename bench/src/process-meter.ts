/** What one process used between two marks. */
export interface ProcessUsage {
  /** Highest resident set size seen by the 100 ms sampler, in bytes. */
  peakRssBytes: number;
  /** Highest RSS sampled since the meter started or was last reset with `resetOverall`. */
  overallPeakRssBytes: number;
  /** CPU time (user + system, all threads) as a share of one core: 1.0 = one core busy throughout. */
  cpuCores: number;
  wallMs: number;
}

const SAMPLE_INTERVAL_MS = 100;

/**
 * Samples this process's RSS every 100 ms and measures its CPU time between marks. Sampling (rather
 * than the kernel's lifetime high-water mark) lets each stage report its own peak.
 */
export class ProcessMeter {
  private peakRss = process.memoryUsage.rss();
  private overallPeakRss = this.peakRss;
  private cpu = process.cpuUsage();
  private started = performance.now();
  private readonly timer: NodeJS.Timeout;

  constructor() {
    this.timer = setInterval(() => this.sample(), SAMPLE_INTERVAL_MS);
    this.timer.unref();
  }

  /** Usage since the previous mark (or since start); begins a new period. */
  mark(): ProcessUsage {
    this.sample();
    const cpu = process.cpuUsage(this.cpu);
    const now = performance.now();
    const wallMs = now - this.started;
    const usage = {
      peakRssBytes: this.peakRss,
      overallPeakRssBytes: this.overallPeakRss,
      cpuCores: (cpu.user + cpu.system) / 1000 / wallMs,
      wallMs,
    };
    this.cpu = process.cpuUsage();
    this.started = now;
    this.peakRss = process.memoryUsage.rss();
    return usage;
  }

  /** Starts the overall peak afresh, e.g. once set-up work that is not being measured is done. */
  resetOverall(): void {
    this.overallPeakRss = process.memoryUsage.rss();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private sample(): void {
    const rss = process.memoryUsage.rss();
    if (rss > this.peakRss) this.peakRss = rss;
    if (rss > this.overallPeakRss) this.overallPeakRss = rss;
  }
}
