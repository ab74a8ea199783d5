import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { REALTIME_PATH } from '@fieldlink/api/realtime';
import { deviceUpTopic } from '@fieldlink/api/mqtt-topics';
import { openStorage, type Storage } from '../db/database';
import { demoFleet } from '../seed/seed';
import { TestSocket } from '../../testing/test-socket';
import { freshPostgres, type TestDatabase } from '../../testing/cluster/cluster-apps';
import { DeviceLoad, LOAD_CODE, missingAcknowledged } from '../../testing/cluster/device-load';
import { startMosquitto, type TestMosquitto } from '../../testing/cluster/mosquitto';
import { startPostgres, type TestPostgres } from '../../testing/cluster/postgres-process';
import { startServerProcess, type ServerProcess } from '../../testing/cluster/server-process';
import { moveInbox } from '../db/log-inbox';
import { until as waitUntil } from '../../testing/until';

/**
 * Faults on loopback with real processes: two Fieldlink instances (`node apps/server/src/main.ts`),
 * Mosquitto 2 with dynamic security, and a PostgreSQL server of the file's own, so stopping it
 * disturbs no other test. Both ingest modes use that one server (a database each): its initdb and
 * start were a few seconds of the file's set-up, and each mode's restart test leaves it running. Every
 * step has a time limit; every process is ended afterwards.
 */

const DEMO_PASSWORD = 'fault-test-demo';
const LOAD_DEVICES = 12;

/** Waits for a condition; a check that fails (a server or the database restarting) counts as "not yet". */
const until = (what: string, check: () => boolean | Promise<boolean>, timeoutMs: number) =>
  waitUntil(
    () =>
      Promise.resolve()
        .then(check)
        .catch(() => false),
    timeoutMs,
    { intervalMs: 200, what: `Not in time: ${what}` },
  );

/** One sample of a Prometheus answer. */
async function metric(server: ServerProcess, line: string): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const match = text.split('\n').find((entry) => entry.startsWith(`${line} `));
  return match ? Number(match.slice(line.length + 1)) : NaN;
}

let postgres: TestPostgres;
beforeAll(async () => {
  postgres = await startPostgres();
}, 60_000);
afterAll(() => postgres?.close(), 60_000);

describe.each(['single', 'shared'] as const)(
  'faults with %s ingest: kill -9, broker and database restarts',
  (ingest) => {
    let database: TestDatabase;
    let mosquitto: TestMosquitto;
    let storage: Storage;
    let env: Record<string, string>;
    let a: ServerProcess;
    let b: ServerProcess;
    let load: DeviceLoad;
    const extra: ServerProcess[] = [];
    /** The server's sources bundled once for the run (server-bundle.ts). */
    const bundle = inject('serverBundle');

    const deviceIds = async () =>
      new Map(
        (await storage.db.selectFrom('devices').select(['id', 'thing_name']).execute()).map((row) => [
          row.thing_name,
          row.id,
        ]),
      );

    /** Acknowledged samples not (yet) in the log table. */
    const missing = (): Promise<number> => missingAcknowledged(storage.db, load.acked);

    /** Each device's latest value is its newest stored sample, and no older than its newest acknowledged one. */
    const latestIsRight = async (): Promise<boolean> => {
      const ids = await deviceIds();
      await moveInbox(storage.db);
      for (const [thingName, times] of load.acked) {
        if (times.length === 0) continue;
        const latest = await storage.db
          .selectFrom('latest_values')
          .select(['t', 'value'])
          .where('device_id', '=', ids.get(thingName)!)
          .where('code', '=', LOAD_CODE)
          .executeTakeFirst();
        const newest = await storage.db
          .selectFrom('logs')
          .select((eb) => eb.fn.max('t').as('t'))
          .where('device_id', '=', ids.get(thingName)!)
          .where('code', '=', LOAD_CODE)
          .executeTakeFirst();
        if (!latest || latest.t !== Number(newest?.t) || latest.value !== load.valueAt(latest.t)) return false;
        if (latest.t < Math.max(...times)) return false;
      }
      return true;
    };

    const connectedStates = async () => {
      const rows = await storage.db
        .selectFrom('devices')
        .select(['thing_name', 'is_connected'])
        .where('thing_name', 'in', [...load.clients.keys()])
        .execute();
      return new Map(rows.map((row) => [row.thing_name, row.is_connected]));
    };

    beforeAll(async () => {
      database = await freshPostgres(postgres.serverUrl);
      mosquitto = await startMosquitto();
      env = {
        DATABASE_URL: database.url,
        MQTT_URL: mosquitto.url,
        MQTT_ADMIN_USERNAME: mosquitto.adminUsername,
        MQTT_ADMIN_PASSWORD: mosquitto.adminPassword,
        FIELDLINK_CLUSTER_LEASE_SECONDS: '2',
        FIELDLINK_DEMO_PASSWORD: DEMO_PASSWORD,
        // The faults are about live frames: no demo history (its samples were most of the first start).
        FIELDLINK_DEMO_HISTORY_DAYS: '0',
        MQTT_INGEST: ingest,
      };
      // The first instance migrates, seeds and provisions the demo devices into the broker.
      a = await startServerProcess({ ...env, FIELDLINK_INSTANCE_ID: `${ingest}-a` }, { bundle });
      b = await startServerProcess({ ...env, FIELDLINK_INSTANCE_ID: `${ingest}-b` }, { bundle });
      storage = openStorage(database.url);
      const fleet = (await demoFleet(storage.db)).slice(0, LOAD_DEVICES);
      load = new DeviceLoad(mosquitto.url, fleet);
      await load.connect();
    }, 180_000);

    afterAll(async () => {
      for (const server of [a, b, ...extra]) {
        if (server?.crashed()) console.error(`Instance at ${server.url} ended by itself:\n${server.output()}`);
      }
      await load?.close();
      for (const server of [a, b, ...extra]) await server?.kill('SIGKILL');
      await storage?.close();
      await mosquitto?.close();
    }, 60_000);

    it('shows a browser on instance B the values instance A stored', async () => {
      const signIn = await fetch(`${b.url}/api/v1/signin`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'admin@fieldlink.test', password: DEMO_PASSWORD }),
      });
      const { jwt } = (await signIn.json()) as { jwt: string };
      const socket = await TestSocket.open(`${b.url.replace('http', 'ws')}${REALTIME_PATH}`, jwt);
      try {
        const [thingName] = load.clients.keys();
        expect((await socket.request({ type: 'server/subscribeDevices', thingNames: [thingName] })).ok).toBe(true);
        const storedByA = await metric(a, 'fieldlink_ingest_frames_total');
        const client = load.clients.get(thingName!)!;
        for (let value = 1; value <= 8; value += 1) {
          const frame = { v: 4, type: 'log', t: Date.now(), values: { c2: value } };
          await client.publishAsync(deviceUpTopic(thingName!), JSON.stringify(frame), { qos: 1 });
        }
        await until(
          'eight values on the socket',
          () =>
            socket.received.filter((action) => action.type === 'server/newRawLogs' && action.logs.c2 !== undefined)
              .length === 8,
          10_000,
        );
        // Shared: both instances take frames. Single: A holds the cluster's session (it started first).
        expect(await metric(a, 'fieldlink_ingest_frames_total')).toBeGreaterThan(storedByA);
      } finally {
        socket.socket.close();
      }
    }, 60_000);

    it('loses no acknowledged frame when an instance is killed (-9) under load, and device state stays right', async () => {
      const ackedBefore = load.ackedCount();
      load.start(25); // 12 devices: about 480 frames a second
      await until('the load under way', () => load.ackedCount() >= ackedBefore + 500, 30_000);
      await a.kill('SIGKILL');
      const ackedAtKill = load.ackedCount();
      // Devices go on publishing through the kill, well into the dead instance's lease (2 s).
      await until('frames acknowledged after the kill', () => load.ackedCount() >= ackedAtKill + 700, 30_000);
      await load.stop();
      const acked = load.ackedCount();
      expect(acked).toBeGreaterThan(1000);
      // The survivor adopts the dead instance's session once its 2 s lease has run out, and drains it.
      await until('every acknowledged frame stored', async () => (await missing()) === 0, 40_000);
      expect(await latestIsRight()).toBe(true);
      a = await startServerProcess({ ...env, FIELDLINK_INSTANCE_ID: `${ingest}-a2` }, { bundle });
    }, 120_000);

    /** How many samples each device has had acknowledged so far. */
    const ackedSoFar = () => new Map([...load.acked].map(([thingName, times]) => [thingName, times.length]));

    /** Acknowledged samples from `from` (an `ackedSoFar`) to `to` (default: now) not in the log table. */
    const missingBetween = async (from: Map<string, number>, to?: Map<string, number>) => {
      const ids = await deviceIds();
      await moveInbox(storage.db);
      const lost = new Map<string, number[]>();
      for (const [thingName, times] of load.acked) {
        const slice = times.slice(from.get(thingName) ?? 0, to?.get(thingName) ?? times.length);
        if (slice.length === 0) continue;
        const rows = await storage.db
          .selectFrom('logs')
          .select('t')
          .where('device_id', '=', ids.get(thingName)!)
          .where('code', '=', LOAD_CODE)
          .where('t', 'in', slice)
          .execute();
        const stored = new Set(rows.map((row) => row.t));
        const gone = slice.filter((t) => !stored.has(t));
        if (gone.length > 0) lost.set(thingName, gone);
      }
      return lost;
    };
    const count = (lost: Map<string, number[]>) => [...lost.values()].reduce((sum, times) => sum + times.length, 0);

    // Both modes: devices reconnect, connection state is right, and each ingesting instance subscribes
    // again by itself (its ingest session subscribes on every connection, whatever the broker says of
    // the session). Single mode holds a plain persistent subscription, which Mosquitto restores: nothing
    // acknowledged is lost. Mosquitto 2.0 does not restore shared subscriptions from its persistence
    // file, so in shared mode frames acknowledged between the restart and the instances' new
    // subscriptions may be lost (docs/decisions.md "Cluster"): every frame acknowledged after that is
    // stored.
    it('reconnects devices after a broker restart, with the right connection state, and ingests again', async () => {
      await until(
        'all load devices connected',
        async () => [...(await connectedStates()).values()].every((v) => v === 1),
        20_000,
      );
      expect(await missing()).toBe(0);
      const instances = [a, b];
      const holding = await Promise.all(instances.map((server) => metric(server, 'fieldlink_ingest_subscribed')));
      const ingesting = instances.filter((_, index) => holding[index] === 1);
      // Shared: every instance is a member of the shared subscription. Single: one holds the session.
      expect(ingesting.length).toBe(ingest === 'shared' ? 2 : 1);
      const subscriptions = () =>
        Promise.all(ingesting.map((server) => metric(server, 'fieldlink_ingest_subscriptions_total')));
      const subscribedBefore = await subscriptions();

      // Devices keep publishing through the restart.
      const beforeRestart = ackedSoFar();
      const ackedBefore = load.ackedCount();
      load.start(100);
      await until('the load under way', () => load.ackedCount() >= ackedBefore + 100, 20_000);
      await mosquitto.stop();
      // The broker is gone for every device before it comes back.
      await until(
        'every device cut off',
        () => [...load.clients.values()].every((client) => !client.connected),
        20_000,
      );
      await mosquitto.start();
      await until(
        'every ingesting instance subscribed again',
        async () => (await subscriptions()).every((value, index) => value > subscribedBefore[index]!),
        15_000,
      );
      // Acknowledgements of frames the broker took before the new subscriptions may still be on their
      // way. A device's come back in the order it published: once each has one for a frame published
      // from now on, none for an earlier frame is still coming.
      const subscribedAt = load.lastPublished();
      await until(
        'acknowledgements of frames published after the new subscriptions',
        () => [...load.acked.values()].every((times) => times.some((t) => t > subscribedAt)),
        20_000,
      );
      const afterResubscribed = ackedSoFar();
      await until('devices online again', () => [...load.clients.values()].every((client) => client.connected), 20_000);
      const ackedOnline = load.ackedCount();
      await until(
        'frames acknowledged after the devices are back',
        () => load.ackedCount() >= ackedOnline + 200,
        20_000,
      );
      await load.stop();
      const ackedAfter = [...ackedSoFar()].reduce(
        (sum, [thingName, n]) => sum + n - (afterResubscribed.get(thingName) ?? 0),
        0,
      );
      expect(ackedAfter).toBeGreaterThan(100);

      // Every frame acknowledged after the instances subscribed again is stored, in both modes.
      await until(
        'frames acknowledged after the new subscriptions stored',
        async () => (await missingBetween(afterResubscribed)).size === 0,
        20_000,
      );
      if (ingest === 'single') {
        await until(
          'frames acknowledged through the restart stored',
          async () => count(await missingBetween(beforeRestart, afterResubscribed)) === 0,
          20_000,
        );
      }
      const lostInWindow = await missingBetween(beforeRestart, afterResubscribed);
      console.info(
        `${ingest} ingest: ${count(lostInWindow)} acknowledged frames lost between the restart and the new subscriptions`,
      );
      if (ingest === 'single') {
        // Nothing acknowledged is lost, through the restart too.
        expect(count(lostInWindow)).toBe(0);
      } else {
        // The documented gap: forget those samples, so later checks hold the rest to the promise.
        for (const [thingName, gone] of lostInWindow) {
          const lost = new Set(gone);
          load.acked.set(
            thingName,
            load.acked.get(thingName)!.filter((t) => !lost.has(t)),
          );
        }
      }
      expect(await missing()).toBe(0);
      expect(await latestIsRight()).toBe(true);
      await until(
        'all load devices connected',
        async () => [...(await connectedStates()).values()].every((v) => v === 1),
        20_000,
      );

      // A lost link: the broker publishes the device's will.
      const [lostName, lost] = [...load.clients][0]!;
      lost.options.reconnectPeriod = 0;
      lost.stream.destroy();
      await until('the lost device disconnected', async () => (await connectedStates()).get(lostName) === 0, 15_000);
      const states = await connectedStates();
      expect([...states].filter(([name, state]) => name !== lostName && state !== 1)).toEqual([]);

      load.clients.delete(lostName);
      const ackedBeforeLast = load.ackedCount();
      load.start(50);
      await until('frames after the lost link', () => load.ackedCount() >= ackedBeforeLast + 200, 20_000);
      await load.stop();
      await until('frames after the restart stored', async () => (await missing()) === 0, 20_000);
    }, 120_000);

    it('answers 503 while PostgreSQL restarts, recovers by itself, and stores every acknowledged frame', async () => {
      const signIn = await fetch(`${a.url}/api/v1/signin`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'viewer@fieldlink.test', password: DEMO_PASSWORD }),
      });
      const { jwt } = (await signIn.json()) as { jwt: string };
      const self = () => fetch(`${a.url}/api/v1/self`, { headers: { authorization: jwt } }).then((r) => r.status);
      expect(await self()).toBe(200);
      const before = load.ackedCount();
      load.start(40);
      await until('the load under way', () => load.ackedCount() >= before + 150, 20_000);
      await postgres.stop();
      try {
        // Devices go on publishing (the broker acknowledges what it takes) while the API answers 503.
        const ackedWhileDown = load.ackedCount();
        const during: number[] = [];
        for (let i = 0; i < 10; i += 1) during.push(await self());
        await until(
          'frames acknowledged while the database is down',
          () => load.ackedCount() >= ackedWhileDown + 100,
          20_000,
        );
        during.push(await self());
        expect(during.every((status) => status === 503)).toBe(true);
      } finally {
        // Up again even when a check failed: the other mode's instances use the same server.
        await postgres.start();
      }
      await until('the API answers again', async () => (await self()) === 200, 30_000);
      const ackedBack = load.ackedCount();
      await until('frames acknowledged after the recovery', () => load.ackedCount() >= ackedBack + 100, 20_000);
      await load.stop();
      expect(load.ackedCount() - before).toBeGreaterThan(300);
      try {
        await until('every acknowledged frame stored', async () => (await missing()) === 0, 40_000);
      } catch (error) {
        console.log('missing', await missing(), a.output(), b.output(), mosquitto.log().slice(-3000));
        throw error;
      }
      expect(await latestIsRight()).toBe(true);
    }, 120_000);
  },
);
