import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '@fieldlink/server/testing';
import type { BenchTable } from '../benchmark';

/**
 * The InfluxDB 1.x peer of the storage benchmarks: Debian's `influxdb` package, started by the
 * benchmark on loopback with a temporary data directory and configuration, and stopped after. A
 * machine without it skips the peer with a line saying so (`apt-get install influxdb`).
 */

const INFLUXD = process.env.FIELDLINK_BENCH_INFLUXD ?? '/usr/bin/influxd';
const DATABASE = 'fieldlink';
const START_TIMEOUT_MS = 30_000;
/** How long compaction may take to settle after the last write before the bytes are read anyway. */
const COMPACTION_TIMEOUT_MS = 120_000;

export interface InfluxServer {
  /** `InfluxDB v1.6.7` as the binary reports it. */
  readonly version: string;
  /** The write endpoint: line protocol, times in ms, into the benchmark's database. */
  readonly writeUrl: string;
  readonly pid: number | undefined;
  /** Writes lines of line protocol (times in ms) in one request, into `database` (the benchmark's by default). */
  write(lines: string, database?: string): Promise<void>;
  /** Creates one more database beside the benchmark's, so a second series' bytes are measured apart. */
  createDatabase(database: string): Promise<void>;
  /** Runs an InfluxQL query; answers the response body. */
  query(influxql: string): Promise<string>;
  /** Data points stored in the measurement `logs` (every field of every line). */
  countPoints(): Promise<number>;
  /**
   * Waits until the cache is written out and each shard fully compacted (the configuration makes
   * both happen a second after the last write), then answers the bytes of a database's data directory
   * (TSM files and index) and of its WAL (the benchmark's database by default).
   */
  compactedBytes(database?: string): Promise<{ data: number; wal: number; settled: boolean }>;
  stop(): Promise<void>;
}

/** Why the peer cannot run on this machine, or null when it can. */
export function influxMissing(): string | null {
  return fs.existsSync(INFLUXD)
    ? null
    : `InfluxDB skipped: ${INFLUXD} is absent (Debian: \`apt-get install -y influxdb\`; or set FIELDLINK_BENCH_INFLUXD)`;
}

/**
 * Bytes the files under a directory take on disk (allocated blocks, as `du`: InfluxDB's series file
 * is preallocated sparse, 32 MiB that hold nothing), the bytes they hold, and their paths. InfluxDB
 * removes WAL segments and compacted files while it runs: one gone between listing and reading it
 * is left out.
 */
function directoryBytes(dir: string): { bytes: number; content: number; files: string[] } {
  let bytes = 0;
  let content = 0;
  const files: string[] = [];
  const entries = fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }) : [];
  for (const entry of entries) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      const inner = directoryBytes(file);
      bytes += inner.bytes;
      content += inner.content;
      files.push(...inner.files);
    } else if (entry.isFile()) {
      const stat = fs.statSync(file, { throwIfNoEntry: false });
      if (!stat) continue;
      bytes += stat.blocks * 512;
      content += stat.size;
      files.push(file);
    }
  }
  return { bytes, content, files };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts influxd on free loopback ports with a fresh database `fieldlink`. */
export async function startInflux(): Promise<InfluxServer> {
  const missing = influxMissing();
  if (missing) throw new Error(missing);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fieldlink-bench-influx-'));
  const [httpPort, rpcPort] = [await freePort(), await freePort()];
  const config = path.join(dir, 'influxdb.conf');
  fs.writeFileSync(
    config,
    [
      'reporting-disabled = true',
      `bind-address = "127.0.0.1:${rpcPort}"`,
      '[meta]',
      `  dir = "${path.join(dir, 'meta')}"`,
      '  logging-enabled = false',
      '[data]',
      `  dir = "${path.join(dir, 'data')}"`,
      `  wal-dir = "${path.join(dir, 'wal')}"`,
      // Every write is on disk before it is acknowledged, as a committed transaction is.
      '  wal-fsync-delay = "0s"',
      '  query-log-enabled = false',
      // Cold data is written out and fully compacted a second after the last write, so the bytes on
      // disk can be read soon after loading instead of after the default 10 minutes and 4 hours.
      '  cache-snapshot-write-cold-duration = "1s"',
      '  compact-full-write-cold-duration = "1s"',
      '[monitor]',
      '  store-enabled = false',
      '[http]',
      `  bind-address = "127.0.0.1:${httpPort}"`,
      '  log-enabled = false',
      '[logging]',
      '  level = "warn"',
    ].join('\n'),
  );
  const version = spawnSync(INFLUXD, ['version'], { encoding: 'utf8' })
    .stdout.trim()
    .replace(/ \(.*$/, '');
  let output = '';
  const child: ChildProcess = spawn(INFLUXD, ['run', '-config', config], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  child.stderr?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  const base = `http://127.0.0.1:${httpPort}`;
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await Promise.race([exited, sleep(10_000)]);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  const query = async (influxql: string, method: 'GET' | 'POST' = 'GET') => {
    const search = new URLSearchParams({ db: DATABASE, q: influxql, epoch: 'ms' });
    const response = await fetch(`${base}/query?${search}`, { method });
    const body = await response.text();
    if (!response.ok || body.includes('"error"')) throw new Error(`InfluxDB query failed: ${response.status} ${body}`);
    return body;
  };
  try {
    const deadline = Date.now() + START_TIMEOUT_MS;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`influxd exited with ${child.exitCode}: ${output}`);
      const ready = await fetch(`${base}/ping`).then(
        (response) => response.status === 204,
        () => false,
      );
      if (ready) break;
      if (Date.now() > deadline) throw new Error(`influxd did not answer within ${START_TIMEOUT_MS} ms: ${output}`);
      await sleep(100);
    }
    await query(`CREATE DATABASE ${DATABASE}`, 'POST');
  } catch (error) {
    await stop();
    throw error;
  }
  const writeUrl = `${base}/write?db=${DATABASE}&precision=ms`;
  return {
    version,
    writeUrl,
    pid: child.pid,
    async write(lines, database = DATABASE) {
      const url = database === DATABASE ? writeUrl : `${base}/write?db=${database}&precision=ms`;
      const response = await fetch(url, { method: 'POST', body: lines });
      if (response.status !== 204)
        throw new Error(`InfluxDB write failed: ${response.status} ${await response.text()}`);
    },
    query: (influxql) => query(influxql),
    async createDatabase(database) {
      await query(`CREATE DATABASE ${database}`, 'POST');
    },
    async countPoints() {
      const body = JSON.parse(await query('SELECT count(*) FROM logs')) as {
        results: { series?: { values: (number | null)[][] }[] }[];
      };
      // One count per field, after the time column.
      const row = body.results[0]?.series?.[0]?.values[0] ?? [];
      return row.slice(1).reduce<number>((sum, count) => sum + (count ?? 0), 0);
    },
    async compactedBytes(database = DATABASE) {
      const dataDir = path.join(dir, 'data', database);
      const walDir = path.join(dir, 'wal', database);
      const deadline = Date.now() + COMPACTION_TIMEOUT_MS;
      let previous = '';
      let stableSince = Date.now();
      for (;;) {
        const data = directoryBytes(dataDir);
        const wal = directoryBytes(walDir);
        // Settled: the WAL holds no points, no compaction is under way, and nothing changed for 3 s.
        const signature = `${data.bytes}/${data.files.length}/${wal.bytes}`;
        if (signature !== previous) stableSince = Date.now();
        previous = signature;
        const busy = data.files.some((file) => file.endsWith('.tmp'));
        const walEmpty = wal.content === 0;
        const settled = walEmpty && !busy && Date.now() - stableSince >= 3000;
        if (settled || Date.now() > deadline) return { data: data.bytes, wal: wal.bytes, settled };
        await sleep(500);
      }
    },
    stop,
  };
}

/** The year of samples the log benchmark stores, as it describes it to the peer. */
export interface YearOfSamples {
  thingName: string;
  /** First sample, unix ms, and the step between samples. */
  start: number;
  stepMs: number;
  samples: number;
  value: (i: number) => number;
  /** The same shape with values of two decimals (a sensor's), whose bytes per point are measured too. */
  twoDecimalValue?: (i: number) => number;
  binCount: number;
}

/** InfluxDB's bytes on disk per data point of each series, once compacted. */
export interface InfluxBytesPerPoint {
  fullPrecision: number;
  /** Null when the year has no two-decimal series. */
  twoDecimals: number | null;
}

/** The second series' database: InfluxDB keeps a directory per database, so its bytes are its own. */
const TWO_DECIMAL_DATABASE = 'fieldlink_two_decimals';

/** Fieldlink's figures for the same year, per storage. */
export interface FieldlinkYear {
  storage: string;
  /** Year into `binCount` bins through HTTP, p50 ms. */
  httpP50Ms: number;
  /** Bytes on disk per stored data point, roll-ups included. */
  bytesPerPoint: number;
}

/** Lines of line protocol per write request while loading the year (InfluxDB advises 5,000-10,000). */
const LOAD_LINES_PER_REQUEST = 10_000;

/**
 * The same year in InfluxDB: loaded as line protocol, compacted, then asked for in the same number of
 * bins with InfluxQL (`GROUP BY time()`, min, max, mean and last as Fieldlink's bins hold). Answers
 * Fieldlink's figures beside InfluxDB's as a table, or a line saying why the peer did not run.
 */
export async function besideInfluxYear(
  year: YearOfSamples,
  fieldlink: readonly FieldlinkYear[],
  measure: (run: () => Promise<unknown>) => Promise<{ p50: number; p95: number }>,
  log: (line: string) => void,
): Promise<{ table: BenchTable | null; method: string; bytesPerPoint: InfluxBytesPerPoint | null }> {
  const missing = influxMissing();
  if (missing) return { table: null, method: `${missing}.`, bytesPerPoint: null };
  let influx: InfluxServer | null = null;
  try {
    influx = await startInflux();
    const server = influx;
    const load = async (value: (i: number) => number, database?: string) => {
      log(
        `  ${server.version}: writing ${year.samples.toLocaleString('en-US')} samples${database ? ` into ${database}` : ''}`,
      );
      for (let from = 0; from < year.samples; from += LOAD_LINES_PER_REQUEST) {
        let lines = '';
        for (let i = from; i < Math.min(year.samples, from + LOAD_LINES_PER_REQUEST); i += 1) {
          lines += `logs,device=${year.thingName} c1=${value(i)} ${year.start + i * year.stepMs}\n`;
        }
        await server.write(lines, database);
      }
    };
    await load(year.value);
    const bytes = await influx.compactedBytes();
    let twoDecimals: { data: number; wal: number; settled: boolean } | null = null;
    if (year.twoDecimalValue) {
      await influx.createDatabase(TWO_DECIMAL_DATABASE);
      await load(year.twoDecimalValue, TWO_DECIMAL_DATABASE);
      twoDecimals = await influx.compactedBytes(TWO_DECIMAL_DATABASE);
    }
    const end = year.start + year.samples * year.stepMs;
    // Buckets lie on multiples of their width since the epoch: one fewer keeps the window within binCount.
    const width = Math.ceil((end - year.start) / (year.binCount - 1));
    const influxql =
      `SELECT min(c1), max(c1), mean(c1), last(c1) FROM logs WHERE device = '${year.thingName}' ` +
      `AND time >= ${year.start}ms AND time < ${end}ms GROUP BY time(${width}ms)`;
    const answer = JSON.parse(await influx.query(influxql)) as { results: { series?: { values: unknown[][] }[] }[] };
    const bins = answer.results[0]?.series?.[0]?.values.length ?? 0;
    const timing = await measure(() => influx!.query(influxql));
    const perPoint = (bytes.data + bytes.wal) / year.samples;
    log(
      `  ${influx.version}: year into ${bins} bins p50 ${timing.p50.toFixed(1)} ms; ${perPoint.toFixed(2)} bytes per point`,
    );
    const ratio = (a: number, b: number) => (b > 0 ? (a / b).toFixed(2) : '–');
    const ms = (value: number) => `${value < 10 ? value.toFixed(1) : Math.round(value)} ms`;
    const settled = bytes.settled && (twoDecimals?.settled ?? true);
    return {
      bytesPerPoint: {
        fullPrecision: perPoint,
        twoDecimals: twoDecimals && (twoDecimals.data + twoDecimals.wal) / year.samples,
      },
      table: {
        caption: `Beside ${influx.version}: the same year of 1-minute samples of one channel into ${year.binCount} bins, and bytes on disk per data point`,
        columns: [
          'Store',
          'year into bins, HTTP p50',
          'Fieldlink / InfluxDB',
          'bytes per point (Fieldlink: as rows)',
          'Fieldlink / InfluxDB',
        ],
        rows: [
          ...fieldlink.map((figures) => [
            `Fieldlink, ${figures.storage}`,
            ms(figures.httpP50Ms),
            ratio(figures.httpP50Ms, timing.p50),
            figures.bytesPerPoint.toFixed(1),
            ratio(figures.bytesPerPoint, perPoint),
          ]),
          [`${influx.version} (${bins} bins)`, ms(timing.p50), '1.00', perPoint.toFixed(2), '1.00'],
        ],
      },
      method:
        `Beside Fieldlink, ${influx.version} (Debian's package) is started on loopback with a temporary data directory ` +
        'and configuration: the same year of the same channel is written as line protocol (measurement `logs`, the ' +
        `device as a tag, ${LOAD_LINES_PER_REQUEST.toLocaleString('en-US')} lines per request), left to compact ` +
        `(cache written out and shards fully compacted a second after the last write${settled ? '' : '; compaction had not settled within two minutes, so the bytes are an upper bound'}), ` +
        `and asked for as \`SELECT min, max, mean, last ... GROUP BY time(${width}ms)\` over HTTP (a real loopback ` +
        "connection, where Fieldlink's HTTP figure is `app.inject` without one). Bytes per point: its data and WAL " +
        'directories for the database as allocated on disk (`du`), over the points written; Fieldlink: the pages of ' +
        'the log with its key and of the roll-ups.' +
        (twoDecimals
          ? ` The same year with two-decimal values is written into a second database (\`${TWO_DECIMAL_DATABASE}\`) ` +
            'and its directories measured alike.'
          : ''),
    };
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
    log(`  InfluxDB: ${message}`);
    return { table: null, method: `InfluxDB did not run: ${message}.`, bytesPerPoint: null };
  } finally {
    await influx?.stop();
  }
}
