/** What every benchmark of `npm run bench` is given and gives back. */

export type StorageDialect = 'sqlite' | 'postgres';

export interface BenchOptions {
  /** Length of each measured window, in seconds. */
  seconds: number;
  /** Warm-up before each measured window, in seconds. */
  warmupSeconds: number;
  /** Simulated devices, each with its own MQTT connection. */
  devices: number;
  dialects: StorageDialect[];
  /** PostgreSQL server on which each run creates (and drops) a fresh database. */
  postgresUrl: string;
  /** When set, server processes write V8 CPU profiles here (`--cpu-prof`). */
  cpuProfileDir: string | null;
  log: (line: string) => void;
}

export interface BenchTable {
  caption?: string;
  columns: string[];
  rows: string[][];
}

/** One section of docs/PERFORMANCE.md. */
export interface BenchSection {
  /** Paragraphs above the tables: what is measured and how. */
  method: string[];
  tables: BenchTable[];
  /** Paragraphs below the tables: findings. */
  findings: string[];
  /** True when part of the benchmark could not run; the runner then exits non-zero. */
  failed?: boolean;
}

export interface Benchmark {
  /** Short name for `--only`, and the section's marker in the doc. */
  name: string;
  title: string;
  /**
   * Seconds the benchmark may take at most, for one counted in events rather than measured in
   * windows; without it, nine windows (with warm-up) per dialect.
   */
  budgetSeconds?: (options: BenchOptions) => number;
  run(options: BenchOptions): Promise<BenchSection>;
}
