import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt, { type MqttClient } from 'mqtt';
import mqttPacket from 'mqtt-packet';
import { deviceDownTopic, deviceUpTopic } from '@fieldlink/api/mqtt-topics';
import type { DeviceCommand } from '@fieldlink/api/device-frames';
import { demoFleet } from '../seed/seed';
import { DIALECTS, baseUrl, signIn, startTestApp, type TestApp } from '../../testing/test-app';
import { until } from '../../testing/until';
import { ManualTimers } from '../../testing/manual-timers';

/**
 * Commands per stalled device: first large ones, more than loopback's socket buffers take (4 MiB at
 * most with Linux's defaults), then ordinary ones, which wait in the broker.
 */
const LARGE_COMMANDS = 3000;
const COMMANDS = 5000;
const STALLED = ['ACME-BLR01', 'ACME-BLR02'];
const HEALTHY = 'MTW-PUMP01';
/** The configured drain timeout; it runs on timers the test moves, so no wall clock races the test. */
const DRAIN_TIMEOUT_MS = 8000;
/**
 * How long the test waits for the flood's effects (both sockets full, both devices dropped with their
 * 16,000 deliveries): about a second quiet, several at load 16 beside a full run; CI machines are
 * 2-3 times slower.
 */
const FLOOD_WAIT_MS = 60_000;

/**
 * A device on a raw TCP connection that subscribes to its command topic at QoS 1, then stops reading
 * its socket and only sends PINGREQ, so it looks alive while the broker's writes to it pile up.
 */
async function stalledDevice(port: number, thingName: string, password: string) {
  const socket = net.createConnection({ port, host: '127.0.0.1' });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  const parser = mqttPacket.parser();
  const seen: string[] = [];
  parser.on('packet', (packet) => seen.push(packet.cmd));
  socket.on('data', (chunk) => parser.parse(chunk));
  socket.on('error', () => undefined);
  socket.write(
    mqttPacket.generate({
      cmd: 'connect',
      protocolId: 'MQTT',
      protocolVersion: 4,
      clientId: thingName,
      username: thingName,
      password: Buffer.from(password),
      clean: true,
      keepalive: 5,
    }),
  );
  await until(() => seen.includes('connack'));
  socket.write(
    mqttPacket.generate({
      cmd: 'subscribe',
      messageId: 1,
      subscriptions: [{ topic: deviceDownTopic(thingName), qos: 1 }],
    }),
  );
  await until(() => seen.includes('suback'));
  socket.pause();
  const ping = setInterval(() => socket.write(mqttPacket.generate({ cmd: 'pingreq' })), 1000);
  socket.once('close', () => clearInterval(ping));
  return () => {
    clearInterval(ping);
    socket.destroy();
  };
}

describe.each(DIALECTS)('a device that stops reading its socket, on %s', (dialect) => {
  let t: TestApp;
  let passwords: Map<string, string>;
  const closers: (() => unknown)[] = [];
  const logLines: string[] = [];
  const timers = new ManualTimers();

  beforeAll(async () => {
    t = await startTestApp(dialect, {
      mqtt: true,
      listen: true,
      env: { MQTT_DRAIN_TIMEOUT_MS: String(DRAIN_TIMEOUT_MS) },
      timers,
      logLines,
    });
    passwords = new Map((await demoFleet(t.app.storage.db)).map((device) => [device.thingName, device.password]));
  });
  afterAll(async () => {
    for (const close of closers) await close();
    await t?.close();
  });

  it('is dropped with its queued commands while other devices go on, and the process lives on', async () => {
    const broker = t.app.broker!;
    const healthy: MqttClient = await mqtt.connectAsync(`mqtt://127.0.0.1:${broker.port}`, {
      clientId: HEALTHY,
      username: HEALTHY,
      password: passwords.get(HEALTHY),
      reconnectPeriod: 0,
    });
    closers.push(() => healthy.endAsync(true));
    const stalled = await Promise.all(
      STALLED.map((thingName) => stalledDevice(broker.port, thingName, passwords.get(thingName)!)),
    );
    closers.push(...stalled);
    await until(() => broker.connectedClients() === 1 + STALLED.length);

    // The flood: far more commands than the stalled sockets take, all waiting in the broker at once.
    const exp = Date.now() + 600_000;
    const deliveries: Promise<unknown>[] = [];
    for (let i = 0; i < LARGE_COMMANDS + COMMANDS; i += 1) {
      const tzRule = i < LARGE_COMMANDS ? 'x'.repeat(2000) : 'UTC0';
      for (const thingName of STALLED) {
        const command: DeviceCommand = {
          v: 4,
          id: `flood-${i}`,
          exp,
          cmd: 'timeDate',
          tzName: 'Europe/Zurich',
          tzRule,
        };
        deliveries.push(broker.sendCommand(thingName, command).catch(() => undefined));
      }
    }

    // Both stalled sockets fill: each has its drain timer, running from the moment it filled. The
    // flood takes its time at load, so the wait is generous.
    await until(() => timers.waiting() === STALLED.length, FLOOD_WAIT_MS, { what: 'Both stalled sockets full' });

    // Another device's frames are stored and acknowledged while the stalled ones hold their
    // deliveries, and the count is read once they do: a stalled subscriber does not hold up the
    // broker, and is not dropped before its timeout.
    const t0 = Date.now();
    for (let i = 0; i < 5; i += 1) {
      await healthy.publishAsync(
        deviceUpTopic(HEALTHY),
        JSON.stringify({ v: 4, type: 'log', t: t0 + i, values: { c1: i } }),
        { qos: 1 },
      );
    }
    expect(timers.waiting()).toBe(STALLED.length);
    expect(broker.connectedClients()).toBe(1 + STALLED.length);

    // The clock has not moved since the sockets filled. One millisecond short of the timeout they are
    // kept: a frame round trip later, both are still connected.
    expect(timers.nextDue()).toBe(DRAIN_TIMEOUT_MS);
    timers.advance(DRAIN_TIMEOUT_MS - 1);
    await healthy.publishAsync(
      deviceUpTopic(HEALTHY),
      JSON.stringify({ v: 4, type: 'log', t: t0 + 5, values: { c1: 5 } }),
      { qos: 1 },
    );
    expect(broker.connectedClients()).toBe(1 + STALLED.length);

    // At the timeout the drain timer drops both; their queued deliveries end without taking the
    // process along.
    timers.advance(1);
    await until(() => broker.connectedClients() === 1, FLOOD_WAIT_MS, { what: 'Both stalled devices dropped' });
    await Promise.all(deliveries);
    // Each dropped connection is logged once, not once per command that was waiting for it.
    const clientErrors = logLines.filter((line) => line.includes('"MQTT client error"'));
    for (const thingName of STALLED) {
      expect(
        clientErrors.filter((line) => line.includes(`"thingName":"${thingName}"`)),
        thingName,
      ).toHaveLength(1);
    }

    // Everything else still answers: the API, the broker for a healthy device, a new connection.
    const token = await signIn(t.app, 'viewer@fieldlink.test');
    const self = await fetch(`${baseUrl(t.app)}/api/v1/self`, { headers: { authorization: `Bearer ${token}` } });
    expect(self.status).toBe(200);
    await healthy.publishAsync(
      deviceUpTopic(HEALTHY),
      JSON.stringify({ v: 4, type: 'log', t: Date.now(), values: { c1: 99 } }),
      { qos: 1 },
    );
    const again = await stalledDevice(broker.port, STALLED[0]!, passwords.get(STALLED[0]!)!);
    closers.push(again);
    await until(() => broker.connectedClients() === 2);
  }, 180_000);
});
