import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { REALTIME_PATH } from '@fieldlink/api/realtime';
import { openStorage, type Storage } from '../../src/db/database';
import { demoFleet } from '../../src/seed/seed';
import { until } from '../until';
import { freePort } from '../ports';
import { startBrowserFleet, type BrowserFleet, type BrowserOutage } from './browser-fleet';
import { freshPostgres, type TestDatabase } from './cluster-apps';
import { DeviceLoad, LOAD_CODE, missingAcknowledged } from './device-load';
import { HAPROXY_BIN } from './haproxy';
import { startMosquitto, type TestMosquitto } from './mosquitto';
import { startPostgres, type TestPostgres } from './postgres-process';
import { checkOutPreviousRelease, hasPreviousRelease, PREVIOUS_RELEASE } from './previous-release';
import { startServerProcess, type ServerProcess } from './server-process';

/**
 * Issue 40 item 3's rolling upgrade, shared by its test (apps/server/src/ops/rolling-upgrade.test.ts,
 * which checks that nothing is lost and every request is answered) and its benchmark stage
 * (bench/src/rolling-upgrade.ts, which measures how fast the browsers come back against the 5 s goal):
 * two instances of the previous release behind docs/haproxy/fieldlink-cluster.cfg (Debian's HAProxy) on
 * PostgreSQL and Mosquitto, with devices publishing and browsers holding the real-time channel, are
 * replaced one at a time by this release: SIGTERM, a new instance on the same address, ready, the
 * next. The first new instance migrates the schema while the previous release still serves beside it.
 */

const CONFIG = path.resolve(import.meta.dirname, '../../../../docs/haproxy/fieldlink-cluster.cfg');
const DEMO_PASSWORD = 'rolling-upgrade-demo';
export const ROLL_DEVICES = 20;
export const ROLL_BROWSERS = 100;
/** Each device publishes a QoS 1 frame this often: 200 frames a second in all. */
export const ROLL_PUBLISH_EVERY_MS = 100;
export { PREVIOUS_RELEASE };

/** Whether this machine can roll: HAProxy installed and the previous release in this clone. */
export const canRollUpgrade = (): boolean => existsSync(HAPROXY_BIN) && hasPreviousRelease();

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
};

const countBy = (values: (number | string)[]) => {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
};

/** Runs `work` on every `nth` tick, unless its previous run is still going. */
function paced(nth: number, work: () => Promise<void>) {
  let ticks = 0;
  let running: Promise<void> | null = null;
  return {
    tick(): void {
      ticks += 1;
      if (ticks % nth === 0 && !running) running = work().finally(() => (running = null));
    },
    settled: (): Promise<void> => running ?? Promise.resolve(),
  };
}

/**
 * One step of the roll. Step 1: A is replaced and the previous release's B takes over; step 2: B is
 * replaced and this release's A takes over. Times are milliseconds.
 */
export interface RollStep {
  /** Browsers whose socket closed in this step and came back. */
  browsersBack: number;
  openMaxMs: number;
  openP99Ms: number;
  subscribedMaxMs: number;
  /** Acknowledged frames published in this step (the first also holds those before the roll) not stored. */
  lost: number;
  acked: number;
  /** HTTP answers in this step that were 5xx, or requests that failed. */
  errors: number;
  answers: number;
  storedP50Ms: number;
  storedP99Ms: number;
}

export interface RollResult {
  rollMs: number;
  /** Acknowledged frames in all, and those not stored (after waiting up to a minute for them). */
  acked: number;
  lost: number;
  /** HTTP answers by status (0: the request failed). */
  statuses: Map<number, number>;
  /** The first 5xx bodies and failed requests, and HAProxy's log's end: what to read when errors is not empty. */
  failures: string[];
  /** Every browser outage of the roll. */
  outages: BrowserOutage[];
  steps: RollStep[];
  /** What happened, as lines to print. */
  report: string[];
}

export interface RollingUpgrade {
  /** Rolls both instances to this release under load; once. */
  run(): Promise<RollResult>;
  close(): Promise<void>;
}

/** Starts the previous release's two instances behind HAProxy, PostgreSQL, Mosquitto and the devices. */
export async function startRollingUpgrade(): Promise<RollingUpgrade> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fieldlink-roll-'));
  let previous = '';
  let postgres: TestPostgres | undefined;
  let database: TestDatabase;
  let mosquitto: TestMosquitto | undefined;
  let storage: Storage | undefined;
  let haproxy: ChildProcess | undefined;
  let haproxyLog = '';
  let load: DeviceLoad | undefined;
  const instances: ServerProcess[] = [];
  let browsers: BrowserFleet | undefined;
  let env: Record<string, string>;
  let ports: { a: number; b: number; http: number; mqtt: number };

  /** HAProxy's view of an instance: UP, DOWN, ... */
  const serverState = (name: string) =>
    new Promise<string>((resolve, reject) => {
      const socket = net.createConnection(path.join(dir, 'haproxy.sock'));
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString()));
      socket.on('error', reject);
      socket.on('end', () => {
        const row = text.split('\n').find((line) => line.startsWith(`fieldlink,${name},`));
        resolve(row?.split(',')[17] ?? 'missing');
      });
      socket.write('show stat\n');
    });

  const startInstance = (name: 'a' | 'b', release: 'previous' | 'this') =>
    startServerProcess(
      { ...env, PORT: String(ports[name]), FIELDLINK_INSTANCE_ID: `${name}-${release}` },
      { timeoutMs: 180_000, root: release === 'previous' ? previous : undefined },
    );

  const close = async () => {
    await browsers?.close();
    await load?.close();
    for (const server of instances) await server.kill('SIGKILL');
    haproxy?.kill('SIGTERM');
    await storage?.close();
    await mosquitto?.close();
    await postgres?.close();
    fs.rmSync(dir, { recursive: true, force: true });
    if (previous) fs.rmSync(previous, { recursive: true, force: true });
  };

  try {
    previous = checkOutPreviousRelease();
    postgres = await startPostgres();
    database = await freshPostgres(postgres.serverUrl);
    mosquitto = await startMosquitto();
    ports = { a: await freePort(), b: await freePort(), http: await freePort(), mqtt: await freePort() };
    env = {
      DATABASE_URL: database.url,
      MQTT_URL: mosquitto.url,
      MQTT_ADMIN_USERNAME: mosquitto.adminUsername,
      MQTT_ADMIN_PASSWORD: mosquitto.adminPassword,
      FIELDLINK_DEMO_PASSWORD: DEMO_PASSWORD,
      FIELDLINK_DEMO_HISTORY_DAYS: '1',
      TRUST_PROXY: '1',
    };
    // The first instance migrates, seeds and provisions the demo devices into the broker.
    instances.push(await startInstance('a', 'previous'));
    instances.push(await startInstance('b', 'previous'));

    fs.writeFileSync(
      path.join(dir, 'stats.cfg'),
      `global\n    stats socket ${path.join(dir, 'haproxy.sock')} mode 600\n`,
    );
    haproxy = spawn(HAPROXY_BIN, ['-db', '-f', CONFIG, '-f', path.join(dir, 'stats.cfg')], {
      env: {
        PATH: process.env.PATH,
        FIELDLINK_HTTP_BIND: `127.0.0.1:${ports.http}`,
        FIELDLINK_MQTT_BIND: `127.0.0.1:${ports.mqtt}`,
        FIELDLINK_A_HTTP: `127.0.0.1:${ports.a}`,
        FIELDLINK_B_HTTP: `127.0.0.1:${ports.b}`,
        FIELDLINK_BROKER_MQTT: new URL(mosquitto.url).host,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    haproxy.stdout!.on('data', (chunk: Buffer) => (haproxyLog += chunk.toString()));
    haproxy.stderr!.on('data', (chunk: Buffer) => (haproxyLog += chunk.toString()));
    await until(
      async () =>
        (await serverState('fieldlink-a').catch(() => '')) === 'UP' && (await serverState('fieldlink-b')) === 'UP',
      60_000,
    ).catch((error: unknown) => {
      throw new Error(`${String(error)}; haproxy said:\n${haproxyLog}`);
    });

    storage = openStorage(database.url);
    load = new DeviceLoad(`mqtt://127.0.0.1:${ports.mqtt}`, (await demoFleet(storage.db)).slice(0, ROLL_DEVICES));
    await load.connect();
  } catch (error) {
    await close().catch(() => undefined); // the first error is the one to report
    throw error;
  }
  const httpUrl = `http://127.0.0.1:${ports.http}`;
  const db = storage.db;
  const devices = load;

  const run = async (): Promise<RollResult> => {
    const signIn = async () => {
      const response = await fetch(`${httpUrl}/api/v1/signin`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'admin@fieldlink.test', password: DEMO_PASSWORD }),
      });
      return { status: response.status, jwt: response.ok ? ((await response.json()) as { jwt: string }).jwt : '' };
    };
    const { jwt, status: signInStatus } = await signIn();
    if (jwt === '') throw new Error(`Sign-in through HAProxy failed: ${signInStatus}`);
    const thingNames = [...devices.clients.keys()];
    // In a process of their own: their reconnects are timed on a loop that runs nothing else, not on
    // this one, which also runs the devices, the readers and the poller (docs/decisions.md).
    browsers = await startBrowserFleet(
      `${httpUrl.replace('http', 'ws')}${REALTIME_PATH}`,
      jwt,
      Array.from({ length: ROLL_BROWSERS }, (_, i) => thingNames[i % ROLL_DEVICES]!),
    );

    // Clients of the API all through the roll: reads, and a sign-in now and then.
    const answers: { at: number; status: number }[] = [];
    const failures: string[] = [];
    const events: string[] = [];
    const count = (status: number, at: number) => answers.push({ at, status });
    const started = Date.now();
    const note = (what: string) => {
      if (!events.at(-1)?.endsWith(` ${what}`)) events.push(`${((Date.now() - started) / 1000).toFixed(1)} s ${what}`);
    };
    const read = async () => {
      const at = Date.now();
      const status = await fetch(`${httpUrl}/api/v1/self`, { headers: { authorization: jwt } }).then(
        async (response) => {
          if (response.status >= 500 && failures.length < 10)
            failures.push(`${response.status} ${await response.text()}`);
          if (response.status >= 500) note(`GET /self ${response.status}`);
          return response.status;
        },
        (error: unknown) => (failures.push(String(error)), 0),
      );
      count(status, at);
    };
    const signInNow = async () => {
      const at = Date.now();
      count((await signIn().catch(() => ({ status: 0 }))).status, at);
    };

    // Publish-to-stored: each acknowledged sample's time until a poll of the database finds it.
    const publishedAt = new Map<number, number>();
    const sentAt = new Map<number, number>();
    const storedAfter: { at: number; ms: number }[] = [];
    const ids = new Map(
      (await db.selectFrom('devices').select(['id', 'thing_name']).execute()).map((row) => [row.id, row.thing_name]),
    );
    let watermark = devices.base;
    const pollStored = async () => {
      const polledAt = Date.now();
      const rows = await db
        .selectFrom('logs')
        .select(['t', 'device_id'])
        .where('code', '=', LOAD_CODE)
        .where('t', '>', watermark)
        .execute()
        .catch(() => []);
      for (const row of rows) {
        const t = Number(row.t);
        const at = sentAt.get(t);
        if (at !== undefined && ids.has(row.device_id)) {
          storedAfter.push({ at, ms: polledAt - at });
          sentAt.delete(t);
        }
      }
      // Everything below the oldest sample still awaited has been seen.
      watermark = sentAt.size > 0 ? Math.min(...sentAt.keys()) - 1 : watermark;
    };

    // The devices' frames (200 a second) pace everything else, so nothing here waits for time: three
    // readers of `GET /self` (about 10 a second each), a sign-in (about 2 a second), and the poll of
    // the database (about every 100 ms), each one at a time.
    const readers = [paced(7, read), paced(7, read), paced(7, read), paced(100, signInNow)];
    const poller = paced(20, pollStored);
    let rolling = true;
    devices.onPublish = (t) => {
      const now = Date.now();
      sentAt.set(t, now);
      publishedAt.set(t, now);
      if (rolling) for (const reader of readers) reader.tick();
      poller.tick();
    };
    devices.start(ROLL_PUBLISH_EVERY_MS);

    const rollStarted = Date.now();
    /** When each instance was told to stop. */
    const stopped: number[] = [];
    for (const [index, name] of (['a', 'b'] as const).entries()) {
      note(`SIGTERM ${name}`);
      stopped.push(Date.now());
      await instances[index]!.kill('SIGTERM');
      // The previous release's own stop (its exit code says whether it finished within its 10 s);
      // what it acknowledged is at the broker or stored either way, as the count below checks.
      note(`${name} stopped, exit code ${instances[index]!.exitCode()}`);
      instances[index] = await startInstance(name, 'this');
      note(`${name} answers`);
      await until(async () => (await serverState(`fieldlink-${name}`)) === 'UP', 60_000);
      note(`${name} UP at HAProxy`);
    }
    const rollMs = Date.now() - rollStarted;
    // Back on the new instances: every browser, and the API.
    const fleet = browsers;
    await until(async () => (await fleet.report()).open === ROLL_BROWSERS, 30_000, { intervalMs: 250 });
    rolling = false;
    await Promise.all(readers.map((reader) => reader.settled()));
    await devices.stop();
    const acked = devices.ackedCount();
    const lost = await until(async () => (await missingAcknowledged(db, devices.acked)) === 0, 60_000).then(
      () => 0,
      () => missingAcknowledged(db, devices.acked),
    );
    await poller.settled();
    await until(async () => {
      await pollStored();
      return sentAt.size === 0;
    }, 30_000).catch(() => undefined);

    const { outages, failedAttempts, loopDelayMs } = await fleet.report();
    const statuses = new Map<number, number>();
    for (const { status } of answers) statuses.set(status, (statuses.get(status) ?? 0) + 1);
    const isError = (status: number) => status >= 500 || status === 0;
    // Step 1: the previous release's B takes over from A; step 2: this release's A takes over from B.
    const step = (at: number) => (at < stopped[1]! ? 0 : 1);
    const ackedIn = (index: number) =>
      new Map(
        [...devices.acked].map(([thing, times]) => [
          thing,
          times.filter((t) => step(publishedAt.get(t) ?? rollStarted) === index),
        ]),
      );
    const steps: RollStep[] = [];
    const lines: string[] = [];
    for (const index of [0, 1]) {
      const own = outages.filter((outage) => step(outage.at) === index);
      const failed = failedAttempts.filter((attempt) => step(attempt.at) === index);
      const stored = storedAfter.filter((sample) => sample.at >= stopped[0]! && step(sample.at) === index);
      const stepAcked = ackedIn(index);
      const stepAnswers = answers.filter((answer) => step(answer.at) === index);
      const figures: RollStep = {
        browsersBack: own.length,
        openMaxMs: Math.max(...own.map((o) => o.open)),
        openP99Ms: percentile(
          own.map((o) => o.open),
          99,
        ),
        subscribedMaxMs: Math.max(...own.map((o) => o.subscribed)),
        lost: lost === 0 ? 0 : await missingAcknowledged(db, stepAcked),
        acked: [...stepAcked.values()].reduce((sum, times) => sum + times.length, 0),
        errors: stepAnswers.filter((answer) => isError(answer.status)).length,
        answers: stepAnswers.length,
        storedP50Ms: percentile(
          stored.map((s) => s.ms),
          50,
        ),
        storedP99Ms: percentile(
          stored.map((s) => s.ms),
          99,
        ),
      };
      steps.push(figures);
      lines.push(
        `step ${index + 1} (${index === 0 ? 'previous release takes over' : 'this release takes over'}): ` +
          `${own.length} browsers back, open again p99 ${figures.openP99Ms} ms, ` +
          `max ${figures.openMaxMs} ms, subscribed max ${figures.subscribedMaxMs} ms, ` +
          `attempts ${JSON.stringify(countBy(own.map((o) => o.attempts)))}, last attempt's open p50 ${percentile(
            own.map((o) => o.lastAttempt),
            50,
          )} ms max ${Math.max(...own.map((o) => o.lastAttempt))} ms, ` +
          `failed attempts ${JSON.stringify(countBy(failed.map((attempt) => attempt.why)))} taking p50 ${percentile(
            failed.map((attempt) => attempt.ms),
            50,
          )} ms max ${Math.max(0, ...failed.map((attempt) => attempt.ms))} ms; ` +
          `publish to stored p50 ${figures.storedP50Ms} ms, p99 ${figures.storedP99Ms} ms; ` +
          `${figures.lost} of ${figures.acked} acknowledged lost, ${figures.errors} of ${figures.answers} answers 5xx or failed`,
      );
    }
    const report = [
      `Rolling upgrade of ${PREVIOUS_RELEASE.slice(0, 7)} to this release: ${Math.round(rollMs / 1000)} s; ` +
        `${acked} frames acknowledged, ${lost} lost; ${answers.length} HTTP answers ${JSON.stringify(Object.fromEntries(statuses))}; ` +
        `publish to stored over the run p50 ${percentile(
          storedAfter.map((s) => s.ms),
          50,
        )} ms, ` +
        `p99 ${percentile(
          storedAfter.map((s) => s.ms),
          99,
        )} ms (${storedAfter.length} samples, polled every 100 ms); ` +
        `the browsers' own loop late by p99 ${loopDelayMs.p99.toFixed(0)} ms, max ${loopDelayMs.max.toFixed(0)} ms`,
      ...lines,
      ...events,
    ];
    return {
      rollMs,
      acked,
      lost,
      statuses,
      failures: [...failures, haproxyLog.slice(-3000)],
      outages,
      steps,
      report,
    };
  };

  return { run, close };
}
