import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { deviceDownTopic } from '@fieldlink/api/mqtt-topics';
import { freePort, startMosquitto } from '@fieldlink/server/testing';
import type { Benchmark, BenchTable } from './benchmark';
import { connectDevices, processUsage, provision, sleep, startInstance } from './cluster-support';
import { formatBytes, formatCount } from './format';

/**
 * Memory per idle device connection: devices connect with their own credentials, subscribe to their
 * command topic as firmware does, and then say nothing but keep-alives. Measured as the broker
 * process's resident memory with them connected minus before, divided by the number of devices.
 */

const EMBEDDED_DEVICES = 2000;
const MOSQUITTO_DEVICES = 1000;
const SETTLE_MS = 5000;

interface Row {
  broker: string;
  devices: number;
  before: number;
  after: number;
}

async function idle(url: string, devices: { thingName: string; password: string }[], pid: () => number) {
  await sleep(SETTLE_MS);
  const before = processUsage(pid()).rssBytes;
  const clients = await connectDevices(url, devices);
  await Promise.all(
    clients.map((client, i) => client.subscribeAsync(deviceDownTopic(devices[i]!.thingName), { qos: 1 })),
  );
  await sleep(SETTLE_MS);
  const after = processUsage(pid()).rssBytes;
  await Promise.all(clients.map((client) => client.endAsync(true)));
  return { before, after };
}

export const mqttIdleMemoryBenchmark: Benchmark = {
  name: 'mqtt-idle-memory',
  title: 'Memory per idle MQTT connection',
  async run(options) {
    const rows: Row[] = [];
    const findings: string[] = [];
    let failed = false;

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fieldlink-idle-'));
    const mqttPort = await freePort();
    try {
      options.log(`  embedded broker: provisioning ${EMBEDDED_DEVICES} devices`);
      const env = { DATABASE_URL: path.join(dir, 'fieldlink.db'), MQTT_PORT: String(mqttPort) };
      const provisioner = await startInstance(env);
      const devices = await provision(provisioner, EMBEDDED_DEVICES, 'Idle device').finally(() =>
        provisioner.kill('SIGTERM'),
      );
      // A fresh process, so the garbage of provisioning does not blur the measurement.
      const server = await startInstance(env);
      try {
        const { before, after } = await idle(`mqtt://127.0.0.1:${mqttPort}`, devices, () => server.pid);
        rows.push({
          broker: 'Fieldlink embedded broker (Aedes, in the server process)',
          devices: devices.length,
          before,
          after,
        });
      } finally {
        await server.kill('SIGTERM');
      }
    } catch (error) {
      failed = true;
      findings.push(`Embedded broker: failed: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }

    try {
      options.log(`  Mosquitto: provisioning ${MOSQUITTO_DEVICES} devices into dynamic security`);
      const mosquitto = await startMosquitto();
      const sqliteDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fieldlink-idle-'));
      try {
        const server = await startInstance({
          DATABASE_URL: path.join(sqliteDir, 'fieldlink.db'),
          MQTT_URL: mosquitto.url,
          MQTT_ADMIN_USERNAME: mosquitto.adminUsername,
          MQTT_ADMIN_PASSWORD: mosquitto.adminPassword,
        });
        try {
          const devices = await provision(server, MOSQUITTO_DEVICES, 'Idle device');
          // A fresh broker process (accounts kept in its dynamic-security file), so memory freed
          // while provisioning is not reused by the connections unseen.
          await mosquitto.stop();
          await mosquitto.start();
          const serverBefore = processUsage(server.pid).rssBytes;
          const { before, after } = await idle(mosquitto.url, devices, () => mosquitto.pid()!);
          rows.push({ broker: 'Mosquitto 2.0 (dynamic security)', devices: devices.length, before, after });
          const serverAfter = processUsage(server.pid).rssBytes;
          if (after - before < devices.length * 1024) {
            findings.push(
              'Mosquitto: a figure near zero means the connections fit in memory the broker had already taken ' +
                'from the system and freed (loading its dynamic-security file at start), so resident memory did ' +
                'not grow: each idle connection costs Mosquitto less than 1 KiB here.',
            );
          }
          findings.push(
            `Behind Mosquitto the Fieldlink instance holds no per-device connection: its resident memory went from ` +
              `${formatBytes(serverBefore)} to ${formatBytes(serverAfter)} while the devices connected.`,
          );
        } finally {
          await server.kill('SIGTERM');
        }
      } finally {
        await mosquitto.close();
        fs.rmSync(sqliteDir, { recursive: true, force: true });
      }
    } catch (error) {
      failed = true;
      findings.push(`Mosquitto: failed: ${error instanceof Error ? error.message : String(error)}`);
    }

    const table: BenchTable = {
      caption: 'Resident memory of the broker process, before and with the devices connected',
      columns: [
        'Broker',
        'Idle devices',
        'RSS before',
        'RSS connected',
        'Per connection',
        '100,000 connections',
        'Anchor',
      ],
      rows: rows.map((row) => {
        const per = (row.after - row.before) / row.devices;
        return [
          row.broker,
          formatCount(row.devices),
          formatBytes(row.before),
          formatBytes(row.after),
          `**${(per / 1024).toFixed(1)} KiB**`,
          `${((per * 100_000) / 2 ** 30).toFixed(2)} GiB`,
          'ThingsBoard: 6.5 GB for 100,000 (65 KiB each)',
        ];
      }),
    };
    return {
      method: [
        'Devices are provisioned through `POST /api/v1/device`, connect over MQTT 3.1.1 with their own credentials ' +
          '(20 at a time), subscribe to their command topic and then stay idle (keep-alive 60 s). The broker ' +
          `process's resident memory is read from /proc ${SETTLE_MS / 1000} s after provisioning and again ` +
          `${SETTLE_MS / 1000} s after the last device subscribed; the difference over the number of devices is ` +
          'the cost of one idle connection (socket buffers, session, subscription, credential cache).',
      ],
      tables: [table],
      findings,
      failed,
    };
  },
};
