import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { accountStormBenchmark } from './account-storm';
import type { Benchmark, BenchOptions, StorageDialect } from './benchmark';
import { clusterIngestBenchmark } from './cluster-ingest';
import { dashboardBenchmark } from './dashboard';
import { demoModeBenchmark } from './demo-mode';
import { deviceImportBenchmark } from './device-import';
import { deviceLogsBenchmark } from './device-logs';
import { deviceTableBenchmark } from './device-table';
import { ingestBenchmark } from './ingest';
import { inventoryOverviewBenchmark } from './inventory-overview';
import { machineFacts } from './machine';
import { mqttIdleMemoryBenchmark } from './mqtt-idle-memory';
import { pagesBenchmark } from './pages';
import { composeDocument, renderSection, type RunFacts } from './performance-doc';
import { pushLatencyBenchmark } from './push-latency';
import { reportsBenchmark } from './reports';
import { rollingUpgradeBenchmark } from './rolling-upgrade';
import { treeSearchBenchmark } from './tree-search';
import { websocketFanoutBenchmark } from './websocket-fanout';

/**
 * `npm run bench`: runs the benchmarks and rewrites docs/PERFORMANCE.md. New benchmarks join the
 * registry below; each owns one section of the document.
 */

const REGISTRY: Benchmark[] = [
  ingestBenchmark,
  deviceLogsBenchmark,
  treeSearchBenchmark,
  deviceTableBenchmark,
  clusterIngestBenchmark,
  websocketFanoutBenchmark,
  mqttIdleMemoryBenchmark,
  dashboardBenchmark,
  reportsBenchmark,
  inventoryOverviewBenchmark,
  demoModeBenchmark,
  deviceImportBenchmark,
  pushLatencyBenchmark,
  pagesBenchmark,
  rollingUpgradeBenchmark,
  accountStormBenchmark,
];

const DOC_PATH = path.resolve(import.meta.dirname, '../../docs/PERFORMANCE.md');
const DIALECTS: StorageDialect[] = ['sqlite', 'postgres'];
const USAGE = `npm run bench -- [options]
  --only <names>      comma-separated benchmarks (${REGISTRY.map((benchmark) => benchmark.name).join(', ')}); default all
  --seconds <n>       measured window of each stage, seconds (default 20)
  --warmup <n>        warm-up before each window, seconds (default 5)
  --devices <n>       simulated devices (default 200)
  --dialects <list>   sqlite,postgres (default both)
  --cpu-prof <dir>    write V8 CPU profiles of the server processes to <dir>
  --dry-run           print results, leave docs/PERFORMANCE.md alone
PostgreSQL: FIELDLINK_BENCH_DATABASE_URL, else FIELDLINK_TEST_DATABASE_URL, else the local default.`;

function positive(text: string | undefined, fallback: number, name: string): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number, got "${text}"`);
  return value;
}

function parseOptions(argv: string[]): { options: BenchOptions; selected: Benchmark[]; dryRun: boolean } {
  const { values } = parseArgs({
    args: argv,
    options: {
      only: { type: 'string' },
      seconds: { type: 'string' },
      warmup: { type: 'string' },
      devices: { type: 'string' },
      dialects: { type: 'string' },
      'cpu-prof': { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const names = values.only?.split(',').map((name) => name.trim()) ?? REGISTRY.map((benchmark) => benchmark.name);
  const selected = names.map((name) => {
    const benchmark = REGISTRY.find((candidate) => candidate.name === name);
    if (!benchmark) throw new Error(`Unknown benchmark "${name}"\n${USAGE}`);
    return benchmark;
  });
  const dialects = (values.dialects?.split(',').map((name) => name.trim()) ?? DIALECTS).map((name) => {
    if (!DIALECTS.includes(name as StorageDialect)) throw new Error(`Unknown dialect "${name}"`);
    return name as StorageDialect;
  });
  const options: BenchOptions = {
    seconds: positive(values.seconds, 20, 'seconds'),
    warmupSeconds: positive(values.warmup, 5, 'warmup'),
    devices: Math.round(positive(values.devices, 200, 'devices')),
    dialects,
    postgresUrl:
      process.env.FIELDLINK_BENCH_DATABASE_URL ??
      process.env.FIELDLINK_TEST_DATABASE_URL ??
      'postgres://fieldlink:fieldlink@127.0.0.1:5432/fieldlink',
    cpuProfileDir: values['cpu-prof'] ? path.resolve(values['cpu-prof']) : null,
    log: (line) => console.log(line),
  };
  return { options, selected, dryRun: values['dry-run'] };
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const { options, selected, dryRun } = parseOptions(argv);
  // Everything is bounded: the benchmarks' own steps have time limits, and this is the last resort
  // (a benchmark's own budget, else up to nine measured stages per benchmark and dialect, the ingest
  // benchmark's peers included, plus ten minutes for set-up and checks).
  const limitMs =
    (selected.reduce(
      (sum, benchmark) =>
        sum +
        (benchmark.budgetSeconds?.(options) ?? options.dialects.length * 9 * (options.seconds + options.warmupSeconds)),
      0,
    ) +
      600) *
    1000;
  setTimeout(() => {
    console.error(`npm run bench: gave up after ${Math.round(limitMs / 1000)} s`);
    process.exit(1);
  }, limitMs).unref();

  const run: RunFacts = {
    machine: machineFacts(),
    command: ['npm run bench', ...(argv.length > 0 ? ['--', ...argv] : [])].join(' '),
    date: new Date(),
  };
  const fresh = new Map<string, string>();
  let failed = false;
  for (const benchmark of selected) {
    options.log(`${benchmark.title} (${benchmark.name})`);
    const started = performance.now();
    const section = await benchmark.run(options);
    failed ||= section.failed === true;
    fresh.set(benchmark.name, renderSection(benchmark, section, run));
    options.log(`  done in ${Math.round((performance.now() - started) / 1000)} s`);
  }
  if (dryRun) {
    console.log([...fresh.values()].join('\n\n'));
  } else {
    const previous = fs.existsSync(DOC_PATH) ? fs.readFileSync(DOC_PATH, 'utf8') : null;
    fs.writeFileSync(DOC_PATH, composeDocument(previous, REGISTRY, fresh, run));
    options.log(`Wrote ${path.relative(process.cwd(), DOC_PATH)}`);
  }
  process.exitCode = failed ? 1 : 0;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
