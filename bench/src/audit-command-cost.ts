import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mqtt from 'mqtt';
import WebSocket from 'ws';
import type { DeviceCommand } from '@fieldlink/api/device-frames';
import { deviceDownTopic, deviceUpTopic } from '@fieldlink/api/mqtt-topics';
import { REALTIME_PATH, REALTIME_PROTOCOL } from '@fieldlink/api/realtime';
import { buildApp, freshPostgres, loadConfig, migrate, openStorage, seedDemo } from '@fieldlink/server/testing';
import { percentile } from './percentile';

/**
 * What the audit write costs a device command's round trip (issue 38 item 1). The real app in this
 * process (embedded broker, demo data; a SQLite file, then a fresh PostgreSQL database) and a
 * device over MQTT that answers every command at once. admin@ sends, over the real-time socket and
 * one after another, `server/readChannel` and `server/writeChannel` in turn: both take the same path
 * (permission, scope, pending places, the command topic, the device's reply), but a write changes the
 * device and is recorded in the audit trail before it is published, a read is not. The difference
 * of their round trips is the audit write, measured under the same load.
 *
 *     node --import tsx bench/src/audit-command-cost.ts [pairs] [--dialects sqlite,postgres]
 */

const PAIRS = Number(process.argv[2] && !process.argv[2].startsWith('--') ? process.argv[2] : 300);
const WARM_UP = 30;
const dialectArgument = process.argv.indexOf('--dialects');
const dialects = (dialectArgument >= 0 ? process.argv[dialectArgument + 1]! : 'sqlite,postgres').split(',');
const POSTGRES_URL =
  process.env.FIELDLINK_TEST_DATABASE_URL ?? 'postgres://fieldlink:fieldlink@127.0.0.1:5432/fieldlink';

/** A socket that resolves each request when its reply arrives (no polling: the times are exact). */
async function openSocket(url: string, token: string) {
  const socket = new WebSocket(url, [REALTIME_PROTOCOL, token]);
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  const waiting = new Map<string, (ok: boolean) => void>();
  socket.on('message', (data) => {
    const message = JSON.parse(data.toString()) as { type: string; id?: string; ok?: boolean };
    if (message.type === 'server/reply' && message.id) waiting.get(message.id)?.(message.ok === true);
  });
  let counter = 0;
  return {
    socket,
    /** Sends an action and answers how long its reply took, in milliseconds. */
    time: (action: object) =>
      new Promise<number>((resolve, reject) => {
        const id = `c${++counter}`;
        const started = performance.now();
        waiting.set(id, (ok) => (ok ? resolve(performance.now() - started) : reject(new Error('Command failed'))));
        socket.send(JSON.stringify({ ...action, id }));
      }),
  };
}

function summary(times: number[]) {
  const sorted = [...times].sort((a, b) => a - b);
  const mean = sorted.reduce((sum, time) => sum + time, 0) / sorted.length;
  return { mean, p50: percentile(sorted, 50), p90: percentile(sorted, 90), p99: percentile(sorted, 99) };
}

for (const dialect of dialects) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fieldlink-audit-bench-'));
  const database =
    dialect === 'postgres'
      ? await freshPostgres('fieldlink_bench', POSTGRES_URL)
      : { url: path.join(dir, 'fieldlink.db'), drop: async () => undefined };
  const config = loadConfig({
    DATABASE_URL: database.url,
    WEB_DIST: '/nonexistent',
    FIELDLINK_LOG_MAINTENANCE_MINUTES: '0',
    FIELDLINK_BATCH_REPORT_RETENTION_MINUTES: '0',
    FIELDLINK_AUDIT_RETENTION_MINUTES: '0',
  });
  const storage = openStorage(config.databaseUrl);
  await migrate(storage.db);
  await seedDemo(storage.db, 'bench-password');
  const app = await buildApp({ config, storage, mqttPort: 0 });
  await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    const signin = await app.inject({
      method: 'POST',
      url: '/api/v1/signin',
      payload: { email: 'admin@fieldlink.test', password: 'bench-password' },
    });
    const token = (signin.json() as { jwt: string }).jwt;
    const added = await app.inject({
      method: 'POST',
      url: '/api/v1/device',
      headers: { authorization: token },
      payload: { name: 'Bench boiler' },
    });
    const { thingName, password } = (added.json() as { credentials: { thingName: string; password: string } })
      .credentials;
    const device = await mqtt.connectAsync(`mqtt://127.0.0.1:${app.broker!.port}`, {
      clientId: thingName,
      username: thingName,
      password,
      reconnectPeriod: 0,
    });
    await device.subscribeAsync(deviceDownTopic(thingName), { qos: 1 });
    device.on('message', (_topic, payload) => {
      const command = JSON.parse(payload.toString()) as DeviceCommand;
      const value = 'value' in command ? command.value : 1;
      void device.publishAsync(
        deviceUpTopic(thingName),
        JSON.stringify({ v: 4, type: 'reply', id: command.id, result: 'OK', value }),
      );
    });
    for (;;) {
      const row = await storage.db
        .selectFrom('devices')
        .select('is_connected')
        .where('thing_name', '=', thingName)
        .executeTakeFirstOrThrow();
      if (row.is_connected === 1) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const address = app.server.address() as { port: number };
    const socket = await openSocket(`ws://127.0.0.1:${address.port}${REALTIME_PATH}`, token);
    const reads: number[] = [];
    const writes: number[] = [];
    for (let i = 0; i < WARM_UP + PAIRS; i += 1) {
      const read = await socket.time({ type: 'server/readChannel', thingName, code: 'sp1' });
      const write = await socket.time({ type: 'server/writeChannel', thingName, code: 'sp1', value: i % 90 });
      if (i >= WARM_UP) {
        reads.push(read);
        writes.push(write);
      }
    }
    const entries = await storage.db
      .selectFrom('audit_log')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('action', '=', 'device.command')
      .executeTakeFirstOrThrow();
    const [read, write] = [summary(reads), summary(writes)];
    const ms = (value: number) => value.toFixed(2);
    console.log(
      JSON.stringify({
        dialect,
        pairs: PAIRS,
        auditedCommands: Number(entries.count),
        read: { meanMs: ms(read.mean), p50Ms: ms(read.p50), p90Ms: ms(read.p90), p99Ms: ms(read.p99) },
        write: { meanMs: ms(write.mean), p50Ms: ms(write.p50), p90Ms: ms(write.p90), p99Ms: ms(write.p99) },
        auditCostMs: { mean: ms(write.mean - read.mean), p50: ms(write.p50 - read.p50) },
      }),
    );
    socket.socket.close();
    await device.endAsync(true);
  } finally {
    await app.close();
    await database.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
