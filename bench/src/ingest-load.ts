import http from 'node:http';
import { connectAsync, type MqttClient } from 'mqtt';
import { deviceUpTopic } from '@fieldlink/api/mqtt-topics';
import { newId } from '@fieldlink/server/testing';
import { serveRpc } from './child-rpc';
import {
  POINTS_PER_FRAME,
  type DeviceCredentials,
  type LoadCalls,
  type LoadMark,
  type LoadWindow,
  type LoadStage,
  type LoadTarget,
  type LoadTotals,
} from './ingest-calls';
import { LatencyHistogram, type LatencySummary } from './latency-histogram';
import { DirectLogWriter } from './peers/limits';
import { ProcessMeter } from './process-meter';

/**
 * The load generator of the ingest benchmark, in a process of its own so that its CPU is spent on
 * the same cores as the server's: one MQTT client per device, each with its own credentials,
 * publishing version 4 log frames of ten channels at QoS 1 and timing each publish to its PUBACK
 * (which the server sends only once the frame is stored). The same devices and frames go to a bare
 * broker, or to InfluxDB as line protocol over HTTP, for the figures beside Fieldlink's.
 */

const CONNECT_CONCURRENCY = 20;
const TICK_MS = 5;
const DRAIN_TIMEOUT_MS = 30_000;
/** HTTP connections a device keeps: as many as the most frames any stage lets it have in flight. */
const MAX_IN_FLIGHT_PER_DEVICE = 4;
const CODES = Array.from({ length: POINTS_PER_FRAME }, (_, i) => `c${i + 1}`);
// Precomputed value texts: the generator should spend its CPU on MQTT, as a real fleet does, not on
// formatting random numbers.
const VALUE_TEXTS = Array.from({ length: 1024 }, (_, i) => (20 + Math.sin(i) * 15).toFixed(2));

const meter = new ProcessMeter();
const latency = new LatencyHistogram();
const sampleLatency = new LatencyHistogram();
const sinceMark = { acked: 0, published: 0, dropped: 0, peakBacklog: 0 };
const totals: LoadTotals = { publishedFrames: 0, ackedFrames: 0, failedFrames: 0, disconnects: 0 };
let stage: (LoadStage & { startedAt: number; offered: number; timer: NodeJS.Timeout | null }) | null = null;
let stopping = false;

/** How a device sends a frame (sampled at `t`, one value text per channel) and how it hangs up. */
interface DeviceLink {
  send(t: number, values: readonly string[], done: (error?: Error) => void): void;
  close(): Promise<void>;
}

class BenchDevice {
  private inFlight = 0;
  /** Sample times (ms since epoch) of frames waiting for a free in-flight slot. */
  private readonly backlog: number[] = [];
  private lastT = 0;
  private valueIndex: number;

  constructor(
    readonly link: DeviceLink,
    index: number,
  ) {
    this.valueIndex = index * 7;
  }

  get busy(): number {
    return this.inFlight;
  }

  /** Open loop: a sample is due now; send it, or keep it until a slot frees. */
  sample(limits: LoadStage): void {
    if (this.backlog.length >= limits.backlogPerDevice) {
      sinceMark.dropped += 1;
      return;
    }
    this.backlog.push(Date.now());
    this.pump(limits);
  }

  /** Forgets the frames still waiting: they belong to a stage that is over. */
  clearBacklog(): void {
    this.backlog.length = 0;
  }

  /** Closed loop: keep every slot busy with a frame sampled now. */
  fill(limits: LoadStage): void {
    while (this.inFlight < limits.inFlightPerDevice) this.publish(Date.now(), limits);
  }

  private pump(limits: LoadStage): void {
    while (this.inFlight < limits.inFlightPerDevice && this.backlog.length > 0) {
      this.publish(this.backlog.shift()!, limits);
    }
    if (this.backlog.length > sinceMark.peakBacklog) sinceMark.peakBacklog = this.backlog.length;
  }

  /** A frame's time in milliseconds, never twice the same (a repeat would be skipped), and its values. */
  private frame(sampledAt: number): [number, string[]] {
    const t = Math.max(sampledAt, this.lastT + 1);
    this.lastT = t;
    const values: string[] = [];
    for (let i = 0; i < CODES.length; i += 1) {
      this.valueIndex = (this.valueIndex + 1) & 1023;
      values.push(VALUE_TEXTS[this.valueIndex]!);
    }
    return [t, values];
  }

  private publish(sampledAt: number, limits: LoadStage): void {
    this.inFlight += 1;
    sinceMark.published += 1;
    totals.publishedFrames += 1;
    const sentAt = performance.now();
    const queuedMs = Date.now() - sampledAt;
    const [t, values] = this.frame(sampledAt);
    this.link.send(t, values, (error) => {
      this.inFlight -= 1;
      if (error) {
        totals.failedFrames += 1;
        return;
      }
      const ms = performance.now() - sentAt;
      totals.ackedFrames += 1;
      sinceMark.acked += 1;
      latency.record(ms);
      sampleLatency.record(ms + queuedMs);
      acks.add(ms);
      if (stopping || !stage) return;
      if (stage.framesPerSecond === null) this.fill(limits);
      else this.pump(limits);
    });
  }
}

/**
 * Every acknowledged frame of the stage running: when (performance.now()) and its latency, so that a
 * window can be chosen after the fact (the log maintenance stage's baseline, as long as the job).
 * Capacity for 1,000 s at 5,000 frames a second; frames past it are not logged.
 */
const acks = {
  at: new Float64Array(5_000_000),
  ms: new Float32Array(5_000_000),
  count: 0,
  add(ms: number): void {
    if (this.count >= this.at.length) return;
    this.at[this.count] = performance.now();
    this.ms[this.count] = ms;
    this.count += 1;
  },
  within(windows: readonly LoadWindow[]): LatencySummary {
    const histogram = new LatencyHistogram();
    for (let i = 0; i < this.count; i += 1) {
      const at = this.at[i]!;
      if (windows.some(({ fromMs, toMs }) => at >= fromMs && at < toMs)) histogram.record(this.ms[i]!);
    }
    return histogram.summary();
  },
};

let devices: BenchDevice[] = [];
let nextDevice = 0;

/** Open loop: the samples due by now, spread over the devices in turn. */
function tick(): void {
  if (!stage || stage.framesPerSecond === null || stopping) return;
  const due = Math.floor(((performance.now() - stage.startedAt) / 1000) * stage.framesPerSecond) - stage.offered;
  for (let i = 0; i < due; i += 1) {
    devices[nextDevice]!.sample(stage);
    nextDevice = (nextDevice + 1) % devices.length;
  }
  stage.offered += Math.max(0, due);
}

/** A version 4 `log` frame of the channels c1..c10. */
function logFrame(t: number, values: readonly string[]): string {
  let fields = '';
  for (let i = 0; i < CODES.length; i += 1) fields += `${i ? ',' : ''}"${CODES[i]}":${values[i]}`;
  return `{"v":4,"type":"log","t":${t},"values":{${fields}}}`;
}

/** The device's own MQTT connection; a frame is done at its PUBACK. */
async function mqttLink(credentials: DeviceCredentials, brokerUrl: string): Promise<DeviceLink> {
  const topic = deviceUpTopic(credentials.thingName);
  const client: MqttClient = await connectAsync(brokerUrl, {
    clientId: credentials.thingName,
    username: credentials.thingName,
    password: credentials.password,
    protocolVersion: 4,
    clean: true,
    keepalive: 60,
    connectTimeout: 10_000,
    // No reconnecting: a dropped connection during a run is a finding, counted and reported.
    reconnectPeriod: 0,
    will: { topic, payload: Buffer.from('{"v":4,"type":"conn","connected":false}'), qos: 1, retain: false },
  });
  client.on('close', () => {
    if (!stopping) totals.disconnects += 1;
  });
  client.on('error', () => undefined);
  return {
    send: (t, values, done) => client.publish(topic, logFrame(t, values), { qos: 1 }, (error) => done(error)),
    close: () => client.endAsync(),
  };
}

/**
 * The device's own keep-alive HTTP connections (as many as it may have frames in flight) to InfluxDB's
 * write endpoint, one line of line protocol per frame (a measurement `logs`, the device as a tag, a
 * field per channel, time in ms); a frame is done at its 204, once InfluxDB has it in its WAL.
 */
function influxLink(credentials: DeviceCredentials, writeUrl: string): DeviceLink {
  const agent = new http.Agent({ keepAlive: true, maxSockets: MAX_IN_FLIGHT_PER_DEVICE });
  const prefix = `logs,device=${credentials.thingName} `;
  return {
    send: (t, values, done) => {
      let fields = '';
      for (let i = 0; i < CODES.length; i += 1) fields += `${i ? ',' : ''}${CODES[i]}=${values[i]}`;
      const request = http.request(writeUrl, { method: 'POST', agent }, (response) => {
        response.resume();
        response.on('end', () =>
          done(response.statusCode === 204 ? undefined : new Error(`InfluxDB answered ${response.statusCode}`)),
        );
      });
      request.on('error', (error) => done(error));
      request.end(`${prefix}${fields} ${t}`);
    },
    close: async () => agent.destroy(),
  };
}

/** Each frame's rows straight into the database, batched as the frame writer batches them. */
function databaseLink(writer: DirectLogWriter): DeviceLink {
  const deviceId = newId();
  return {
    send: (t, values, done) => writer.write(deviceId, CODES, t, values, done),
    close: async () => undefined,
  };
}

async function linkOf(credentials: DeviceCredentials, target: LoadTarget): Promise<DeviceLink> {
  if (target.kind === 'mqtt') return mqttLink(credentials, target.brokerUrl);
  if (target.kind === 'influx') return influxLink(credentials, target.writeUrl);
  directWriter ??= DirectLogWriter.open(target.dialect, target.url, target.table);
  return databaseLink(await directWriter);
}

let directWriter: Promise<DirectLogWriter> | null = null;

function inFlightTotal(): number {
  return devices.reduce((sum, device) => sum + device.busy, 0);
}

serveRpc<LoadCalls>(
  {
    async connect({ target, devices: credentials }) {
      const started = performance.now();
      const connected: BenchDevice[] = [];
      for (let i = 0; i < credentials.length; i += CONNECT_CONCURRENCY) {
        const chunk = credentials.slice(i, i + CONNECT_CONCURRENCY);
        connected.push(
          ...(await Promise.all(chunk.map(async (device, j) => new BenchDevice(await linkOf(device, target), i + j)))),
        );
      }
      devices = connected;
      return { connectMs: performance.now() - started };
    },

    async startStage(params) {
      if (stage) throw new Error('A stage is already running');
      stopping = false;
      stage = { ...params, startedAt: performance.now(), offered: 0, timer: null };
      acks.count = 0;
      if (params.framesPerSecond === null) for (const device of devices) device.fill(params);
      else stage.timer = setInterval(tick, TICK_MS);
    },

    async mark(): Promise<LoadMark> {
      const mark: LoadMark = {
        usage: meter.mark(),
        ackedFrames: sinceMark.acked,
        publishedFrames: sinceMark.published,
        droppedFrames: sinceMark.dropped,
        peakBacklog: sinceMark.peakBacklog,
        latency: latency.summary(),
        sampleLatency: sampleLatency.summary(),
        atMs: performance.now(),
      };
      Object.assign(sinceMark, { acked: 0, published: 0, dropped: 0, peakBacklog: 0 });
      latency.reset();
      sampleLatency.reset();
      return mark;
    },

    async latencyIn({ windows }) {
      return acks.within(windows);
    },

    async stopStage() {
      // Frames still in a device's backlog are not sent: the stage is over. In-flight ones are awaited.
      stopping = true;
      if (stage?.timer) clearInterval(stage.timer);
      stage = null;
      for (const device of devices) device.clearBacklog();
      const deadline = performance.now() + DRAIN_TIMEOUT_MS;
      while (inFlightTotal() > 0 && performance.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return { ...totals, failedFrames: totals.failedFrames + inFlightTotal() };
    },

    async disconnect() {
      stopping = true;
      meter.stop();
      await Promise.all(
        devices.map((device) =>
          Promise.race([device.link.close(), new Promise((resolve) => setTimeout(resolve, 5_000))]).catch(
            () => undefined,
          ),
        ),
      );
    },
  },
  ['disconnect'],
);
