import type { MqttClient } from 'mqtt';
import {
  type ServerProcess,
  startMosquitto,
  type TestMosquitto,
  freshPostgres,
  type FreshPostgres,
} from '@fieldlink/server/testing';
import type { Benchmark, BenchOptions, BenchTable } from './benchmark';
import {
  SteadyLoad,
  TimedSocket,
  WATCHER,
  connectDevices,
  metric,
  processUsage,
  provision,
  signIn,
  sleep,
  startInstance,
  type Credentials,
} from './cluster-support';
import { formatCount, formatMs } from './format';

/**
 * Ingest through an external Mosquitto 2 (dynamic security, persistence) into PostgreSQL, with one
 * Fieldlink instance and with two, and the time from a device's publish to a browser socket on the
 * *other* instance. Everything runs on this machine's cores: Mosquitto, PostgreSQL, the instances and
 * the load generator (this process) compete for them, as they would not in a real cluster.
 */

const VALUES_PER_FRAME = 10;
const STEADY_POINTS_PER_SECOND = 10_000;

interface Stage {
  setup: string;
  load: string;
  storedPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  events: number;
  cpu: string;
}

interface Cluster {
  mosquitto: TestMosquitto;
  database: FreshPostgres;
  instances: ServerProcess[];
  devices: Credentials[];
  clients: MqttClient[];
}

async function startCluster(options: BenchOptions, count: number, ingest: 'single' | 'shared'): Promise<Cluster> {
  const mosquitto = await startMosquitto();
  const database = await freshPostgres('fieldlink_cluster', options.postgresUrl);
  const env = {
    DATABASE_URL: database.url,
    MQTT_URL: mosquitto.url,
    MQTT_ADMIN_USERNAME: mosquitto.adminUsername,
    MQTT_ADMIN_PASSWORD: mosquitto.adminPassword,
    MQTT_INGEST: ingest,
  };
  const instances: ServerProcess[] = [];
  try {
    for (let i = 0; i < count; i += 1)
      instances.push(await startInstance({ ...env, FIELDLINK_INSTANCE_ID: `bench-${i}` }));
    const devices = await provision(instances[0]!, options.devices, 'Cluster bench device');
    const clients = await connectDevices(mosquitto.url, devices);
    return { mosquitto, database, instances, devices, clients };
  } catch (error) {
    for (const instance of instances) await instance.kill('SIGKILL');
    await mosquitto.close();
    await database.drop().catch(() => undefined); // the first error is the one to report
    throw error;
  }
}

async function stopCluster(cluster: Cluster): Promise<void> {
  await Promise.all(cluster.clients.map((client) => client.endAsync(true)));
  for (const instance of cluster.instances) await instance.kill('SIGTERM');
  await cluster.mosquitto.close();
  await cluster.database.drop();
}

async function storedPoints(cluster: Cluster): Promise<number> {
  let total = 0;
  for (const instance of cluster.instances) total += await metric(instance, 'fieldlink_ingest_data_points_total');
  return total;
}

function cpuOf(pids: { label: string; pid: number }[]): () => string {
  const start = pids.map(({ pid }) => processUsage(pid).cpuSeconds);
  const started = performance.now();
  return () => {
    const seconds = (performance.now() - started) / 1000;
    return pids
      .map(({ label, pid }, i) => `${label} ${((processUsage(pid).cpuSeconds - start[i]!) / seconds).toFixed(2)}`)
      .join(', ');
  };
}

/** Runs `framesPerSecond` (Infinity: as fast as the broker acknowledges) and measures a window. */
async function measure(
  cluster: Cluster,
  options: BenchOptions,
  framesPerSecond: number,
  socket: TimedSocket,
  mosquittoPid: number | null,
): Promise<Omit<Stage, 'setup' | 'load'>> {
  const load = SteadyLoad.of(cluster.clients, cluster.devices, VALUES_PER_FRAME);
  load.start(Number.isFinite(framesPerSecond) ? framesPerSecond : 1_000_000);
  await sleep(options.warmupSeconds * 1000);
  const pids = cluster.instances.map((instance, i) => ({ label: `instance ${i + 1}`, pid: instance.pid }));
  if (mosquittoPid) pids.push({ label: 'Mosquitto', pid: mosquittoPid });
  const cpu = cpuOf(pids);
  socket.latency.reset();
  const before = await storedPoints(cluster);
  const started = performance.now();
  await sleep(options.seconds * 1000);
  const stored = (await storedPoints(cluster)) - before;
  const elapsed = (performance.now() - started) / 1000;
  const summary = socket.latency.summary();
  const cpuText = cpu();
  load.stop();
  // Let what the broker holds drain before the next stage (bounded: three minutes).
  for (let quiet = 0, i = 0; quiet < 4 && i < 360; i += 1) {
    const stored = await storedPoints(cluster);
    await sleep(500);
    quiet = (await storedPoints(cluster)) === stored ? quiet + 1 : 0;
  }
  return {
    storedPerSecond: stored / elapsed,
    p50Ms: summary.p50Ms,
    p99Ms: summary.p99Ms,
    events: summary.count,
    cpu: cpuText,
  };
}

async function runSetup(options: BenchOptions, count: number, ingest: 'single' | 'shared'): Promise<Stage[]> {
  const setup = `${count} instance${count > 1 ? 's' : ''}, ${ingest} ingest`;
  options.log(
    `  ${setup}: starting Mosquitto, PostgreSQL database, instances; provisioning ${options.devices} devices`,
  );
  const cluster = await startCluster(options, count, ingest);
  try {
    // The browser watches every device from the last instance: with two, that is not the one that
    // provisioned them, and in shared mode about half the values reach it through the broker.
    const watcherOn = cluster.instances[cluster.instances.length - 1]!;
    const socket = await TimedSocket.open(watcherOn, await signIn(watcherOn, WATCHER));
    await socket.subscribe(cluster.devices.map((device) => device.thingName));
    const pid = cluster.mosquitto.pid();
    const stages: Stage[] = [];
    // Steady first, on an empty broker queue; then as fast as the devices can send, which leaves a
    // backlog at the broker for the instances to drain.
    options.log(`  ${setup}: steady ${STEADY_POINTS_PER_SECOND} dp/s`);
    stages.push({
      setup,
      load: `steady ${formatCount(STEADY_POINTS_PER_SECOND)} dp/s`,
      ...(await measure(cluster, options, STEADY_POINTS_PER_SECOND / VALUES_PER_FRAME, socket, pid)),
    });
    options.log(`  ${setup}: maximum`);
    stages.push({
      setup,
      load: 'maximum: devices send as fast as the broker acknowledges',
      ...(await measure(cluster, options, Infinity, socket, pid)),
    });
    socket.socket.close();
    return stages;
  } finally {
    await stopCluster(cluster);
  }
}

export const clusterIngestBenchmark: Benchmark = {
  name: 'cluster-ingest',
  title: 'Cluster ingest: external Mosquitto, PostgreSQL, one and two instances',
  async run(options) {
    const stages: Stage[] = [];
    let failed = false;
    const findings: string[] = [];
    for (const [count, ingest] of [
      [1, 'single'],
      [2, 'shared'],
    ] as const) {
      try {
        stages.push(...(await runSetup(options, count, ingest)));
      } catch (error) {
        failed = true;
        findings.push(
          `${count} instance(s), ${ingest}: failed: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
    findings.push(
      'At the steady load the browser latency is the pipeline\'s own. In the "maximum" stages the devices offer more ' +
        "than the instances store, the broker's queue grows, and the browser latency is that queue's age; the " +
        'watching socket is also closed as a slow consumer once 4 MiB wait unsent, so fewer values are timed. ' +
        '"Stored dp/s" there is what the instances commit while fed from a full queue (up to 1,000 frames in flight ' +
        'per session, so commits are large).',
    );
    const table: BenchTable = {
      caption: 'Stored data points per second and publish-to-browser latency',
      columns: ['Setup', 'Load', 'Stored dp/s', 'Browser p50', 'Browser p99', 'Values timed', 'CPU cores', 'Anchor'],
      rows: stages.map((stage) => [
        stage.setup,
        stage.load,
        `**${formatCount(stage.storedPerSecond)}**`,
        formatMs(stage.p50Ms),
        formatMs(stage.p99Ms),
        formatCount(stage.events),
        stage.cpu,
        stage.load.startsWith('maximum')
          ? 'ThingsBoard: 15,000 on 2 vCPUs with Kafka; 5,000-10,000 with PostgreSQL storage'
          : `goal: p99 under 100 ms at this load (${stage.p99Ms < 100 ? 'met' : 'not met'})`,
      ]),
    };
    return {
      method: [
        `${options.devices} devices, each its own MQTT 3.1.1 connection with its own credentials (provisioned through ` +
          "`POST /api/v1/device`, hence into Mosquitto's dynamic security), publish version 4 `log` frames of " +
          `${VALUES_PER_FRAME} channels at QoS 1 to Mosquitto 2.0 (persistence on), which acknowledges on receipt. Fieldlink ` +
          'instances (`node apps/server/src/main.ts`, `MQTT_URL` set) store them in a fresh PostgreSQL database and ' +
          'acknowledge each frame to the broker once committed. "Stored dp/s" is read from the instances\' ' +
          '`fieldlink_ingest_data_points_total` over the window; "maximum" sends as fast as Mosquitto acknowledges ' +
          '(the instances fall behind and the broker queues), so it is what the instances can store.',
        'A browser socket on the last instance (viewer@fieldlink.test) subscribes to every device and times each value ' +
          'it receives against the sample time the device stamped at publishing: device → Mosquitto → instance → ' +
          'PostgreSQL commit → (with two instances, for the frames the other instance stored: → Mosquitto ' +
          "`fieldlink/events` →) socket. Everything shares the machine's cores: Mosquitto, PostgreSQL, the instances, " +
          'and this load generator.',
        `Each stage warms up for ${options.warmupSeconds} s and is measured for ${options.seconds} s.`,
      ],
      tables: [table],
      findings,
      failed,
    };
  },
};
