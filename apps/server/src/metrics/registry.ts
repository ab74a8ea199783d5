/**
 * A small Prometheus registry (text exposition format 0.0.4). Written here rather than taken from
 * prom-client: Fieldlink needs counters, gauges and histograms, most read at scrape time from
 * counters the server keeps anyway, and nothing else.
 */

export type Labels = Record<string, string>;
/** A sample: a value, or labelled values. */
export type Sample = number | { labels: Labels; value: number }[];
type Collect = () => Sample | null | Promise<Sample | null>;

interface Family {
  name: string;
  help: string;
  type: 'counter' | 'gauge' | 'histogram';
  render(): Promise<string[]>;
}

function escapeLabel(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

function labelText(labels: Labels): string {
  const entries = Object.entries(labels);
  if (entries.length === 0) return '';
  return `{${entries.map(([key, value]) => `${key}="${escapeLabel(value)}"`).join(',')}}`;
}

function number(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  return String(value);
}

/** Latency buckets in seconds, from 1 ms to 10 s. */
export const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export class Histogram {
  private readonly series = new Map<string, { labels: Labels; counts: number[]; sum: number; count: number }>();

  constructor(private readonly buckets: readonly number[]) {}

  observe(value: number, labels: Labels = {}): void {
    const key = labelText(labels);
    let entry = this.series.get(key);
    if (!entry) {
      entry = { labels, counts: this.buckets.map(() => 0), sum: 0, count: 0 };
      this.series.set(key, entry);
    }
    for (let i = 0; i < this.buckets.length; i += 1) if (value <= this.buckets[i]!) entry.counts[i]! += 1;
    entry.sum += value;
    entry.count += 1;
  }

  lines(name: string): string[] {
    const lines: string[] = [];
    // Before the first observation: zeros, so dashboards and alerts see the series from the start.
    const series =
      this.series.size > 0
        ? this.series.values()
        : [{ labels: {}, counts: this.buckets.map(() => 0), sum: 0, count: 0 }];
    for (const entry of series) {
      this.buckets.forEach((bound, i) => {
        lines.push(`${name}_bucket${labelText({ ...entry.labels, le: number(bound) })} ${entry.counts[i]}`);
      });
      lines.push(`${name}_bucket${labelText({ ...entry.labels, le: '+Inf' })} ${entry.count}`);
      lines.push(`${name}_sum${labelText(entry.labels)} ${entry.sum}`);
      lines.push(`${name}_count${labelText(entry.labels)} ${entry.count}`);
    }
    return lines;
  }
}

export class MetricsRegistry {
  private readonly families: Family[] = [];

  /** A counter or gauge whose value is read when scraped; `null` leaves it out of that scrape. */
  collect(type: 'counter' | 'gauge', name: string, help: string, collect: Collect): void {
    this.families.push({
      name,
      help,
      type,
      render: async () => {
        const sample = await collect();
        if (sample === null) return [];
        if (typeof sample === 'number') return [`${name} ${number(sample)}`];
        return sample.map(({ labels, value }) => `${name}${labelText(labels)} ${number(value)}`);
      },
    });
  }

  histogram(name: string, help: string, buckets: readonly number[] = LATENCY_BUCKETS): Histogram {
    const histogram = new Histogram(buckets);
    this.families.push({ name, help, type: 'histogram', render: async () => histogram.lines(name) });
    return histogram;
  }

  /** Every family in the text format; a collector that fails is left out rather than failing the scrape. */
  async render(): Promise<string> {
    const out: string[] = [];
    for (const family of this.families) {
      let lines: string[];
      try {
        lines = await family.render();
      } catch {
        continue;
      }
      if (lines.length === 0) continue;
      out.push(`# HELP ${family.name} ${family.help.replace(/\\/g, '\\\\').replace(/\n/g, '\\n')}`);
      out.push(`# TYPE ${family.name} ${family.type}`);
      out.push(...lines);
    }
    return `${out.join('\n')}\n`;
  }
}
