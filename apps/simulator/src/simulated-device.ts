import tls from 'node:tls';
import type { ChannelConfig, DeviceCommand, DeviceFrame, ReplyFrame } from '@fieldlink/api/device-frames';
import { deviceDownTopic, deviceUpTopic } from '@fieldlink/api/mqtt-topics';
import { connect, type MqttClient } from 'mqtt';
import { CommandInbox } from './command-inbox';
import { runCommand, type FollowUpFrame } from './command-runner';
import type { DeviceKind } from '@fieldlink/simulation/device-kind';
import { DeviceHealthMonitor } from '@fieldlink/simulation/device-health';
import {
  createDeviceIdentity,
  deviceConfig,
  SIMULATED_TIME_DATE,
  SIMULATED_UPLOAD_INTERVAL_MINUTES,
  type DeviceIdentity,
} from '@fieldlink/simulation/device-identity';
import { CONN_LOST_FRAME, connFrame, deviceConfigFrame, healthFrame, logFrame, statusFrame } from './frame-builder';
import { isKnownTimeZone, utcOffsetMinutes } from '@fieldlink/domain/time-zone';
import { expandedIoPoints } from '@fieldlink/simulation/channel-codes';
import { DeviceConfigMemory, type ConfigChange } from './device-config-memory';
import { createModel } from '@fieldlink/simulation/create-model';
import { roundTo } from '@fieldlink/simulation/daily-cycle';
import { reportedChannels, type DeviceModel } from '@fieldlink/simulation/plant-model';
import { DEFAULT_OTA_FAILURE_RATE, DEFAULT_OTA_STEP_MS, otaSteps, planOtaUpdate, type OtaStep } from './ota-process';

export interface DeviceLogger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** Counters shared by every device of a fleet, read by the load-test summary. */
export interface FleetCounters {
  framesSent: number;
  framesAcked: number;
  commandsRun: number;
  commandsIgnored: number;
  connects: number;
}

export interface CommandEvent {
  readonly thingName: string;
  readonly command: DeviceCommand;
  readonly reply: ReplyFrame;
}

/** How a device checks an MQTT over TLS server: its chain to these roots, its name to `servername`. */
export interface BrokerTls {
  /** A further trusted certificate (PEM), e.g. the server's own self-signed one. */
  readonly ca: string;
  readonly servername: string;
}

export interface SimulatedDeviceOptions {
  readonly brokerUrl: string;
  /** For `mqtts://`: the certificates to trust besides the system's, and the name the server's must carry. */
  readonly tls?: BrokerTls;
  readonly thingName: string;
  readonly password: string;
  readonly kind: DeviceKind;
  readonly seed: number;
  readonly logIntervalSeconds: number;
  readonly healthIntervalSeconds: number;
  readonly reconnectPeriodMs: number;
  /** Pads each log frame with auxiliary channels up to this many values (load tests). */
  readonly valuesPerFrame: number;
  readonly logger: DeviceLogger;
  readonly counters: FleetCounters;
  readonly onCommand: (event: CommandEvent) => void;
  /** Time between the steps of an over-the-air update; default 1.5 s. */
  readonly otaStepMs?: number;
  /** Share of over-the-air updates that fail (chosen per device and command); default 0.2. */
  readonly otaFailureRate?: number;
  /** A plant model to carry on from (stepped from its own time on); default: a new one starting now. */
  readonly model?: DeviceModel;
}

/** Most values a log frame may carry (`LogFrame.values` maxProperties). */
const MAX_VALUES_PER_FRAME = 256;
/** First auxiliary channel used for padding, clear of the models' own `a` channels. */
const PADDING_FIRST_INDEX = 100;
/** How long a stopping device waits for the broker to take its goodbye. */
const STOP_TIMEOUT_MS = 2_000;

/**
 * One simulated device: a plant model stepped on the log interval, spoken for over its own MQTT
 * connection exactly as the device protocol describes (docs/device-protocol.md).
 */
export class SimulatedDevice {
  readonly thingName: string;
  readonly kind: DeviceKind;
  private readonly options: SimulatedDeviceOptions;
  private readonly model: DeviceModel;
  private readonly identity: DeviceIdentity;
  private readonly health: DeviceHealthMonitor;
  private readonly inbox = new CommandInbox();
  private readonly upTopic: string;
  private readonly downTopic: string;
  private readonly paddingCodes: readonly string[];
  private client: MqttClient | undefined;
  private timeDate: { tzName: string; tzRule?: string } = { ...SIMULATED_TIME_DATE };
  /** Channel settings and intervals as a person last set them. */
  private readonly config: DeviceConfigMemory;
  private logTimer: NodeJS.Timeout | undefined;
  /** True once this connection's subscription is in place and its opening frames are queued. */
  private ready = false;
  private stopped = false;
  private mqttConnects = 0;
  private lastStepAt = Date.now();
  private lastStatusBits: number | undefined;
  /** The model's settings revision the last configuration frame carried. */
  private sentSettingsRevision = 0;
  private lastError: string | undefined;
  private readonly timers: NodeJS.Timeout[] = [];
  private readyWaiters: (() => void)[] = [];
  /** Firmware now running: the identity's until an over-the-air update installs another. */
  private firmware: string;
  /** The update being downloaded and installed. */
  private ota: { updateId: string; steps: OtaStep[]; firmware: string; timer: NodeJS.Timeout } | null = null;
  /** An update installed before a reboot: its success is reported once the device is back. */
  private otaAfterReboot: { updateId: string; firmware: string } | null = null;

  constructor(options: SimulatedDeviceOptions) {
    this.options = options;
    this.thingName = options.thingName;
    this.kind = options.kind;
    this.upTopic = deviceUpTopic(options.thingName);
    this.downTopic = deviceDownTopic(options.thingName);
    this.model = options.model ?? createModel(options.kind, { seed: options.seed, startTimeMs: this.lastStepAt });
    this.lastStepAt = this.model.timeMs;
    this.identity = createDeviceIdentity(options.kind, options.seed);
    this.health = new DeviceHealthMonitor(options.seed);
    this.firmware = this.identity.fw;
    this.config = new DeviceConfigMemory(SIMULATED_UPLOAD_INTERVAL_MINUTES, options.logIntervalSeconds);
    const padding = Math.max(0, Math.min(options.valuesPerFrame, MAX_VALUES_PER_FRAME) - this.model.channels.length);
    this.paddingCodes = Array.from({ length: padding }, (_, index) => `a${PADDING_FIRST_INDEX + index}`);
  }

  get connected(): boolean {
    return this.ready && this.client?.connected === true;
  }

  /** Current value of every channel. */
  values(): Record<string, number> {
    const values = this.model.values();
    const phase = this.model.timeMs / 600_000;
    this.paddingCodes.forEach((code, index) => {
      values[code] = roundTo(50 + 40 * Math.sin(phase + index), 2);
    });
    return values;
  }

  statusBits(): number {
    return this.model.statusBits();
  }

  /**
   * The device's clock (its plant's simulated time) moved forward to `timeMs` at once, as if that time
   * had passed: a test reaches a scheduled minute without waiting for it in real time. An earlier time
   * leaves the clock as it is. Answers the device's time.
   */
  advanceClockTo(timeMs: number): number {
    this.model.step((timeMs - this.model.timeMs) / 1000);
    return this.model.timeMs;
  }

  /** The value the device holds in a register now, undefined when it has no such register. */
  readRegister(register: number): number | undefined {
    return this.model.readRegister(register);
  }

  /**
   * Connects and starts the log and health clocks. Resolves once the device is online, its
   * credentials are refused, or `timeoutMs` passes; in the last two cases it keeps retrying.
   */
  start(timeoutMs: number): Promise<void> {
    const { options } = this;
    // `connect` rather than `connectAsync`: the client must be in hand to stop it while it retries.
    const client = connect(options.brokerUrl, {
      clientId: options.thingName,
      username: options.thingName,
      password: options.password,
      protocolVersion: 4,
      clean: true,
      keepalive: 30,
      connectTimeout: 10_000,
      reconnectPeriod: options.reconnectPeriodMs,
      // Subscribed again on every connect (clean session), below.
      resubscribe: false,
      will: { topic: this.upTopic, payload: Buffer.from(JSON.stringify(CONN_LOST_FRAME)), qos: 1, retain: false },
      ...(options.tls && { ca: [...tls.rootCertificates, options.tls.ca], servername: options.tls.servername }),
    });
    this.client = client;
    client.on('connect', () => void this.onConnect(client));
    client.on('close', () => {
      this.ready = false;
    });
    client.on('error', (error) => this.onError(error));
    client.on('message', (topic, payload) => {
      if (topic === this.downTopic) this.onCommandMessage(payload);
    });
    this.startClocks();

    return new Promise((resolve) => {
      const finish = (): void => {
        clearTimeout(timer);
        client.off('error', finish);
        this.readyWaiters = this.readyWaiters.filter((waiter) => waiter !== finish);
        resolve();
      };
      const timer = setTimeout(finish, timeoutMs);
      client.once('error', finish);
      this.readyWaiters.push(finish);
    });
  }

  /** Says goodbye (`conn` false) when online, then disconnects cleanly so the broker sends no will. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    clearTimeout(this.logTimer);
    if (this.ota) clearTimeout(this.ota.timer);
    const client = this.client;
    if (!client) return;
    if (this.connected) {
      this.options.counters.framesSent += 1;
      const goodbye = client.publishAsync(this.upTopic, JSON.stringify(connFrame(false, Date.now())), { qos: 1 }).then(
        () => true,
        () => false,
      );
      if (await within(goodbye, STOP_TIMEOUT_MS)) this.options.counters.framesAcked += 1;
    }
    this.ready = false;
    this.releaseReadyWaiters();
    const ended = await within(
      client.endAsync().then(
        () => true,
        () => false,
      ),
      STOP_TIMEOUT_MS,
    );
    if (!ended) await client.endAsync(true);
  }

  private async onConnect(client: MqttClient): Promise<void> {
    this.mqttConnects += 1;
    this.options.counters.connects += 1;
    this.lastError = undefined;
    try {
      // Subscribe first, so a command sent in answer to `conn` true is not missed.
      await client.subscribeAsync(this.downTopic, { qos: 1 });
    } catch (error) {
      this.options.logger.warn(`${this.thingName}: subscribe failed: ${errorText(error)}`);
      return;
    }
    if (this.stopped || !client.connected) return;
    const now = Date.now();
    this.ready = true;
    this.publish(connFrame(true, now));
    this.publish(this.configFrame(now));
    this.publish(healthFrame(this.readHealth(now), now));
    this.lastStatusBits = this.model.statusBits();
    this.publish(statusFrame(this.lastStatusBits, now));
    if (this.otaAfterReboot) {
      // Back after the update's reboot, running the new firmware (already in the config frame above).
      const { updateId, firmware } = this.otaAfterReboot;
      this.otaAfterReboot = null;
      this.publish({ v: 4, type: 'ota', t: now, updateId, state: 'succeeded', fw: firmware });
      this.options.logger.info(`${this.thingName}: updated to firmware ${firmware}`);
    }
    this.releaseReadyWaiters();
  }

  private startOtaUpdate(update: { updateId: string; updateCommand: string }): boolean {
    if (this.ota || this.otaAfterReboot) return false;
    const plan = planOtaUpdate({
      thingName: this.thingName,
      updateCommand: update.updateCommand,
      firmware: this.firmware,
      failureRate: this.options.otaFailureRate ?? DEFAULT_OTA_FAILURE_RATE,
    });
    this.ota = { updateId: update.updateId, steps: otaSteps(plan), firmware: plan.firmware, timer: this.otaTimer() };
    return true;
  }

  private otaTimer(): NodeJS.Timeout {
    return setTimeout(() => this.onOtaStep(), this.options.otaStepMs ?? DEFAULT_OTA_STEP_MS);
  }

  private onOtaStep(): void {
    const ota = this.ota;
    if (!ota || this.stopped) return;
    const step = ota.steps.shift();
    if (!step) {
      this.ota = null;
      return;
    }
    if (step.kind === 'report') {
      this.publish({ v: 4, type: 'ota', t: Date.now(), updateId: ota.updateId, ...step.report });
      if (step.report.state === 'failed') {
        this.ota = null;
        return;
      }
      ota.timer = this.otaTimer();
      return;
    }
    // Reboot: the new firmware runs from now on; the connection drops as at a power cycle (the broker
    // publishes the will) and the client reconnects on its own.
    this.ota = null;
    this.firmware = ota.firmware;
    this.otaAfterReboot = { updateId: ota.updateId, firmware: ota.firmware };
    this.ready = false;
    this.client?.stream.destroy();
  }

  private releaseReadyWaiters(): void {
    const waiters = this.readyWaiters;
    this.readyWaiters = [];
    for (const waiter of waiters) waiter();
  }

  private onError(error: Error): void {
    const message = errorText(error);
    // A refused or unreachable device retries every few seconds: say so once, not every time.
    if (message === this.lastError || this.stopped) return;
    this.lastError = message;
    this.options.logger.warn(`${this.thingName}: ${message}`);
  }

  /** Log clock (phase-shifted so a fleet does not publish in lock-step) and health clock. */
  private startClocks(): void {
    const healthMs = this.options.healthIntervalSeconds * 1000;
    this.startLogClock();
    this.timers.push(setInterval(() => this.onHealthTick(), healthMs));
  }

  /** (Re)starts the log clock at the log interval the device is set to. */
  private startLogClock(): void {
    clearTimeout(this.logTimer);
    const logMs = this.config.logInterval * 1000;
    const tick = (): void => {
      this.onLogTick();
      this.logTimer = setTimeout(tick, logMs);
    };
    this.logTimer = setTimeout(tick, Math.floor(logMs * (0.2 + 0.8 * ((this.options.seed % 1000) / 1000))));
  }

  private applyConfig(change: ConfigChange): boolean {
    const logInterval = this.config.logInterval;
    const codes = [...this.model.channels.map((channel) => channel.code), ...this.paddingCodes];
    if (!this.config.apply(change, codes)) return false;
    if (this.config.logInterval !== logInterval && !this.stopped) this.startLogClock();
    return true;
  }

  private onLogTick(): void {
    const now = Date.now();
    // The plant runs on while the device is offline; only the publishing stops.
    this.model.step((now - this.lastStepAt) / 1000);
    this.lastStepAt = now;
    if (!this.connected) return;
    this.publish(logFrame(this.values(), now));
    this.publishStatusIfChanged(now);
    if (this.model.settingsRevision() !== this.sentSettingsRevision) this.publish(this.configFrame(now));
  }

  private onHealthTick(): void {
    if (!this.connected) return;
    const now = Date.now();
    this.publish(healthFrame(this.readHealth(now), now));
  }

  private onCommandMessage(payload: Buffer): void {
    const verdict = this.inbox.receive(payload, Date.now());
    switch (verdict.action) {
      case 'ignore':
        this.options.counters.commandsIgnored += 1;
        return;
      case 'replay':
      case 'reject':
        this.publish(verdict.reply);
        return;
      case 'run':
        break;
    }
    const { command } = verdict;
    const outcome = runCommand(command, {
      model: this.model,
      setTimeDate: (timeDate) => {
        this.timeDate = { ...timeDate };
        // The plant keeps local time (schedules, daily cycles) in the zone it is told.
        if (isKnownTimeZone(timeDate.tzName)) {
          this.model.setUtcOffset(utcOffsetMinutes(timeDate.tzName, this.model.timeMs));
        }
      },
      flashLed: () => this.options.logger.info(`${this.thingName}: LED flashing`),
      applyConfig: (change) => this.applyConfig(change),
      startOtaUpdate: (update) => this.startOtaUpdate(update),
    });
    this.inbox.record(command.id, outcome.reply);
    this.options.counters.commandsRun += 1;
    this.publish(outcome.reply);
    const now = Date.now();
    for (const followUp of outcome.followUps) this.publishFollowUp(followUp, now);
    this.options.onCommand({ thingName: this.thingName, command, reply: outcome.reply });
  }

  private publishFollowUp(followUp: FollowUpFrame, now: number): void {
    if (followUp === 'log') this.publish(logFrame(this.values(), now));
    else if (followUp === 'config') this.publish(this.configFrame(now));
    else if (followUp === 'health') this.publish(healthFrame(this.readHealth(now), now));
    else this.publishStatusIfChanged(now);
  }

  private publishStatusIfChanged(now: number): void {
    const bits = this.model.statusBits();
    if (bits === this.lastStatusBits) return;
    this.lastStatusBits = bits;
    this.publish(statusFrame(bits, now));
  }

  private publish(frame: DeviceFrame): void {
    const client = this.client;
    if (!client || !this.ready) return;
    const { counters } = this.options;
    counters.framesSent += 1;
    client.publish(this.upTopic, JSON.stringify(frame), { qos: 1 }, (error) => {
      if (!error) counters.framesAcked += 1;
    });
  }

  private configFrame(now: number) {
    this.sentSettingsRevision = this.model.settingsRevision();
    const channels: ChannelConfig[] = [
      ...reportedChannels(this.model.channels),
      ...this.paddingCodes.map((code) => ({ code, name: `Aux ${code.slice(1)}`, upload: true, alarm: false })),
    ].map((channel) => this.config.channelConfig(channel));
    const { uploadInterval, logInterval } = this.config;
    const config = deviceConfig(
      { ...this.identity, fw: this.firmware },
      { channels, uploadInterval, logInterval, timeDate: this.timeDate },
      this.model.registers(),
      expandedIoPoints(this.model.channels.map((channel) => channel.code)),
    );
    return deviceConfigFrame(config, now);
  }

  private readHealth(now: number) {
    return this.health.read(now, { timeZone: this.timeDate.tzName, mqttConnects: this.mqttConnects });
  }
}

/** The promise's value, or undefined when it takes longer than `ms`. */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
