import http from 'node:http';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { connectAsync, type MqttClient } from 'mqtt';
import { ACCOUNT_PATH, ACCOUNT_COLUMNS_QUERY, SELF_PATH } from '@fieldlink/api/first-calls';
import { deviceUpTopic } from '@fieldlink/api/mqtt-topics';
import type { Benchmark, BenchOptions, BenchTable, StorageDialect } from './benchmark';
import type { StormServerCalls, StormServerReady } from './account-storm-calls';
import { RpcChild } from './child-rpc';
import { formatBytes, formatCount, formatMs } from './format';
import { median, percentile } from './percentile';
import type { ProcessUsage } from './process-meter';
import { SERVER_NODE_OPTIONS } from '@fieldlink/server/testing/node-options';

/**
 * A reconnect storm: after a server restart or a network blip every open console reconnects at once
 * and reads the account tree again (`GET /account?format=columns`, the supplier's admin: 100,000
 * devices). Measured: the server's CPU, the time until the last console has its tree, and what a plain
 * API call of another user and an MQTT frame's PUBACK wait meanwhile.
 */

const SERVER_MODULE = fileURLToPath(new URL('./account-storm-server.ts', import.meta.url));
const CONSOLES = [50, 200];
/** Each storm is run this many times per mode, the modes alternated. */
const ROUNDS = 2;
/** The probes: a plain API call and an MQTT frame every this many ms, each timed to its answer. */
const PROBE_EVERY_MS = 50;
/** Probes timed before each storm, for their quiet figures. */
const QUIET_MS = 1500;
const TREE_URL_PATH = `/api/v1${ACCOUNT_PATH}?format=${ACCOUNT_COLUMNS_QUERY}`;

type Mode = 'download' | 'revalidate';
type Cache = 'restart' | 'blip';

interface Answer {
  status: number;
  ms: number;
  bytes: number;
  etag: string | null;
}

/** One GET on a connection of its own (as each console has its own), body read and counted, not decoded. */
function get(port: number, urlPath: string, headers: Record<string, string>): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port, path: urlPath, headers, agent: false }, (response) => {
      let bytes = 0;
      response.on('data', (chunk: Buffer) => (bytes += chunk.length));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          ms: performance.now() - started,
          bytes,
          etag: (response.headers.etag as string | undefined) ?? null,
        }),
      );
      response.on('error', reject);
    });
    request.on('error', reject);
  });
}

/** Timed probes sent every PROBE_EVERY_MS whether or not the previous one was answered (open loop). */
class Probes {
  readonly api: { at: number; ms: number }[] = [];
  readonly puback: { at: number; ms: number }[] = [];
  private timer: NodeJS.Timeout | null = null;
  private failures = 0;

  constructor(
    private readonly port: number,
    private readonly token: string,
    private readonly mqtt: MqttClient,
    private readonly topic: string,
  ) {}

  start(): void {
    let t = Date.now();
    this.timer = setInterval(() => {
      const at = performance.now();
      get(this.port, `/api/v1${SELF_PATH}`, { authorization: this.token }).then(
        (answer) => (answer.status === 200 ? this.api.push({ at, ms: answer.ms }) : (this.failures += 1)),
        () => (this.failures += 1),
      );
      t = Math.max(t + 1, Date.now());
      this.mqtt.publish(this.topic, `{"v":4,"type":"log","t":${t},"values":{"c1":1}}`, { qos: 1 }, (error) =>
        error ? (this.failures += 1) : this.puback.push({ at, ms: performance.now() - at }),
      );
    }, PROBE_EVERY_MS);
  }

  stop(): number {
    if (this.timer) clearInterval(this.timer);
    return this.failures;
  }
}

interface StormResult {
  consoles: number;
  cache: Cache;
  mode: Mode;
  round: number;
  /** After a restart, the time until the server acknowledged frames promptly again. */
  settleMs: number;
  lastMs: number;
  medianMs: number;
  statuses: Map<number, number>;
  bytes: number;
  usage: ProcessUsage;
  /** Probe latencies sent during the storm (ascending), and before it. */
  api: number[];
  puback: number[];
  apiQuiet: number[];
  pubackQuiet: number[];
}

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const p = (values: readonly number[], q: number) => percentile(values, q);

async function connectProbe(ready: StormServerReady, mqttPort: number): Promise<MqttClient> {
  return connectAsync(`mqtt://127.0.0.1:${mqttPort}`, {
    clientId: ready.device.thingName,
    username: ready.device.thingName,
    password: ready.device.password,
    protocolVersion: 4,
    clean: true,
    reconnectPeriod: 0,
  });
}

/** PUBACKs under this, three in a row, and the restarted server is taken as settled. */
const SETTLED_MS = 250;

/**
 * Waits until the restarted server acknowledges frames promptly again (its start-up work at 100,000
 * devices is not the storm's), up to two minutes; answers how long that took.
 */
async function settle(mqtt: MqttClient, topic: string): Promise<number> {
  const started = performance.now();
  let fast = 0;
  while (fast < 3 && performance.now() - started < 120_000) {
    const sent = performance.now();
    await mqtt.publishAsync(topic, `{"v":4,"type":"log","t":${Date.now()},"values":{"c1":1}}`, { qos: 1 });
    fast = performance.now() - sent < SETTLED_MS ? fast + 1 : 0;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return performance.now() - started;
}

async function storm(
  server: RpcChild<StormServerCalls>,
  ready: StormServerReady,
  ports: { httpPort: number; mqttPort: number },
  mqtt: MqttClient,
  spec: { consoles: number; cache: Cache; mode: Mode; round: number; etag: string | null; settleMs: number },
): Promise<StormResult> {
  const probes = new Probes(ports.httpPort, ready.otherToken, mqtt, deviceUpTopic(ready.device.thingName));
  const headers: Record<string, string> = { authorization: ready.adminToken, 'accept-encoding': 'br, gzip' };
  if (spec.mode === 'revalidate' && spec.etag) headers['if-none-match'] = spec.etag;
  probes.start();
  await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
  await server.call('mark', null, 10_000);
  const stormAt = performance.now();
  const answers = await Promise.all(
    Array.from({ length: spec.consoles }, () => get(ports.httpPort, TREE_URL_PATH, headers)),
  );
  const usage = await server.call('mark', null, 10_000);
  const lastAt = performance.now();
  // The probes sent during the storm are awaited; a little time for the last of them.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const failures = probes.stop();
  if (failures > 0) throw new Error(`${failures} probes failed`);
  await new Promise((resolve) => setTimeout(resolve, 500));
  const during = (entries: { at: number; ms: number }[]) =>
    sorted(entries.filter((entry) => entry.at >= stormAt && entry.at < lastAt).map((entry) => entry.ms));
  const before = (entries: { at: number; ms: number }[]) =>
    sorted(entries.filter((entry) => entry.at < stormAt).map((entry) => entry.ms));
  const statuses = new Map<number, number>();
  for (const answer of answers) statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
  return {
    ...spec,
    lastMs: Math.max(...answers.map((answer) => answer.ms)),
    medianMs: median(answers.map((answer) => answer.ms)),
    statuses,
    bytes: answers.reduce((sum, answer) => sum + answer.bytes, 0),
    usage,
    api: during(probes.api),
    puback: during(probes.puback),
    apiQuiet: before(probes.api),
    pubackQuiet: before(probes.puback),
  };
}

async function runDialect(dialect: StorageDialect, options: BenchOptions) {
  const server = RpcChild.start<StormServerCalls>('server', SERVER_MODULE, [...SERVER_NODE_OPTIONS]);
  try {
    options.log(`  ${dialect}: writing 100,000 devices, starting the app`);
    const ready = await server.call('setup', { dialect, postgresUrl: options.postgresUrl }, 600_000);
    let ports = { httpPort: ready.httpPort, mqttPort: ready.mqttPort };
    let mqtt = await connectProbe(ready, ports.mqttPort);
    const headers = { authorization: ready.adminToken, 'accept-encoding': 'br, gzip' };
    const held = await get(ports.httpPort, TREE_URL_PATH, headers);
    const results: StormResult[] = [];
    for (const consoles of CONSOLES) {
      for (const cache of ['restart', 'blip'] as const) {
        for (let round = 0; round < ROUNDS; round += 1) {
          const modes: Mode[] = round % 2 === 0 ? ['download', 'revalidate'] : ['revalidate', 'download'];
          for (const mode of modes) {
            // The tag of the tree each console holds: the tree as it is when the storm comes (nothing
            // the tree shows changed during the break; a change makes every console download).
            let etag: string | null;
            let settleMs = 0;
            if (cache === 'restart') {
              await mqtt.endAsync();
              ports = await server.call('restart', null, 120_000);
              mqtt = await connectProbe(ready, ports.mqttPort);
              // The probe device's new connection is in the tree: the tag read after it, kept trees untouched.
              settleMs = await settle(mqtt, deviceUpTopic(ready.device.thingName));
              etag = await server.call('treeTag', { token: ready.adminToken }, 120_000);
            } else {
              // A blip: the server kept what it built; one read so nothing is left to build or patch.
              etag = (await get(ports.httpPort, TREE_URL_PATH, headers)).etag;
            }
            const result = await storm(server, ready, ports, mqtt, { consoles, cache, mode, round, etag, settleMs });
            options.log(
              `  ${dialect} ${consoles} consoles, ${cache}, ${mode}: last ${formatMs(result.lastMs)}, ` +
                `server ${result.usage.cpuCores.toFixed(2)} cores, API p99 ${formatMs(p(result.api, 99))}, ` +
                `PUBACK p99 ${formatMs(p(result.puback, 99))}`,
            );
            results.push(result);
          }
        }
      }
    }
    await mqtt.endAsync();
    return { ready, held, results };
  } finally {
    await server.call('shutdown', null, 60_000).catch(() => undefined);
    await server.stop(10_000);
  }
}

const label = (dialect: StorageDialect) => (dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL');

function latency(values: readonly number[]): string {
  if (values.length === 0) return 'none sent';
  return `${formatMs(p(values, 50))} / ${formatMs(p(values, 99))} / ${formatMs(values[values.length - 1]!)} (${values.length})`;
}

function row(dialect: StorageDialect, result: StormResult): string[] {
  const statuses = [...result.statuses]
    .sort(([a], [b]) => a - b)
    .map(([status, count]) => `${formatCount(count)} x ${status}`)
    .join(', ');
  const cpuSeconds = (result.usage.cpuCores * result.usage.wallMs) / 1000;
  return [
    label(dialect),
    formatCount(result.consoles),
    result.cache === 'restart'
      ? `server restarted (nothing built; settled in ${formatMs(result.settleMs)})`
      : 'network blip (tree kept)',
    result.mode === 'download' ? 'downloads (no tag)' : 'revalidates (If-None-Match)',
    statuses,
    formatMs(result.lastMs),
    formatMs(result.medianMs),
    `${result.bytes >= 2 ** 20 ? formatBytes(result.bytes) : `${formatCount(result.bytes)} bytes`}`,
    `${cpuSeconds.toFixed(2)} s (${result.usage.cpuCores.toFixed(2)} cores)`,
    `${latency(result.api)}; quiet p50 ${formatMs(p(result.apiQuiet, 50))}`,
    `${latency(result.puback)}; quiet p50 ${formatMs(p(result.pubackQuiet, 50))}`,
  ];
}

export const accountStormBenchmark: Benchmark = {
  name: 'account-storm',
  title: 'Reconnect storm: every console reads the account tree again at once (100,000 devices)',
  budgetSeconds: (options) => 900 * options.dialects.length,
  async run(options) {
    const loadBefore = os.loadavg()[0]!;
    const rows: string[][] = [];
    const findings: string[] = [];
    for (const dialect of options.dialects) {
      const { ready, held, results } = await runDialect(dialect, options);
      for (const result of results) rows.push(row(dialect, result));
      findings.push(
        `${label(dialect)}: ${ready.storage}; fleet written in ${formatMs(ready.generateMs)}; the tree a console ` +
          `holds: ${formatCount(held.bytes)} bytes over the wire, ${held.etag ? `ETag ${held.etag}` : 'no ETag'}.`,
      );
    }
    findings.push(
      `Load average (1 min) ${loadBefore.toFixed(1)} before the run, ${os.loadavg()[0]!.toFixed(1)} after it, on ` +
        `this machine's ${os.availableParallelism()} cores shared with other work.`,
    );
    const table: BenchTable = {
      columns: [
        'storage',
        'consoles',
        'before the storm',
        'consoles',
        'answers',
        'last console has its tree',
        'median console',
        'sent to the consoles',
        'server CPU during the storm',
        'plain API call (`GET /self`, another user) during the storm: p50 / p99 / max (count)',
        'MQTT frame to PUBACK during the storm: p50 / p99 / max (count)',
      ],
      rows,
    };
    return {
      method: [
        "The device table bench's fleet (100,000 devices under the supplier's root, `generateFleet`) on a fresh " +
          'database; the real app (`buildApp`, its embedded broker) in a process of its own, whose CPU time ' +
          "is measured from the storm's first request to its last answer. N consoles of the supplier's admin " +
          '(one signed-in session; each console its own HTTP connection, `Accept-Encoding: br, gzip`) ask for ' +
          '`GET /account?format=columns` at the same moment, as every open console does after a real-time ' +
          "reconnect (commit f3376a0); the body is counted, not decoded (the server's part is measured). " +
          '"Server restarted": the app is stopped and started again on the same database just before, so the ' +
          'first caller builds the tree; the storm waits until the restarted server acknowledges frames promptly ' +
          `again (three PUBACKs in a row under ${SETTLED_MS} ms: its start-up work is not the storm's). ` +
          '"Network blip": the server kept the tree it built. "Downloads": the ' +
          'consoles ask without a tag (the console before the ETag). "Revalidates": each asks with the ETag ' +
          'of the tree it read before the break (`If-None-Match`). The two modes alternate, each storm run ' +
          `${ROUNDS} times. Meanwhile, from ${formatMs(QUIET_MS)} before the storm until its last answer, ` +
          `another user's \`GET /self\` and an MQTT device's QoS 1 \`log\` frame are sent every ` +
          `${PROBE_EVERY_MS} ms (open loop) and timed to their answer and PUBACK; the storm's figures are of ` +
          'those sent between its first request and its last answer, the quiet p50 of those before it.',
      ],
      tables: [table],
      findings,
    };
  },
};
