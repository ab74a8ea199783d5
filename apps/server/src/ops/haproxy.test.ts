import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { MqttClient } from 'mqtt';
import WebSocket from 'ws';
import { deviceUpTopic } from '@fieldlink/api/mqtt-topics';
import { REALTIME_PATH, REALTIME_PROTOCOL, type ServerAction } from '@fieldlink/api/realtime';
import { freePort } from '../../testing/ports';
import { HAPROXY_BIN } from '../../testing/cluster/haproxy';
import { demoFleet } from '../seed/seed';
import { DEMO_PASSWORD, startTestApp, type TestApp } from '../../testing/test-app';
import { until } from '../../testing/until';

const CONFIG = path.resolve(__dirname, '../../../../docs/haproxy/fieldlink.cfg');

/**
 * Issue 40 item 2: the HAProxy configuration of docs/haproxy/fieldlink.cfg, run by Debian's haproxy
 * in front of an instance with its embedded broker: sign-in, the real-time channel and a device go
 * through it; the instance counts limits by the client's own address (X-Forwarded-For with
 * TRUST_PROXY=1, the PROXY protocol v2 with MQTT_PROXY_PROTOCOL=1), not HAProxy's.
 */
describe.skipIf(!existsSync(HAPROXY_BIN))('behind HAProxy', () => {
  let t: TestApp;
  let haproxy: ChildProcess;
  let haproxyLog = '';
  let httpUrl: string;
  let mqttPort: number;
  let passwords: Map<string, string>;
  const closers: (() => unknown)[] = [];

  beforeAll(async () => {
    t = await startTestApp('sqlite', {
      mqtt: true,
      listen: true,
      env: { TRUST_PROXY: '1', MQTT_PROXY_PROTOCOL: '1' },
    });
    passwords = new Map((await demoFleet(t.app.storage.db)).map((device) => [device.thingName, device.password]));
    const httpPort = await freePort();
    mqttPort = await freePort();
    haproxy = spawn(HAPROXY_BIN, ['-db', '-f', CONFIG], {
      env: {
        PATH: process.env.PATH,
        FIELDLINK_HTTP_BIND: `127.0.0.1:${httpPort}`,
        FIELDLINK_MQTT_BIND: `127.0.0.1:${mqttPort}`,
        FIELDLINK_A_HTTP: `127.0.0.1:${(t.app.server.address() as net.AddressInfo).port}`,
        FIELDLINK_A_MQTT: `127.0.0.1:${t.app.broker!.port}`,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    haproxy.stdout!.on('data', (chunk: Buffer) => (haproxyLog += chunk.toString()));
    haproxy.stderr!.on('data', (chunk: Buffer) => (haproxyLog += chunk.toString()));
    httpUrl = `http://127.0.0.1:${httpPort}`;
    // Up once its health check has found the instance ready.
    await until(async () => (await fetch(`${httpUrl}/api/v1/ready`).catch(() => null))?.status === 200, 60_000).catch(
      (error: unknown) => {
        throw new Error(`${String(error)}; haproxy said:\n${haproxyLog}`);
      },
    );
  }, 120_000);
  afterAll(async () => {
    for (const close of closers) await close();
    haproxy?.kill('SIGTERM');
    await t?.close();
  });

  /** Connects, or rejects when the broker refuses or closes the connection. */
  const attempt = (port: number, thingName: string, password: string, localAddress = '127.0.0.1') =>
    new Promise<MqttClient>((resolve, reject) => {
      // From `localAddress`: another loopback address is another client.
      const client = new MqttClient(() => net.createConnection({ host: '127.0.0.1', port, localAddress }), {
        clientId: thingName,
        username: thingName,
        password,
        protocolVersion: 4,
        reconnectPeriod: 0,
        connectTimeout: 10_000,
      });
      const fail = (error: Error) => {
        client.end(true);
        reject(error);
      };
      client.once('connect', () => {
        closers.push(() => client.endAsync(true));
        resolve(client);
      });
      client.once('error', fail);
      client.once('close', () => fail(new Error('closed')));
    });
  /** A device connecting through HAProxy from `localAddress`. */
  const connectDevice = (thingName: string, password: string, localAddress: string) =>
    attempt(mqttPort, thingName, password, localAddress);

  it('signs in and holds the real-time channel through it', async () => {
    const signIn = await fetch(`${httpUrl}/api/v1/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ops@fieldlink.test', password: DEMO_PASSWORD }),
    });
    expect(signIn.status, haproxyLog).toBe(200);
    const { jwt } = (await signIn.json()) as { jwt: string };
    const socket = new WebSocket(`${httpUrl.replace('http', 'ws')}${REALTIME_PATH}`, [REALTIME_PROTOCOL, jwt], {
      origin: httpUrl,
    });
    closers.push(() => socket.close());
    const received: ServerAction[] = [];
    socket.on('message', (data) => received.push(JSON.parse(data.toString()) as ServerAction));
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    socket.send(JSON.stringify({ type: 'server/subscribeDevices', id: 's1', thingNames: ['ACME-BLR01'] }));
    await until(() => received.some((action) => action.type === 'server/reply' && action.id === 's1' && action.ok));

    // A device's frame through HAProxy reaches the browser through HAProxy.
    const device = await connectDevice('ACME-BLR01', passwords.get('ACME-BLR01')!, '127.0.0.1');
    await device.publishAsync(
      deviceUpTopic('ACME-BLR01'),
      JSON.stringify({ v: 4, type: 'log', t: Date.now(), values: { c1: 61.5 } }),
      { qos: 1 },
    );
    await until(() => JSON.stringify(received).includes('61.5'));
  });

  it('counts failed device connects by the device’s own address, so one client cannot lock out another', async () => {
    // 20 failed connects a minute from one address, then its connections are closed unanswered.
    for (let i = 0; i < 21; i += 1) {
      await expect(connectDevice('ACME-BLR02', 'wrong', '127.0.0.2')).rejects.toThrow();
    }
    // Through the same HAProxy, another client's device still gets in: without the PROXY protocol
    // every connection would come from HAProxy's address, and this one would be refused too.
    const other = await connectDevice('ACME-BLR02', passwords.get('ACME-BLR02')!, '127.0.0.3');
    expect(other.connected).toBe(true);
    await expect(connectDevice('ACME-BLR02', passwords.get('ACME-BLR02')!, '127.0.0.2')).rejects.toThrow();
  }, 120_000);

  it('closes a connection to the broker that does not come through the proxy', async () => {
    await expect(attempt(t.app.broker!.port, 'ACME-BLR03', passwords.get('ACME-BLR03')!)).rejects.toThrow();
  });
});
