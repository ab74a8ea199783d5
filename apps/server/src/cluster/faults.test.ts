import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REALTIME_PATH } from '@fieldlink/api/realtime';
import { deviceUpTopic } from '@fieldlink/api/mqtt-topics';
import { openStorage, type Storage } from '../db/database';
import { demoFleet } from '../seed/seed';
import { TestSocket } from '../testing/test-socket';
import { freshPostgres, type TestDatabase } from './testing/cluster-apps';
import { DeviceLoad, LOAD_CODE } from './testing/device-load';
import { startMosquitto, type TestMosquitto } from './testing/mosquitto';
import { startPostgres, type TestPostgres } from './testing/postgres-process';
import { startServerProcess, type ServerProcess } from './testing/server-process';

/**
 * Faults on loopback with real processes: two Fieldlink instances (`node apps/server/src/main.ts`),
 * Mosquitto 2 with dynamic security, and a PostgreSQL server of the test's own, so stopping it
 * disturbs no other test. Every step has a time limit; every process is ended afterwards.
 */

const DEMO_PASSWORD = 'fault-test-demo';
const LOAD_DEVICES = 12;

const until = async (what: string, check: () => boolean | Promise<boolean>, timeoutMs: number) => {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (
      await Promise.resolve()
        .then(check)
        .catch(() => false)
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`Not in time: ${what}`);
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One sample of a Prometheus answer. */
async function metric(server: ServerProcess, line: string): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const match = text.split('\n').find((entry) => entry.startsWith(`${line} `));
  return match ? Number(match.slice(line.length + 1)) : NaN;
}

describe.each(['single', 'shared'] as const)(
  'faults with %s ingest: kill -9, broker and database restarts',
  (ingest) => {
    let postgres: TestPostgres;
    let database: TestDatabase;
    let mosquitto: TestMosquitto;
    let storage: Storage;
    let env: Record<string, string>;
    let a: ServerProcess;
    let b: ServerProcess;
    let load: DeviceLoad;
    const extra: ServerProcess[] = [];

    const deviceIds = async () =>
      new Map(
        (await storage.db.selectFrom('devices').select(['id', 'thing_name']).execute()).map((row) => [
          row.thing_name,
          row.id,
        ]),
      );

    /** Acknowledged samples not (yet) in the log table. */
    const missing = async (): Promise<number> => {
      const ids = await deviceIds();
      let count = 0;
      for (const [thingName, times] of load.acked) {
        if (times.length === 0) continue;
        const rows = await storage.db
          .selectFrom('logs')
          .select('t')
          .where('device_id', '=', ids.get(thingName)!)
          .where('code', '=', LOAD_CODE)
          .execute();
        const stored = new Set(rows.map((row) => row.t));
        count += times.filter((t) => !stored.has(t)).length;
      }
      return count;
    };

    /** Each device's latest value is its newest stored sample, and no older than its newest acknowledged one. */
    const latestIsRight = async (): Promise<boolean> => {
      const ids = await deviceIds();
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
      postgres = await startPostgres();
      database = await freshPostgres(postgres.serverUrl);
      mosquitto = await startMosquitto();
      env = {
        DATABASE_URL: database.url,
        MQTT_URL: mosquitto.url,
        MQTT_ADMIN_USERNAME: mosquitto.adminUsername,
        MQTT_ADMIN_PASSWORD: mosquitto.adminPassword,
        FIELDLINK_CLUSTER_LEASE_SECONDS: '2',
        FIELDLINK_DEMO_PASSWORD: DEMO_PASSWORD,
        MQTT_INGEST: ingest,
      };
      // The first instance migrates, seeds and provisions the demo devices into the broker.
      a = await startServerProcess({ ...env, FIELDLINK_INSTANCE_ID: `${ingest}-a` });
      b = await startServerProcess({ ...env, FIELDLINK_INSTANCE_ID: `${ingest}-b` });
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
      await postgres?.close();
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
      load.start(25); // 12 devices: about 480 frames a second
      await sleep(2000);
      await a.kill('SIGKILL');
      await sleep(3000);
      await load.stop();
      const acked = load.ackedCount();
      expect(acked).toBeGreaterThan(1000);
      // The survivor adopts the dead instance's session once its 2 s lease has run out, and drains it.
      await until('every acknowledged frame stored', async () => (await missing()) === 0, 40_000);
      expect(await latestIsRight()).toBe(true);
      a = await startServerProcess({ ...env, FIELDLINK_INSTANCE_ID: `${ingest}-a2` });
    }, 120_000);

    // Mosquitto 2.0 does not restore shared subscriptions from its persistence file: frames published
    // after a restart and before an instance subscribes again are acknowledged and dropped
    // (docs/decisions.md "Cluster"). The single mode holds a plain persistent subscription, which it keeps.
    it.skipIf(ingest === 'shared')(
      'reconnects devices after a broker restart, with the right connection state, and ingests again',
      async () => {
        await until(
          'all load devices connected',
          async () => [...(await connectedStates()).values()].every((v) => v === 1),
          20_000,
        );
        await mosquitto.stop();
        await sleep(1000);
        await mosquitto.start();
        await until(
          'devices online again',
          () => [...load.clients.values()].every((client) => client.connected),
          20_000,
        );
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
        load.start(50);
        await sleep(1500);
        await load.stop();
        await until('frames after the restart stored', async () => (await missing()) === 0, 20_000);
      },
      120_000,
    );

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
      await sleep(1000);
      await postgres.stop();
      const during: number[] = [];
      for (let i = 0; i < 10; i += 1) {
        during.push(await self());
        await sleep(200);
      }
      expect(during.every((status) => status === 503)).toBe(true);
      await postgres.start();
      await until('the API answers again', async () => (await self()) === 200, 30_000);
      await sleep(1000);
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
