import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '@fieldlink/server/testing';
import type { Benchmark, BenchTable } from './benchmark';
import {
  SteadyLoad,
  TimedSocket,
  WATCHER,
  connectDevices,
  processUsage,
  provision,
  signIn,
  sleep,
  startInstance,
} from './cluster-support';
import { formatBytes, formatCount, formatMs } from './format';
import { LatencyHistogram } from './latency-histogram';

/**
 * One server process pushing live values to browser sockets: 100 devices publish 12 frames a second
 * each over the embedded broker, and every device is watched by the same number of sockets. The first
 * stage opens 5,000 sockets (60,000 updates a second), the second 5,000 more (120,000, issue 41 item
 * 4). Each socket times each value against the sample time the device stamped.
 */

const DEVICES = 100;
const FRAMES_PER_DEVICE_PER_SECOND = 12;
const OPEN_CONCURRENCY = 50;

interface FanoutStage {
  sockets: number;
  /** The p99 goal, sample time to the socket, in milliseconds. */
  goalMs: number;
}

const STAGES: readonly FanoutStage[] = [
  { sockets: 5000, goalMs: 150 },
  { sockets: 10000, goalMs: 100 },
];

export const websocketFanoutBenchmark: Benchmark = {
  name: 'websocket-fanout',
  title: 'Real-time fan-out: 5,000 and 10,000 browser sockets, 60,000 and 120,000 updates a second',
  async run(options) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fieldlink-fanout-'));
    const mqttPort = await freePort();
    options.log(`  starting the server (SQLite in ${dir}), provisioning ${DEVICES} devices`);
    const profile = options.cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfileDir}`] : [];
    const server = await startInstance(
      { DATABASE_URL: path.join(dir, 'fieldlink.db'), MQTT_PORT: String(mqttPort) },
      profile,
    );
    const sockets: TimedSocket[] = [];
    try {
      const devices = await provision(server, DEVICES, 'Fan-out device');
      const clients = await connectDevices(`mqtt://127.0.0.1:${mqttPort}`, devices);
      const token = await signIn(server, WATCHER);
      const latency = new LatencyHistogram();
      const rows: string[][] = [];
      const opened: string[] = [];
      const findings: string[] = [];
      for (const stage of STAGES) {
        options.log(`  opening sockets up to ${stage.sockets}`);
        const opening = performance.now();
        let next = sockets.length;
        await Promise.all(
          Array.from({ length: OPEN_CONCURRENCY }, async () => {
            for (let i = next++; i < stage.sockets; i = next++) {
              const socket = await TimedSocket.open(server, token, latency);
              await socket.subscribe([devices[i % DEVICES]!.thingName]);
              sockets.push(socket);
            }
          }),
        );
        opened.push(`${formatCount(stage.sockets)} in ${formatMs(performance.now() - opening)}`);
        const idle = processUsage(server.pid);

        const load = SteadyLoad.of(clients, devices, 1);
        load.start(DEVICES * FRAMES_PER_DEVICE_PER_SECOND);
        await sleep(options.warmupSeconds * 1000);
        latency.reset();
        for (const socket of sockets) socket.received = 0;
        const cpuBefore = processUsage(server.pid).cpuSeconds;
        const ownCpuBefore = process.cpuUsage();
        let peakRss = 0;
        const sampler = setInterval(() => (peakRss = Math.max(peakRss, processUsage(server.pid).rssBytes)), 200);
        const started = performance.now();
        await sleep(options.seconds * 1000);
        const elapsed = (performance.now() - started) / 1000;
        clearInterval(sampler);
        const serverCpu = (processUsage(server.pid).cpuSeconds - cpuBefore) / elapsed;
        const ownCpu = process.cpuUsage(ownCpuBefore);
        const clientCpu = (ownCpu.user + ownCpu.system) / 1e6 / elapsed;
        load.stop();

        const received = sockets.reduce((sum, socket) => sum + socket.received, 0);
        const summary = latency.summary();
        const quiet = sockets.filter((socket) => socket.received === 0).length;
        const offered = DEVICES * FRAMES_PER_DEVICE_PER_SECOND * (stage.sockets / DEVICES);
        rows.push([
          formatCount(stage.sockets),
          formatCount(offered),
          `**${formatCount(received / elapsed)}**`,
          formatMs(summary.p50Ms),
          formatMs(summary.p99Ms),
          formatMs(summary.maxMs),
          formatCount(quiet),
          serverCpu.toFixed(2),
          clientCpu.toFixed(2),
          `${formatBytes(idle.rssBytes)} / ${formatBytes(peakRss)}`,
          `p99 under ${stage.goalMs} ms (${summary.p99Ms < stage.goalMs ? 'met' : `**not met**: ${formatMs(summary.p99Ms)}`})`,
        ]);
        findings.push(
          `${formatCount(stage.sockets)} sockets: the benchmark process (the sockets reading ` +
            `${formatCount(received / elapsed)} messages a second, and the devices) used ${clientCpu.toFixed(2)} cores, ` +
            `the server ${serverCpu.toFixed(2)}: on two shared cores a busy client adds its own queueing to the latency.`,
        );
      }
      const table: BenchTable = {
        caption: 'Updates delivered to browser sockets by one process',
        columns: [
          'Sockets',
          'Offered updates/s',
          'Delivered updates/s',
          'p50',
          'p99',
          'max',
          'Sockets that got nothing',
          'Server CPU cores',
          'Benchmark process CPU cores',
          'Server RSS idle / peak',
          'Goal',
        ],
        rows,
      };
      return {
        method: [
          `One server process (\`node apps/server/src/main.ts\`, embedded broker, SQLite file). ${DEVICES} devices ` +
            `publish a one-value \`log\` frame ${FRAMES_PER_DEVICE_PER_SECOND} times a second each at QoS 1; real-time ` +
            'sockets of viewer@fieldlink.test each subscribe to one device, spread evenly, so every frame goes to ' +
            `sockets / ${DEVICES} of them. The first stage opens ${formatCount(STAGES[0]!.sockets)} sockets, the second ` +
            `opens more up to ${formatCount(STAGES[1]!.sockets)} (opened ${OPEN_CONCURRENCY} at a time: ${opened.join(', ')}). ` +
            'The sockets and the devices run in the benchmark process, on the same 2 cores as the server. Latency is ' +
            'from the sample time the device stamped when publishing to the moment the socket received the value ' +
            '(frame stored first).',
          `Each stage: warm-up ${options.warmupSeconds} s, measured ${options.seconds} s.`,
        ],
        tables: [table],
        findings,
      };
    } finally {
      for (const socket of sockets) socket.socket.terminate();
      await server.kill('SIGTERM');
      fs.rmSync(dir, { recursive: true, force: true });
    }
  },
};
