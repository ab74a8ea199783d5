import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { REALTIME_PATH } from '@fieldlink/api/realtime';
import { openStorage, type Storage } from '../db/database';
import { demoFleet } from '../seed/seed';
import { DeviceLoad, missingAcknowledged } from '../../testing/cluster/device-load';
import { freePort } from '../../testing/ports';
import { startServerProcess, type ServerProcess } from '../../testing/cluster/server-process';
import { freshPostgres, type FreshPostgres } from '../../testing/fresh-postgres';
import { DEMO_PASSWORD, TEST_POSTGRES_URL } from '../../testing/test-app';
import { TestSocket } from '../../testing/test-socket';
import { until } from '../../testing/until';

const DEVICES = 20;
const BROWSERS = 10;

/** A stop under load, as systemd does it (docs/operations.md, "One process under a supervisor"). */
describe.each(['sqlite', 'postgres'] as const)('SIGTERM under load on %s', (dialect) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fieldlink-stop-'));
  let database: FreshPostgres | undefined;
  let server: ServerProcess | undefined;
  let storage: Storage | undefined;
  let load: DeviceLoad | undefined;

  afterAll(async () => {
    await load?.close();
    await server?.kill('SIGKILL');
    await storage?.close();
    await database?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('flushes every acknowledged frame, closes every socket and exits 0 within its 10 s deadline', async () => {
    database = dialect === 'postgres' ? await freshPostgres('fieldlink_stop', TEST_POSTGRES_URL) : undefined;
    const url = database?.url ?? path.join(dir, 'fieldlink.db');
    const mqttPort = await freePort();
    server = await startServerProcess(
      {
        DATABASE_URL: url,
        MQTT_PORT: String(mqttPort),
        FIELDLINK_DEMO_PASSWORD: DEMO_PASSWORD,
        // No demo history: the stop is about the frames in flight, and a day of history was most of the start.
        FIELDLINK_DEMO_HISTORY_DAYS: '0',
      },
      { bundle: inject('serverBundle') },
    );
    storage = openStorage(url);
    const fleet = await demoFleet(storage.db);
    load = new DeviceLoad(`mqtt://127.0.0.1:${mqttPort}`, fleet.slice(0, DEVICES));
    await load.connect();

    const signIn = await fetch(`${server.url}/api/v1/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@fieldlink.test', password: DEMO_PASSWORD }),
    });
    const { jwt } = (await signIn.json()) as { jwt: string };
    const browsers = await Promise.all(
      Array.from({ length: BROWSERS }, () =>
        TestSocket.open(`${server!.url.replace('http', 'ws')}${REALTIME_PATH}`, jwt),
      ),
    );
    for (const browser of browsers) {
      const reply = await browser.request({ type: 'server/subscribeDevices', thingNames: [...load.clients.keys()] });
      expect(reply.ok).toBe(true);
    }

    // 20 devices at 50 frames a second each: the writer always has a batch in hand at the signal.
    load.start(20);
    await until(() => load!.ackedCount() > 1000, 60_000);
    const closed = browsers.map(
      (browser) =>
        new Promise<number>((resolve) => {
          if (browser.socket.readyState === WebSocket.CLOSED) resolve(0);
          browser.socket.once('close', (code) => resolve(code));
        }),
    );
    await server.kill('SIGTERM');
    // Exit 0 is the clean stop; past its deadline the process exits 1 (main.ts, STOP_DEADLINE_MS).
    expect(server.exitCode(), server.output()).toBe(0);
    expect(server.output()).toContain('Fieldlink stopped cleanly.');
    // Every browser was told, none left hanging on a dead connection.
    expect(await Promise.all(closed)).toHaveLength(BROWSERS);
    await load.stop(5_000);

    // Nothing the broker acknowledged before the stop is lost.
    expect(load.ackedCount()).toBeGreaterThan(1000);
    expect(await missingAcknowledged(storage.db, load.acked)).toBe(0);
  }, 300_000);
});
