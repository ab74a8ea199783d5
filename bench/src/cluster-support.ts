import fs from 'node:fs';
import mqtt, { type MqttClient } from 'mqtt';
import WebSocket from 'ws';
import { deviceUpTopic } from '@fieldlink/api/mqtt-topics';
import { REALTIME_PATH, REALTIME_PROTOCOL } from '@fieldlink/api/realtime';
import { startServerProcess, type ServerProcess } from '@fieldlink/server/testing';
import { LatencyHistogram } from './latency-histogram';

/**
 * What the cluster, fan-out and idle-memory benchmarks share: real server processes started as an
 * operator starts them (`node apps/server/src/main.ts`), devices provisioned through the API, MQTT
 * devices publishing at a fixed rate, browser sockets timing what they receive, and the CPU and memory
 * of other processes read from /proc.
 */

export const DEMO_PASSWORD = 'bench-demo-password';
const PROVISIONER = 'ops@fieldlink.test';
/** `viewer@fieldlink.test` sees every device `ops@` provisions (same account, VIEW_DASH). */
export const WATCHER = 'viewer@fieldlink.test';

export interface Credentials {
  thingName: string;
  password: string;
}

export function startInstance(
  env: Record<string, string>,
  nodeOptions: readonly string[] = [],
): Promise<ServerProcess> {
  return startServerProcess(
    { FIELDLINK_DEMO_PASSWORD: DEMO_PASSWORD, FIELDLINK_SIMULATOR: '0', LOG_LEVEL: 'warn', ...env },
    { timeoutMs: 180_000, nodeOptions },
  );
}

export async function signIn(server: ServerProcess, email: string): Promise<string> {
  const response = await fetch(`${server.url}/api/v1/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: DEMO_PASSWORD }),
  });
  if (!response.ok) throw new Error(`Sign-in failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { jwt: string }).jwt;
}

/** Devices provisioned as a customer would (`POST /api/v1/device`), eight calls at a time. */
export async function provision(server: ServerProcess, count: number, prefix: string): Promise<Credentials[]> {
  const jwt = await signIn(server, PROVISIONER);
  const devices: Credentials[] = [];
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < count; i = next++) {
      const response = await fetch(`${server.url}/api/v1/device`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: jwt },
        body: JSON.stringify({ name: `${prefix} ${i + 1}` }),
      });
      if (!response.ok) throw new Error(`Provisioning failed: ${response.status} ${await response.text()}`);
      devices.push(((await response.json()) as { credentials: Credentials }).credentials);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return devices;
}

export async function connectDevices(
  url: string,
  devices: readonly Credentials[],
  concurrency = 20,
): Promise<MqttClient[]> {
  const clients: MqttClient[] = new Array(devices.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < devices.length; i = next++) {
      const { thingName, password } = devices[i]!;
      clients[i] = await mqtt.connectAsync(url, {
        clientId: thingName,
        username: thingName,
        password,
        reconnectPeriod: 0,
        connectTimeout: 30_000,
      });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return clients;
}

/**
 * Devices publishing QoS 1 `log` frames of `valuesPerFrame` channels at a fixed total rate, each
 * frame stamped with the time it is sent (so a browser can time its arrival). Open loop: a frame
 * whose device still waits for `window` acknowledgements is counted as skipped, not queued.
 */
export class SteadyLoad {
  private timer: NodeJS.Timeout | null = null;
  private readonly inFlight: number[];
  private readonly lastT: number[];
  readonly counts = { sent: 0, acked: 0, skipped: 0 };

  constructor(
    private readonly clients: readonly MqttClient[],
    private readonly topics: readonly string[],
    private readonly valuesPerFrame: number,
    private readonly window = 8,
  ) {
    this.inFlight = clients.map(() => 0);
    this.lastT = clients.map(() => 0);
  }

  static of(clients: readonly MqttClient[], devices: readonly Credentials[], valuesPerFrame: number): SteadyLoad {
    return new SteadyLoad(
      clients,
      devices.map((device) => deviceUpTopic(device.thingName)),
      valuesPerFrame,
    );
  }

  /** Starts sending `framesPerSecond` in all, spread over the devices in 10 ms ticks. */
  start(framesPerSecond: number): void {
    this.stop();
    let owed = 0;
    let device = 0;
    let last = performance.now();
    this.timer = setInterval(() => {
      const now = performance.now();
      owed += ((now - last) / 1000) * framesPerSecond;
      last = now;
      for (; owed >= 1; owed -= 1) {
        this.send(device);
        device = (device + 1) % this.clients.length;
      }
    }, 10);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private send(index: number): void {
    if (this.inFlight[index]! >= this.window) {
      this.counts.skipped += 1;
      return;
    }
    const t = Math.max(Date.now(), this.lastT[index]! + 1);
    this.lastT[index] = t;
    const values: Record<string, number> = {};
    for (let i = 1; i <= this.valuesPerFrame; i += 1) values[`c${i}`] = (i * 7 + (t % 1000)) / 10;
    this.inFlight[index]! += 1;
    this.counts.sent += 1;
    this.clients[index]!.publish(
      this.topics[index]!,
      JSON.stringify({ v: 4, type: 'log', t, values }),
      { qos: 1 },
      () => {
        this.inFlight[index]! -= 1;
        this.counts.acked += 1;
      },
    );
  }
}

/** A value's message starts so; its sample time follows `"t":` as 13 digits (unix milliseconds). */
const NEW_RAW_LOGS_PREFIX = Buffer.from('{"type":"server/newRawLogs"');
const SAMPLE_TIME_KEY = Buffer.from('"t":');
const DIGIT_0 = 0x30;

/**
 * The sample time of a `server/newRawLogs` message, read from its bytes (no string, no JSON parse: a
 * benchmark's 10,000 sockets share the server's cores, where browsers would not), or null.
 */
export function sampleTime(message: Buffer): number | null {
  if (message.compare(NEW_RAW_LOGS_PREFIX, 0, NEW_RAW_LOGS_PREFIX.length, 0, NEW_RAW_LOGS_PREFIX.length) !== 0)
    return null;
  const at = message.indexOf(SAMPLE_TIME_KEY, NEW_RAW_LOGS_PREFIX.length);
  if (at < 0 || at + SAMPLE_TIME_KEY.length + 13 > message.length) return null;
  let time = 0;
  for (let i = at + SAMPLE_TIME_KEY.length, end = i + 13; i < end; i++) {
    const digit = message[i]! - DIGIT_0;
    if (digit < 0 || digit > 9) return null;
    time = time * 10 + digit;
  }
  return time;
}

/** A browser socket that times every device value it receives against the sample's own time. */
export class TimedSocket {
  received = 0;

  /** `latency` may be shared by many sockets (one histogram is 8 MB). */
  private constructor(
    readonly socket: WebSocket,
    readonly latency: LatencyHistogram,
  ) {
    socket.on('message', (data) => {
      const time = sampleTime(data as Buffer);
      if (time === null) return;
      this.received += 1;
      this.latency.record(Date.now() - time);
    });
  }

  static open(server: ServerProcess, token: string, latency = new LatencyHistogram()): Promise<TimedSocket> {
    // Without UTF-8 validation (the server's frames are its own JSON): the sample time is all it reads.
    const socket = new WebSocket(`${server.url.replace('http', 'ws')}${REALTIME_PATH}`, [REALTIME_PROTOCOL, token], {
      skipUTF8Validation: true,
    });
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(new TimedSocket(socket, latency)));
      socket.once('error', reject);
    });
  }

  subscribe(thingNames: readonly string[]): Promise<void> {
    const id = `s${Math.random().toString(36).slice(2)}`;
    return new Promise((resolve, reject) => {
      const onMessage = (data: WebSocket.RawData) => {
        const reply = JSON.parse(data.toString()) as { type: string; id?: string; ok?: boolean; error?: string };
        if (reply.type !== 'server/reply' || reply.id !== id) return;
        this.socket.off('message', onMessage);
        if (reply.ok) resolve();
        else reject(new Error(reply.error));
      };
      this.socket.on('message', onMessage);
      this.socket.send(JSON.stringify({ type: 'server/subscribeDevices', id, thingNames }));
    });
  }
}

/** CPU seconds (user + system) and resident memory of another process, from /proc. */
export function processUsage(pid: number): { cpuSeconds: number; rssBytes: number } {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return { cpuSeconds: ticks / 100, rssBytes: rssKb * 1024 };
}

/** One sample of a Prometheus answer, summed over its label sets. */
export async function metric(server: ServerProcess, name: string): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  let total = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith(`${name} `) || line.startsWith(`${name}{`))
      total += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return total;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
