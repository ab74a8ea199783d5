import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { connectAsync } from 'mqtt';
import { deviceUpTopic } from '@fieldlink/api/mqtt-topics';
import { buildApp, inboxRows, loadConfig, migrate, openStorage, seedDemo } from '@fieldlink/server/testing';
import { missingServerNodeOptions } from '@fieldlink/server/testing/node-options';
import type { DeviceCredentials } from './ingest-calls';
import { provisionDevices } from './provision-devices';

/**
 * CPU time of the server per data point stored, for a fixed workload, by thread: a number the load of
 * a shared machine distorts far less than throughput (docs/PERFORMANCE.md, "Server CPU per data
 * point"). The real app (buildApp on a fresh SQLite file, its broker, frame parsing, the frame
 * writer, the SQLite writer thread, the inbox and its move into `logs` and the roll-ups, PUBACKs)
 * takes `--frames` log frames of ten channels per device from `--devices` MQTT clients in a child
 * process, each keeping `--in-flight` frames unacknowledged. The window runs from the first publish
 * until every frame is acknowledged and the inbox is empty (its move is part of the work), and each
 * server thread's CPU time in it comes from /proc (Linux), so the load generator is not counted; so do
 * the bytes the server handed to write calls (the database, its WAL and journals, the sockets): a
 * figure the machine's load does not move.
 *
 * The server runs in this process: give it the server's Node.js options (apps/server/src/node-options.ts),
 * as `npm start` does; the first line says whether they were given.
 *
 *   node --no-allocation-site-pretenuring --import tsx bench/src/ingest-cpu.ts --devices 200 --frames 250 \
 *     --in-flight 4 [--rounds 3]
 */

const POINTS_PER_FRAME = 10;
const CODES = Array.from({ length: POINTS_PER_FRAME }, (_, i) => `c${i + 1}`);
const DEMO_PASSWORD = 'bench-demo-password';
/** /proc's utime and stime are in clock ticks: USER_HZ, 100 on Linux. */
const TICKS_PER_SECOND = 100;

interface LoadRequest {
  brokerUrl: string;
  devices: DeviceCredentials[];
  frames: number;
  inFlight: number;
  /** Sample times of this round start here (ms), one ms per frame. */
  t0: number;
}

/** The child: sends the frames and answers when every one is acknowledged. */
async function runLoad(): Promise<void> {
  const connected = new Map<string, Awaited<ReturnType<typeof connectAsync>>>();
  process.on(
    'message',
    async (message: { type: 'connect'; request: LoadRequest } | { type: 'go'; request: LoadRequest }) => {
      const { request } = message;
      if (message.type === 'connect') {
        for (const device of request.devices) {
          if (connected.has(device.thingName)) continue;
          const client = await connectAsync(request.brokerUrl, {
            clientId: device.thingName,
            username: device.thingName,
            password: device.password,
            protocolVersion: 4,
            clean: true,
            reconnectPeriod: 0,
          });
          connected.set(device.thingName, client);
        }
        process.send!({ type: 'connected' });
        return;
      }
      let pending = request.devices.length;
      for (const [index, device] of request.devices.entries()) {
        const client = connected.get(device.thingName)!;
        const topic = deviceUpTopic(device.thingName);
        let sent = 0;
        let acked = 0;
        const send = (): void => {
          const t = request.t0 + sent;
          sent += 1;
          let fields = '';
          for (let c = 0; c < CODES.length; c += 1)
            fields += `${c ? ',' : ''}"${CODES[c]}":${(20 + ((sent * 7 + c + index) % 97) / 4).toFixed(2)}`;
          client.publish(topic, `{"v":4,"type":"log","t":${t},"values":{${fields}}}`, { qos: 1 }, (error) => {
            if (error) throw error;
            acked += 1;
            if (sent < request.frames) send();
            else if (acked === request.frames && --pending === 0) process.send!({ type: 'done' });
          });
        };
        for (let i = 0; i < Math.min(request.inFlight, request.frames); i += 1) send();
      }
    },
  );
  process.send!({ type: 'ready' });
}

/**
 * CPU time of each thread of this process, in ns, by thread id (schedstat: time on a CPU), and its minor
 * page faults (stat's tenth field: where a first touch of memory is slow, each costs tens of µs).
 */
function threadCpu(): Map<number, { name: string; ns: number; faults: number; systemTicks: number }> {
  const threads = new Map<number, { name: string; ns: number; faults: number; systemTicks: number }>();
  for (const tid of fs.readdirSync('/proc/self/task')) {
    try {
      const ns = Number(fs.readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
      const name = fs.readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim();
      const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      // The fields after the name (in parentheses, which may hold spaces) start at the third.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const faults = Number(fields[10 - 3]);
      const systemTicks = Number(fields[15 - 3]);
      threads.set(Number(tid), { name, ns, faults, systemTicks });
    } catch {
      // The thread ended meanwhile.
    }
  }
  return threads;
}

/** Bytes this process handed to write calls and how many calls (Linux: /proc/self/io's wchar and syscw). */
function written(): { bytes: number; calls: number } {
  const io = fs.readFileSync('/proc/self/io', 'utf8');
  const field = (name: string) => Number(new RegExp(`^${name}: (\\d+)$`, 'm').exec(io)?.[1] ?? NaN);
  return { bytes: field('wchar'), calls: field('syscw') };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      devices: { type: 'string', default: '200' },
      frames: { type: 'string', default: '250' },
      'in-flight': { type: 'string', default: '4' },
      rounds: { type: 'string', default: '3' },
    },
  });
  const deviceCount = Number(values.devices);
  const frames = Number(values.frames);
  const inFlight = Number(values['in-flight']);
  const rounds = Number(values.rounds);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fieldlink-ingest-cpu-'));
  const config = loadConfig({
    DATABASE_URL: `sqlite://${path.join(dir, 'ingest.db')}`,
    WEB_DIST: '/nonexistent',
    FIELDLINK_LOG_MAINTENANCE_MINUTES: '0',
  });
  const storage = openStorage(config.databaseUrl);
  await migrate(storage.db);
  await seedDemo(storage.db, DEMO_PASSWORD);
  const app = await buildApp({ config, storage, mqttPort: 0 });
  await app.ready();
  const devices = await provisionDevices(app, deviceCount, DEMO_PASSWORD, 'CPU bench device');
  const child = fork(fileURLToPath(import.meta.url), ['--load-child'], { execArgv: ['--import', 'tsx'] });
  const next = (type: string) =>
    new Promise<void>((resolve) => {
      const onMessage = (message: { type: string }) => {
        if (message.type !== type) return;
        child.off('message', onMessage);
        resolve();
      };
      child.on('message', onMessage);
    });
  await next('ready');
  const request: LoadRequest = { brokerUrl: `mqtt://127.0.0.1:${app.broker!.port}`, devices, frames, inFlight, t0: 0 };
  child.send({ type: 'connect', request });
  await next('connected');
  const mainTid = process.pid;
  const missing = missingServerNodeOptions();
  console.log(
    `devices ${deviceCount}, frames per device ${frames}, in flight ${inFlight}, load ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}; ` +
      (missing.length > 0
        ? `without the server's Node.js options ${missing.join(' ')}`
        : `with the server's Node.js options`),
  );
  for (let round = 0; round < rounds; round += 1) {
    const points0 = app.ingest.counters.dataPoints;
    const before = threadCpu();
    const writtenBefore = written();
    const started = performance.now();
    const startedUs = process.hrtime.bigint() / 1000n;
    child.send({ type: 'go', request: { ...request, t0: Date.now() - 3_600_000 + round * 200_000 } });
    await next('done');
    const acked = performance.now();
    while ((await inboxRows(storage.db)) > 0) await new Promise((resolve) => setTimeout(resolve, 250));
    const after = threadCpu();
    const writtenAfter = written();
    const endedUs = process.hrtime.bigint() / 1000n;
    const points = app.ingest.counters.dataPoints - points0;
    const byThread = [...after]
      .map(([tid, { name, ns, faults, systemTicks }]) => ({
        tid,
        name,
        us: (ns - (before.get(tid)?.ns ?? 0)) / 1000,
        faults: faults - (before.get(tid)?.faults ?? 0),
        systemUs: ((systemTicks - (before.get(tid)?.systemTicks ?? 0)) * 1e6) / TICKS_PER_SECOND,
      }))
      .filter((thread) => thread.us > 0)
      .sort((a, b) => b.us - a.us);
    const main = byThread.find((thread) => thread.tid === mainTid)!;
    const others = byThread.filter((thread) => thread.tid !== mainTid);
    // The writer thread is the busiest after the main one (a worker thread is named as the process).
    const writer = others[0]!;
    const total = byThread.reduce((sum, thread) => sum + thread.us, 0);
    const faults = byThread.reduce((sum, thread) => sum + thread.faults, 0);
    const systemUs = byThread.reduce((sum, thread) => sum + thread.systemUs, 0);
    const perPoint = (us: number) => (us / points).toFixed(2);
    const faultsPerPoint = (count: number) => (count / points).toFixed(4);
    console.log(
      `round ${round + 1}: ${points} dp, acked in ${((acked - started) / 1000).toFixed(1)} s; CPU µs/dp: ` +
        `total ${perPoint(total)}, main ${perPoint(main.us)}, writer ${perPoint(writer.us)} (${writer.name}), ` +
        `rest ${perPoint(total - main.us - writer.us)}; written per dp ` +
        `${((writtenAfter.bytes - writtenBefore.bytes) / points).toFixed(0)} B in ` +
        `${((writtenAfter.calls - writtenBefore.calls) / points).toFixed(3)} calls; load ${os.loadavg()[0]!.toFixed(1)}`,
    );
    console.log(
      `  minor page faults per dp: total ${faultsPerPoint(faults)}, main ${faultsPerPoint(main.faults)}, ` +
        `writer ${faultsPerPoint(writer.faults)}, rest ${faultsPerPoint(faults - main.faults - writer.faults)}; ` +
        `kernel CPU µs/dp: total ${perPoint(systemUs)}, main ${perPoint(main.systemUs)}, writer ${perPoint(writer.systemUs)}`,
    );
    // The rest by thread, and the window in the clock of --cpu-prof's timestamps (µs, monotonic).
    console.log(
      `  rest: ${others
        .slice(1, 6)
        .map((thread) => `${thread.name} ${perPoint(thread.us)}`)
        .join(', ')}; window ${startedUs}-${endedUs}`,
    );
  }
  // The process's peak resident memory (set-up included; the load generator is another process).
  const peakKiB = Number(/^VmHWM:\s+(\d+) kB$/m.exec(fs.readFileSync('/proc/self/status', 'utf8'))?.[1] ?? NaN);
  console.log(`server peak RSS ${(peakKiB / 1024).toFixed(0)} MiB`);
  child.kill();
  await app.close();
  fs.rmSync(dir, { recursive: true, force: true });
}

if (process.argv.includes('--load-child')) await runLoad();
else await main();
