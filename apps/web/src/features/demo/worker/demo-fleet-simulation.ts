import type { ClientAction, LatestValue, ServerAction } from '@fieldlink/api/realtime';
import type { ChannelLog } from '@fieldlink/api/device-logs';
import { BrewTank } from '@fieldlink/simulation/brew-tank';
import { createModel } from '@fieldlink/simulation/create-model';
import { tankBatchState } from '@fieldlink/simulation/demo-brewery';
import { DEMO_HISTORY_MS } from '@fieldlink/simulation/demo-fleet';
import { DeviceHealthMonitor } from '@fieldlink/simulation/device-health';
import {
  createDeviceIdentity,
  SIMULATED_LOG_INTERVAL_SECONDS,
  SIMULATED_TIME_DATE,
  type DeviceIdentity,
} from '@fieldlink/simulation/device-identity';
import type { DeviceModel } from '@fieldlink/simulation/plant-model';
import { seedFromText } from '@fieldlink/simulation/seeded-random';
import { advanceShelfProduct, dayStart, RETAIL_STORE_LOG_WINDOW_MS } from '@fieldlink/domain/retail';
import { channelLog } from './channel-history';
import type { DeviceSnapshot, LogsQuestion, ShelfState, SimulatedDevice } from './protocol';
import { DEVICE_NOT_FOUND } from '@fieldlink/api/errors';

/** History is sampled every 5 minutes, the way the server's demo history is. */
const HISTORY_STEP_SECONDS = 60;
const HISTORY_SAMPLE_EVERY = 5;
/** History older than the fleet's days (a smart shelf's) is stepped and sampled every 30 minutes. */
const COARSE_STEP_SECONDS = 1800;
const FINE_HISTORY_MS = DEMO_HISTORY_MS;
/** Live values are logged at the log interval the simulated devices report. */
export const LIVE_LOG_MS = SIMULATED_LOG_INTERVAL_SECONDS * 1000;
/** Health is reported once a minute, as field devices do. */
const HEALTH_MS = 60_000;
const TIME_ZONE = SIMULATED_TIME_DATE.tzName;

/** One simulated device: its plant model, its log, and what it last told the console. */
class DemoDevice {
  readonly model: DeviceModel;
  readonly identity: DeviceIdentity;
  private readonly healthMonitor: DeviceHealthMonitor;
  private health: ReturnType<DeviceHealthMonitor['read']>;
  readonly times: number[] = [];
  readonly values = new Map<string, number[]>();
  private sent: Record<string, number> = {};
  private sentBits: number;
  private lastLogAt = 0;
  private lastHealthAt = 0;
  /** A smart shelf's stock, followed through every logged reading as the server's shelf tracker does. */
  private readonly shelf: ShelfState | null;

  constructor(
    readonly thingName: string,
    historyStartMs: number,
    kind: SimulatedDevice['kind'],
  ) {
    const seed = seedFromText(thingName);
    this.model = createModel(kind, { seed, startTimeMs: historyStartMs });
    this.identity = createDeviceIdentity(kind, seed);
    this.healthMonitor = new DeviceHealthMonitor(seed);
    for (const channel of this.model.channels) this.values.set(channel.code, []);
    this.shelf = this.model.channels.some((channel) => channel.product) ? { tracks: {}, days: {} } : null;
    this.generateHistory(Date.now());
    this.health = this.healthMonitor.read(this.model.timeMs, { timeZone: TIME_ZONE, mqttConnects: 1 });
    this.sent = this.model.values();
    this.sentBits = this.model.statusBits();
  }

  /**
   * Steps the plant from the start of its history to `until`, logging a sample every 5 minutes over
   * the fleet's 30 days; before them (a smart shelf's 90 days) every 30 minutes, as the server's demo
   * history steps its older days, so a shelf's longer history costs little at the demo's start.
   */
  private generateHistory(until: number): void {
    const fineFrom = until - FINE_HISTORY_MS;
    while (this.model.timeMs + COARSE_STEP_SECONDS * 1000 <= fineFrom) {
      this.model.step(COARSE_STEP_SECONDS);
      this.log(this.model.timeMs);
    }
    for (let step = 0; this.model.timeMs + HISTORY_STEP_SECONDS * 1000 <= until; step += 1) {
      this.model.step(HISTORY_STEP_SECONDS);
      if (step % HISTORY_SAMPLE_EVERY === 0) this.log(this.model.timeMs);
    }
    // The present is the history's last sample, so its log and the shelf followed through it end at the
    // values the console is sent first, not up to 4 minutes before them.
    if (this.times.at(-1) !== Math.round(this.model.timeMs / 1000) * 1000) this.log(this.model.timeMs);
    this.lastLogAt = this.model.timeMs;
    this.lastHealthAt = this.model.timeMs;
  }

  private log(t: number): void {
    const at = Math.round(t / 1000) * 1000;
    this.times.push(at);
    const values = this.model.values();
    for (const [code, value] of Object.entries(values)) this.values.get(code)?.push(value);
    if (this.shelf) this.followShelf(this.shelf, at, values);
  }

  private followShelf(shelf: ShelfState, t: number, values: Record<string, number>): void {
    for (const { code, product } of this.model.channels) {
      const count = values[code];
      if (!product || count === undefined) continue;
      const result = advanceShelfProduct(shelf.tracks[code] ?? null, { t, count }, product);
      shelf.tracks[code] = result.track;
      if (result.unitsSold === 0 && result.lostSales === 0) continue;
      const day = String(dayStart(t));
      const totals = shelf.days[day] ?? { unitsSold: 0, lostSales: 0 };
      shelf.days[day] = {
        unitsSold: totals.unitsSold + result.unitsSold,
        lostSales: totals.lostSales + result.lostSales,
      };
    }
  }

  /**
   * Advances the plant to `now` and says what changed: one `server/demoLatestValue` per channel whose
   * value moved (every channel each 10 s log), the alarm bits when they changed, health once a minute.
   */
  advance(now: number, actions: ServerAction[]): void {
    const seconds = (now - this.model.timeMs) / 1000;
    if (seconds > 0) this.model.step(seconds);
    const t = Math.round(this.model.timeMs);
    const values = this.model.values();
    // Like a field device: a value that moved is reported at once, every value at each log interval.
    const logs = t - this.lastLogAt >= LIVE_LOG_MS;
    for (const [code, value] of Object.entries(values)) {
      if (!logs && this.sent[code] === value) continue;
      actions.push({ type: 'server/demoLatestValue', thingName: this.thingName, code, latest: { value, t } });
    }
    this.sent = values;
    if (logs) {
      this.log(t);
      this.lastLogAt = t;
    }
    const bits = this.model.statusBits();
    if (bits !== this.sentBits) {
      this.sentBits = bits;
      actions.push({ type: 'server/alarms', thingName: this.thingName, status: { sp: bits } });
    }
    if (t - this.lastHealthAt >= HEALTH_MS) {
      this.lastHealthAt = t;
      this.health = this.healthMonitor.read(t, { timeZone: TIME_ZONE, mqttConnects: 1 });
      actions.push({ type: 'server/health', thingName: this.thingName, health: this.health });
    }
  }

  latest(): Record<string, LatestValue> {
    const t = Math.round(this.model.timeMs);
    return Object.fromEntries(Object.entries(this.model.values()).map(([code, value]) => [code, { value, t }]));
  }

  snapshot(): DeviceSnapshot {
    const model = this.model;
    return {
      thingName: this.thingName,
      channels: model.channels.map(({ code, name, units, alarm, product }) => ({
        code,
        name,
        ...(units ? { units } : {}),
        ...(alarm ? { alarm } : {}),
        ...(product ? { product } : {}),
      })),
      registers: model.registers(),
      statusBits: model.statusBits(),
      latest: this.latest(),
      identity: this.identity,
      health: this.health,
      tank: model instanceof BrewTank ? tankBatchState(model) : null,
      shelf: this.shelf,
    };
  }

  logs(question: LogsQuestion): Record<string, ChannelLog> {
    return Object.fromEntries(
      question.codes.map((code) => [
        code,
        channelLog(this.times, this.values.get(code) ?? [], question.start, question.end, question.binCount),
      ]),
    );
  }
}

type Reply = Extract<ServerAction, { type: 'server/reply' }>;
const FAILED = 'Command Failed.';

/**
 * The demo fleet: every device's plant, stepped to the present from 30 days back (90 for a smart shelf: its history) and
 * then live; the real-time requests of the console answered as the server and a device would.
 */
export class DemoFleetSimulation {
  private readonly devices = new Map<string, DemoDevice>();
  private readonly subscribed = new Set<string>();

  /**
   * `historyStartMs` is where every plant's history starts; a smart shelf's reaches back at least the
   * 90 days its store's stock chart shows ("Stock, last 90 days", issue 36 item 4), as the server's
   * demo seed does: a chart with data only in its last 30 days would mislead.
   */
  constructor(devices: readonly SimulatedDevice[], historyStartMs: number) {
    const shelfStartMs = Math.min(historyStartMs, Date.now() - RETAIL_STORE_LOG_WINDOW_MS);
    for (const { thingName, kind } of devices) {
      this.devices.set(
        thingName,
        new DemoDevice(thingName, kind === 'retailShelf' ? shelfStartMs : historyStartMs, kind),
      );
    }
  }

  /** One tick: every device advanced to `now`; the actions for the devices the console watches, by device. */
  tick(now: number): ServerAction[][] {
    const byDevice: ServerAction[][] = [];
    for (const device of this.devices.values()) {
      const own: ServerAction[] = [];
      device.advance(now, own);
      if (own.length > 0 && this.subscribed.has(device.thingName)) byDevice.push(own);
    }
    return byDevice;
  }

  snapshots(thingNames: readonly string[]): DeviceSnapshot[] {
    return thingNames.flatMap((thingName) => this.devices.get(thingName)?.snapshot() ?? []);
  }

  logs(question: LogsQuestion): Record<string, ChannelLog> {
    return this.devices.get(question.thingName)?.logs(question) ?? {};
  }

  /** Answers one real-time request: the reply first, then what the device sends after it. */
  request(action: ClientAction, now: number): ServerAction[] {
    const reply = (ok: boolean, value?: number): Reply =>
      ok
        ? { type: 'server/reply', id: action.id, ok, ...(value === undefined ? {} : { value }) }
        : { type: 'server/reply', id: action.id, ok, error: FAILED };
    if (action.type === 'server/subscribeDevices' || action.type === 'server/unsubscribeDevices') {
      const unknown = action.thingNames.find((thingName) => !this.devices.has(thingName));
      if (unknown) return [{ type: 'server/reply', id: action.id, ok: false, error: DEVICE_NOT_FOUND }];
      for (const thingName of action.thingNames) {
        if (action.type === 'server/subscribeDevices') this.subscribed.add(thingName);
        else this.subscribed.delete(thingName);
      }
      return [reply(true)];
    }
    // The demo's devices stay online on the firmware they have: the table's feed has nothing to send.
    if (action.type === 'server/watchDeviceTable' || action.type === 'server/unwatchDeviceTable') return [reply(true)];
    const device = this.devices.get(action.thingName);
    if (!device) return [{ type: 'server/reply', id: action.id, ok: false, error: DEVICE_NOT_FOUND }];
    const { model } = device;
    switch (action.type) {
      case 'server/readChannel': {
        const value = model.readChannel(action.code);
        return [reply(value !== undefined, value)];
      }
      case 'server/writeChannel': {
        const value = model.writeChannel(action.code, action.value);
        if (value === undefined) return [reply(false)];
        const followUps: ServerAction[] = [];
        device.advance(now, followUps);
        return [
          reply(true, value),
          {
            type: 'server/setpointStatus',
            thingName: action.thingName,
            code: action.code,
            state: action.value !== 0 ? 'on' : 'off',
            value,
          },
          ...followUps,
        ];
      }
      case 'server/readRegister': {
        const value = model.readRegister(action.register);
        return [reply(value !== undefined, value)];
      }
      case 'server/writeRegister': {
        const value = model.writeRegister(action.register, action.value);
        if (value === undefined) return [reply(false)];
        return [
          reply(true, value),
          {
            type: 'server/deviceConfig',
            thingName: action.thingName,
            config: { subtype: 'device', registers: model.registers() },
          },
        ];
      }
      case 'server/refreshMetadata':
      case 'server/systemCommand':
        return [reply(true)];
      case 'server/timeDate':
        return [reply(true)];
      // The demo's device settings are read-only, like POST /device-config in the demo backend.
      case 'server/writeConfig':
        return [reply(false)];
    }
  }
}
