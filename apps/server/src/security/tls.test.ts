import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { X509Certificate } from 'node:crypto';
import mqtt, { type MqttClient } from 'mqtt';
import WebSocket from 'ws';
import { deviceUpTopic } from '@fieldlink/api/mqtt-topics';
import { REALTIME_PATH, REALTIME_PROTOCOL, type ServerAction } from '@fieldlink/api/realtime';
import { freePort } from '../../testing/ports';
import { moveInbox } from '../db/log-inbox';
import { demoFleet } from '../seed/seed';
import { signIn, startTestApp, type TestApp } from '../../testing/test-app';
import { until } from '../../testing/until';

/** A self-signed certificate for localhost and 127.0.0.1, made as an operator would with openssl. */
function makeCertificate(dir: string, name: string): { cert: string; key: string } {
  const certFile = path.join(dir, `${name}.crt`);
  const keyFile = path.join(dir, `${name}.key`);
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      keyFile,
      '-out',
      certFile,
      '-days',
      '2',
      '-subj',
      `/CN=localhost/O=${name}`,
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  return { cert: fs.readFileSync(certFile, 'utf8'), key: fs.readFileSync(keyFile, 'utf8') };
}

const fingerprint = (pem: string) => new X509Certificate(pem).fingerprint256;

/** The certificate a new TLS connection to the port is given, checked against `ca`. */
function servedCertificate(port: number, ca: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ host: '127.0.0.1', port, servername: 'localhost', ca }, () => {
      resolve(socket.getPeerX509Certificate()!.fingerprint256);
      socket.end();
    });
    socket.once('error', reject);
  });
}

/** One HTTPS GET, checked against `ca`. */
function httpsGet(url: string, ca: string[]): Promise<{ status: number; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    https
      .get(url, { ca, servername: 'localhost' }, (response) => {
        response.resume();
        resolve({ status: response.statusCode!, headers: response.headers });
      })
      .once('error', reject);
  });
}

/**
 * Issue 40 item 1: TLS in the embedded mode. The server answers HTTPS, WSS (real-time channel and
 * MQTT over WebSocket) on its port and MQTT over TLS on its own; plain MQTT is off (`MQTT_PORT=0`);
 * a renewed certificate written over the files is used by new connections without a restart while
 * open ones stay up. Transport only: one dialect is enough.
 */
describe('TLS in the embedded mode', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fieldlink-tls-'));
  const certFile = path.join(dir, 'fullchain.pem');
  const keyFile = path.join(dir, 'privkey.pem');
  const first = makeCertificate(dir, 'first');
  const renewed = makeCertificate(dir, 'renewed');
  const ca = [first.cert, renewed.cert];
  let t: TestApp;
  let port: number;
  let mqttTlsPort: number;
  let passwords: Map<string, string>;
  const closers: (() => unknown)[] = [];

  beforeAll(async () => {
    fs.writeFileSync(certFile, first.cert);
    fs.writeFileSync(keyFile, first.key);
    t = await startTestApp('sqlite', {
      mqtt: true,
      plainMqtt: false,
      listen: true,
      env: { TLS_CERT_FILE: certFile, TLS_KEY_FILE: keyFile, MQTT_TLS_PORT: String(await freePort()) },
    });
    port = (t.app.server.address() as { port: number }).port;
    mqttTlsPort = t.app.broker!.tlsPort!;
    passwords = new Map((await demoFleet(t.app.storage.db)).map((device) => [device.thingName, device.password]));
  }, 120_000);
  afterAll(async () => {
    for (const close of closers) await close();
    await t?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const connectDevice = async (url: string, thingName: string): Promise<MqttClient> => {
    const client = await mqtt.connectAsync(url, {
      clientId: thingName,
      username: thingName,
      password: passwords.get(thingName),
      ca,
      servername: 'localhost',
      reconnectPeriod: 0,
    });
    closers.push(() => client.endAsync(true));
    return client;
  };

  it('answers HTTPS with HSTS, at TLS 1.2 or later, and not plain HTTP', async () => {
    const health = await httpsGet(`https://127.0.0.1:${port}/api/v1/health`, ca);
    expect(health.status).toBe(200);
    expect(health.headers['strict-transport-security']).toBe('max-age=31536000');
    await expect(
      new Promise((resolve, reject) =>
        http.get(`http://127.0.0.1:${port}/api/v1/health`, resolve).once('error', reject),
      ),
    ).rejects.toThrow();
    // TLS 1.1 is refused by the server (the client here would allow it).
    await expect(
      new Promise((resolve, reject) => {
        const socket = tls.connect(
          {
            host: '127.0.0.1',
            port,
            ca,
            servername: 'localhost',
            minVersion: 'TLSv1',
            maxVersion: 'TLSv1.1',
            ciphers: 'DEFAULT@SECLEVEL=0',
          },
          () => resolve(socket.getProtocol()),
        );
        socket.once('error', reject);
      }),
    ).rejects.toThrow(/protocol|version/i);
    const tls12 = await new Promise<string | null>((resolve, reject) => {
      const socket = tls.connect(
        { host: '127.0.0.1', port, ca, servername: 'localhost', maxVersion: 'TLSv1.2' },
        () => {
          resolve(socket.getProtocol());
          socket.end();
        },
      );
      socket.once('error', reject);
    });
    expect(tls12).toBe('TLSv1.2');
  });

  it('takes a device over MQTT with TLS and over WSS, with its own credentials; no plain MQTT', async () => {
    expect(t.app.broker!.port).toBe(0);
    expect(t.app.broker!.deviceUrl).toBe(`mqtts://127.0.0.1:${mqttTlsPort}`);
    const overTls = await connectDevice(`mqtts://127.0.0.1:${mqttTlsPort}`, 'ACME-BLR01');
    const frameTime = Date.now();
    await overTls.publishAsync(
      deviceUpTopic('ACME-BLR01'),
      JSON.stringify({ v: 4, type: 'log', t: frameTime, values: { c1: 42.5 } }),
      { qos: 1 },
    );
    // The PUBACK means stored (SQLite's inbox moved first, as readers of latest values move it).
    await moveInbox(t.app.storage.db);
    const stored = await t.app.storage.db
      .selectFrom('latest_values')
      .innerJoin('devices', 'devices.id', 'latest_values.device_id')
      .select(['latest_values.value', 'latest_values.t'])
      .where('devices.thing_name', '=', 'ACME-BLR01')
      .where('latest_values.code', '=', 'c1')
      .executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ value: 42.5, t: frameTime });
    const overWss = await connectDevice(`wss://127.0.0.1:${port}/mqtt`, 'ACME-BLR02');
    expect(overWss.connected).toBe(true);
    await expect(
      mqtt.connectAsync(`mqtts://127.0.0.1:${mqttTlsPort}`, {
        clientId: 'ACME-BLR02',
        username: 'ACME-BLR02',
        password: 'not-its-password',
        ca,
        servername: 'localhost',
        reconnectPeriod: 0,
      }),
    ).rejects.toThrow(/Bad username or password|Not authorized/i);
  });

  it('uses a renewed certificate for new connections without a restart; open ones stay up', async () => {
    const device = await connectDevice(`mqtts://127.0.0.1:${mqttTlsPort}`, 'ACME-COLD01');
    let deviceClosed = false;
    device.on('close', () => (deviceClosed = true));
    const token = await signIn(t.app, 'ops@fieldlink.test');
    const browser = new WebSocket(`wss://127.0.0.1:${port}${REALTIME_PATH}`, [REALTIME_PROTOCOL, token], { ca });
    closers.push(() => browser.close());
    const received: ServerAction[] = [];
    browser.on('message', (data) => received.push(JSON.parse(data.toString()) as ServerAction));
    await new Promise((resolve, reject) => browser.once('open', resolve).once('error', reject));
    expect(await servedCertificate(port, ca)).toBe(fingerprint(first.cert));

    // A renewal writes the new key and certificate over the old files (certbot's deploy does so through links).
    fs.writeFileSync(keyFile, renewed.key);
    fs.writeFileSync(certFile, renewed.cert);
    await until(async () => (await servedCertificate(port, ca)) === fingerprint(renewed.cert), 60_000);
    await until(async () => (await servedCertificate(mqttTlsPort, ca)) === fingerprint(renewed.cert), 60_000);

    // The connections made before the renewal carry on.
    expect(deviceClosed).toBe(false);
    await device.publishAsync(
      deviceUpTopic('ACME-COLD01'),
      JSON.stringify({ v: 4, type: 'log', t: Date.now(), values: { st1: 3.5 } }),
      { qos: 1 },
    );
    browser.send(JSON.stringify({ type: 'server/subscribeDevices', id: 'after-renewal', thingNames: ['ACME-COLD01'] }));
    await until(() => received.some((action) => action.type === 'server/reply' && action.id === 'after-renewal'));
    expect(browser.readyState).toBe(WebSocket.OPEN);
  }, 120_000);
});
