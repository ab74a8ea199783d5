import { isThingName } from '@fieldlink/api/mqtt-topics';
import { isDeviceKind, type DeviceKind } from '@fieldlink/simulation/device-kind';
import { seedFromText } from '@fieldlink/simulation/seeded-random';
import type { DeviceModel } from '@fieldlink/simulation/plant-model';
import {
  SimulatedDevice,
  type BrokerTls,
  type CommandEvent,
  type DeviceLogger,
  type FleetCounters,
} from './simulated-device';

export type { CommandEvent } from './simulated-device';
export type { DeviceKind } from '@fieldlink/simulation/device-kind';

/** One device of the fleet and the credentials it connects with. */
export interface FleetDeviceSpec {
  readonly thingName: string;
  readonly password: string;
  readonly kind: DeviceKind;
  /** Fixes the device's numbers; defaults to a hash of the thing name, so a device is the same every run. */
  readonly seed?: number;
  /**
   * The plant model to carry on from (the server's demo history leaves it at the history's end), so
   * live values continue the stored history; default: a new model of the kind, starting now.
   */
  readonly model?: DeviceModel | undefined;
}

export type FleetLogger = DeviceLogger;

export interface FleetOptions {
  readonly brokerUrl: string;
  /** For `mqtts://`: what the devices trust (SimulatedDeviceOptions.tls). */
  readonly tls?: BrokerTls;
  readonly devices: readonly FleetDeviceSpec[];
  /** Seconds between log frames; default 5 (a lively demo; field devices use minutes). */
  readonly logIntervalSeconds?: number;
  /** Seconds between health frames; default 60. */
  readonly healthIntervalSeconds?: number;
  /** Wait before each reconnect attempt after the broker goes away; default 2000 ms. */
  readonly reconnectPeriodMs?: number;
  /** Pads log frames with auxiliary channels up to this many values, at most 256 (load tests). */
  readonly valuesPerFrame?: number;
  /** Devices connecting at once while the fleet starts; default 50. */
  readonly connectConcurrency?: number;
  /** Longest wait for one device's first connection before the fleet carries on; default 10 s. */
  readonly startTimeoutMs?: number;
  readonly logger?: FleetLogger;
  /** Time between the steps of an over-the-air update; default 1.5 s. */
  readonly otaStepMs?: number;
  /** Share of over-the-air updates that fail, chosen per device and update command; default 0.2. */
  readonly otaFailureRate?: number;
}

/** A running device as the server and tests see it. */
export interface FleetDevice {
  readonly thingName: string;
  readonly kind: DeviceKind;
  /** Online, subscribed to its commands, and its opening frames sent. */
  readonly connected: boolean;
  /** Current value of every channel, by channel code. */
  values(): Record<string, number>;
  /** Current alarm bit mask (`status.sp`). */
  statusBits(): number;
  /** Moves the device's clock forward to `timeMs` (never back); answers the device's time. */
  advanceClockTo(timeMs: number): number;
  /** The value the device holds in a register now, undefined when it has no such register. */
  readRegister(register: number): number | undefined;
}

export interface FleetStats extends Readonly<FleetCounters> {
  readonly devices: number;
  readonly connected: number;
}

export interface Fleet {
  readonly devices: readonly FleetDevice[];
  device(thingName: string): FleetDevice | undefined;
  stats(): FleetStats;
  /** Calls `listener` after each command a device runs (not for expired or repeated ones); returns an unsubscribe. */
  onCommand(listener: (event: CommandEvent) => void): () => void;
  /** Each device says goodbye (`conn` false) and disconnects. */
  stop(): Promise<void>;
}

const SILENT_LOGGER: FleetLogger = { info: () => {}, warn: () => {}, error: () => {} };

/**
 * Starts a fleet of simulated devices, each on its own MQTT connection with its own credentials.
 * Resolves when every device is online, refused, or past `startTimeoutMs`; devices not yet online
 * keep retrying in the background.
 */
export async function startFleet(options: FleetOptions): Promise<Fleet> {
  const logIntervalSeconds = options.logIntervalSeconds ?? 5;
  const healthIntervalSeconds = options.healthIntervalSeconds ?? 60;
  if (!(logIntervalSeconds > 0) || !(healthIntervalSeconds > 0)) throw new Error('Intervals must be positive.');
  checkDevices(options.devices);

  const logger = options.logger ?? SILENT_LOGGER;
  const counters: FleetCounters = { framesSent: 0, framesAcked: 0, commandsRun: 0, commandsIgnored: 0, connects: 0 };
  const listeners = new Set<(event: CommandEvent) => void>();
  const onCommand = (event: CommandEvent): void => {
    for (const listener of listeners) {
      try {
        listener(event);
      } catch (error) {
        logger.error(`command listener failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  };

  const devices = options.devices.map(
    (spec) =>
      new SimulatedDevice({
        brokerUrl: options.brokerUrl,
        ...(options.tls && { tls: options.tls }),
        thingName: spec.thingName,
        password: spec.password,
        kind: spec.kind,
        seed: spec.seed ?? seedFromText(spec.thingName),
        ...(spec.model && { model: spec.model }),
        logIntervalSeconds,
        healthIntervalSeconds,
        reconnectPeriodMs: options.reconnectPeriodMs ?? 2000,
        valuesPerFrame: options.valuesPerFrame ?? 0,
        logger,
        counters,
        onCommand,
        ...(options.otaStepMs !== undefined && { otaStepMs: options.otaStepMs }),
        ...(options.otaFailureRate !== undefined && { otaFailureRate: options.otaFailureRate }),
      }),
  );
  const byThingName = new Map(devices.map((device) => [device.thingName, device]));

  // A bounded number of devices connect at once, so a large load-test fleet does not stampede the broker.
  const startTimeoutMs = options.startTimeoutMs ?? 10_000;
  const queue = [...devices];
  const connectOne = async (): Promise<void> => {
    for (let device = queue.shift(); device; device = queue.shift()) await device.start(startTimeoutMs);
  };
  await Promise.all(Array.from({ length: Math.max(1, options.connectConcurrency ?? 50) }, connectOne));
  const online = devices.filter((device) => device.connected).length;
  logger.info(`simulator: ${online} of ${devices.length} devices online at ${options.brokerUrl}`);

  let stopping: Promise<void> | undefined;
  return {
    devices,
    device: (thingName) => byThingName.get(thingName),
    stats: () => ({
      ...counters,
      devices: devices.length,
      connected: devices.filter((device) => device.connected).length,
    }),
    onCommand: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    stop: () => {
      stopping ??= Promise.all(devices.map((device) => device.stop())).then(() => undefined);
      return stopping;
    },
  };
}

function checkDevices(devices: readonly FleetDeviceSpec[]): void {
  const seen = new Set<string>();
  for (const device of devices) {
    if (!isThingName(device.thingName)) throw new Error(`Invalid thing name: ${JSON.stringify(device.thingName)}`);
    if (seen.has(device.thingName)) throw new Error(`Thing name listed twice: ${device.thingName}`);
    if (!isDeviceKind(device.kind)) throw new Error(`Unknown device kind for ${device.thingName}: ${device.kind}`);
    seen.add(device.thingName);
  }
}
