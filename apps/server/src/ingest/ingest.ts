import { TypeCompiler } from '@sinclair/typebox/compiler';
import {
  DeviceFrame,
  type ConfigFrame,
  type LogFrame,
  type OtaFrame,
  type ReplyFrame,
} from '@fieldlink/api/device-frames';
import type { LatestValue } from '@fieldlink/api/realtime';
import { upgradeFrame } from '@fieldlink/domain/frame-upgrade';
import { pressureFromRaw } from '@fieldlink/domain/pressure-signal';
import { isTooFarInFuture, toMillis } from '@fieldlink/domain/timestamps';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { nulTextPath } from '../security/nul-text';
import type { DeviceDirectory, DeviceRef } from './device-directory';
import type { DeviceUpdate, FrameWriter, LatestRow } from './frame-writer';

const frameCheck = TypeCompiler.Compile(DeviceFrame);

export interface IngestCounters {
  frames: number;
  dataPoints: number;
  /** Frames that arrived but could not be read (not JSON, bad version or shape, unknown device). */
  rejected: number;
  futureDropped: number;
  /** Frames over the size limit, refused before reading. */
  oversized: number;
  /** Frames over a device's publish rate, refused before reading. */
  rateLimited: number;
}

export interface IngestLogger {
  warn(object: object, message: string): void;
}

/** Receives command replies; ingest hands them over without storing them. */
export interface ReplySink {
  resolve(thingName: string, reply: ReplyFrame): void;
}

/**
 * A stored log frame's event (`server/newRawLogs`). Its samples by channel are made from the frame's
 * rows when first read (a tracker of the device, the JSON for a watching browser or another instance)
 * rather than for every frame: with no one reading a device's samples on this instance, the object
 * per channel, its array and the record holding them (21 objects per ten-channel frame) were garbage
 * for the main thread to collect (docs/decisions.md, issue 41 items 1 and 3, "the event's samples
 * made when read").
 */
export class RawLogsEvent {
  readonly type = 'server/newRawLogs';
  readonly #rows: readonly LatestRow[];
  readonly #extras: LogFrame['extra'];
  #logs: Record<string, LatestValue[]> | undefined;

  constructor(
    readonly thingName: string,
    rows: readonly LatestRow[],
    extras: LogFrame['extra'],
  ) {
    this.#rows = rows;
    this.#extras = extras;
  }

  /** Samples per channel code, as the frame's rows hold them, with each channel's extra fields. */
  get logs(): Record<string, LatestValue[]> {
    if (this.#logs) return this.#logs;
    const logs: Record<string, LatestValue[]> = {};
    for (const { code, t, value } of this.#rows) {
      const extra = this.#extras?.[code];
      logs[code] = [extra ? { value, t, ...extra } : { value, t }];
    }
    return (this.#logs = logs);
  }

  toJSON(): { type: 'server/newRawLogs'; thingName: string; logs: Record<string, LatestValue[]> } {
    return { type: this.type, thingName: this.thingName, logs: this.logs };
  }
}

type FrameResult = { ok: true; frame: DeviceFrame } | { ok: false; error: string };

/** A frame ingest read and handled: its device and its type. */
export interface HandledFrame {
  device: DeviceRef;
  type: DeviceFrame['type'];
}

/** Parses, upgrades and validates one payload (no text may hold a NUL: `nulTextPath`). Never throws. */
export function parseFrame(payload: Buffer | string): FrameResult {
  const text = typeof payload === 'string' ? payload : payload.toString('utf8');
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false, error: 'Frame is not JSON' };
  }
  const upgraded = upgradeFrame(raw);
  if (!upgraded.ok) return { ok: false, error: upgraded.error };
  if (!frameCheck.Check(upgraded.frame)) {
    const first = frameCheck.Errors(upgraded.frame).First();
    return { ok: false, error: `Invalid frame: ${first ? `${first.path || '/'} ${first.message}` : 'unknown shape'}` };
  }
  // JSON writes U+0000 only as the escape `\u0000` (a raw control character is not JSON, and the
  // upgrade makes no text of its own), so a text without one holds no NUL: the walk, which builds a
  // path per key, is left to the frames that may (docs/decisions.md, "Issue 41 items 1-3").
  const nul = text.includes('\\u0000') ? nulTextPath(upgraded.frame) : null;
  if (nul !== null) return { ok: false, error: `Invalid frame: ${nul} must not contain a NUL character` };
  return { ok: true, frame: upgraded.frame };
}

/** Config fields stored in a column of their own, by the frame's name (read back by `realtime/device-state.ts`). */
export const CONFIG_COLUMNS = {
  sn: 'sn',
  fw: 'fw',
  model: 'model',
  hw: 'hw',
  base: 'base',
  custom: 'custom',
  espFw: 'esp_fw',
  hwPlatform: 'hw_platform',
  updatePoint: 'update_point',
  uploadInterval: 'upload_interval',
  logInterval: 'log_interval',
  expandedIoMax: 'expanded_io_max',
} as const satisfies Partial<Record<keyof ConfigFrame, keyof DeviceUpdate>>;

/**
 * Turns device frames into stored rows and events. `handle` resolves once the frame is committed
 * (or was rejected): the broker acknowledges a QoS 1 publish only then.
 */
export class Ingest {
  readonly counters: IngestCounters = {
    frames: 0,
    dataPoints: 0,
    rejected: 0,
    futureDropped: 0,
    oversized: 0,
    rateLimited: 0,
  };
  /** Told how long each stored frame took from arrival to commit, in seconds (metrics). */
  observeStored: ((seconds: number) => void) | null = null;
  /** Stores a device's OTA progress report (features/ota); the frame is acknowledged once it resolves. */
  otaReports: ((device: DeviceRef, frame: OtaFrame) => Promise<void>) | null = null;
  private readonly lastWarning = new Map<string, number>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly writer: FrameWriter,
    private readonly directory: DeviceDirectory,
    private readonly replies: ReplySink,
    private readonly logger: IngestLogger,
  ) {}

  /**
   * Stores one frame. `backlogSince`: the frame comes from a broker session's backlog, built up
   * since then (see `conn` below). Answers the frame's device and type, or null for a frame refused.
   */
  handle(thingName: string, payload: Buffer, now = Date.now(), backlogSince?: number): Promise<HandledFrame | null> {
    const observe = this.observeStored;
    if (!observe) return this.store(thingName, payload, now, backlogSince);
    // Timed from before the frame is read: a known device's frame is parsed in `store`'s first turn.
    const started = performance.now();
    return this.store(thingName, payload, now, backlogSince).then((handled) => {
      observe((performance.now() - started) / 1000);
      return handled;
    });
  }

  /** Counts a frame the broker refused before reading it. */
  countRefused(reason: 'oversized' | 'rateLimited'): void {
    this.counters[reason] += 1;
  }

  /**
   * A known device's frame is read and handed to the writer in the same turn, with no promise but
   * the writer's and the one answering the frame: the frames of a busy fleet made five
   * (docs/decisions.md, issue 41 items 1 and 3, "the event's samples made when read").
   */
  private store(thingName: string, payload: Buffer, now: number, backlogSince?: number): Promise<HandledFrame | null> {
    const device = this.directory.cached(thingName);
    if (device) return this.storeFrame(thingName, device, payload, now, backlogSince);
    return this.directory
      .find(thingName)
      .then((found) =>
        found
          ? this.storeFrame(thingName, found, payload, now, backlogSince)
          : this.reject(thingName, 'Unknown device'),
      );
  }

  private storeFrame(
    thingName: string,
    device: DeviceRef,
    payload: Buffer,
    now: number,
    backlogSince?: number,
  ): Promise<HandledFrame | null> {
    try {
      const parsed = parseFrame(payload);
      if (!parsed.ok) return Promise.resolve(this.reject(thingName, parsed.error));
      this.counters.frames += 1;
      const handled: HandledFrame = { device, type: parsed.frame.type };
      const applied = this.apply(device, parsed.frame, now, backlogSince);
      return applied ? applied.then(() => handled) : Promise.resolve(handled);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  private apply(device: DeviceRef, frame: DeviceFrame, now: number, backlogSince?: number): Promise<void> | void {
    const { thingName } = device;
    switch (frame.type) {
      case 'log':
        return this.handleLog(device, frame, now);
      case 'health': {
        const health = { ...frame.health, t: toMillis(frame.health.t ?? frame.t) };
        return this.writer.write({
          deviceUpdate: { deviceId: device.id, update: { health: JSON.stringify(health) } },
          events: [{ type: 'server/health', thingName, health }],
        });
      }
      case 'status':
        return this.writer.write({
          deviceUpdate: { deviceId: device.id, update: { status: JSON.stringify(frame.status) } },
          events: [{ type: 'server/alarms', thingName, status: frame.status }],
        });
      case 'config':
        return this.handleConfig(device, frame);
      case 'conn': {
        // A will (no time of its own) delivered from a backlog happened when the backlog began, not
        // now: the device may have reconnected since, its `conn` frame stored by another instance.
        const t = !frame.connected && frame.t === undefined && backlogSince !== undefined ? backlogSince : now;
        return this.connectionChanged(device, frame.connected, t);
      }
      case 'reply':
        this.replies.resolve(thingName, frame);
        return;
      case 'ota':
        return this.otaReports?.(device, frame);
    }
  }

  /** Records a connect or disconnect seen by the broker or told by the device. */
  connectionChanged(device: DeviceRef, connected: boolean, t = Date.now()): Promise<void> {
    return this.writer.write({ connection: { deviceId: device.id, thingName: device.thingName, t, connected } });
  }

  private handleLog(device: DeviceRef, frame: LogFrame, now: number): Promise<void> {
    const t = toMillis(frame.t);
    if (isTooFarInFuture(t, now)) {
      this.counters.futureDropped += 1;
      return Promise.resolve();
    }
    // Each sample is also its channel's latest value: one list is both.
    const rows: LatestRow[] = [];
    const values = frame.values;
    for (const code of Object.keys(values)) {
      const reported = values[code]!;
      if (!Number.isFinite(reported)) continue;
      // A channel configured to send its transmitter's raw signal is stored as the pressure it
      // stands for (docs/decisions.md, issue 42 item 12); a reading outside the signal's range is a
      // fault (broken loop, shorted line) and is not stored.
      const fullScale = device.rawTransmitters.get(code);
      const value = fullScale === undefined ? reported : pressureFromRaw(reported, fullScale);
      if (value === null) {
        this.warnOnce(device.thingName, 'Transmitter signal out of range', { code, raw: reported });
        continue;
      }
      const extra = frame.extra?.[code];
      // One object is the sample and the channel's latest value: half the objects made per sample,
      // and cloned once on the way to the SQLite writer thread (docs/decisions.md, issue 41).
      const row: LatestRow = { device_id: device.id, code, t, value, extra: extra ? JSON.stringify(extra) : null };
      rows.push(row);
    }
    this.counters.dataPoints += rows.length;
    return this.writer.write({
      logs: rows,
      latest: rows,
      events: [new RawLogsEvent(device.thingName, rows, frame.extra)],
    });
  }

  private async handleConfig(device: DeviceRef, frame: ConfigFrame): Promise<void> {
    const update: DeviceUpdate = {};
    for (const [field, column] of Object.entries(CONFIG_COLUMNS)) {
      const value = frame[field as keyof typeof CONFIG_COLUMNS];
      if (value !== undefined) (update as Record<string, unknown>)[column] = value;
    }
    if (frame.timeDate) update.time_date = JSON.stringify(frame.timeDate);
    if (frame.ports) update.ports = JSON.stringify(frame.ports);
    if (frame.channels || frame.registers) {
      // Config frames describe part of the device (subtype): merge channels and registers by key.
      const current = await this.db
        .selectFrom('devices')
        .select(['channels', 'registers'])
        .where('id', '=', device.id)
        .executeTakeFirst();
      if (frame.channels) {
        const channels = new Map<string, unknown>(
          (JSON.parse(current?.channels ?? '[]') as { code: string }[]).map((channel) => [channel.code, channel]),
        );
        for (const channel of frame.channels) channels.set(channel.code, channel);
        update.channels = JSON.stringify([...channels.values()]);
      }
      if (frame.registers) {
        update.registers = JSON.stringify({ ...JSON.parse(current?.registers ?? '{}'), ...frame.registers });
      }
    }
    const { v: _v, type: _type, t: _t, ...config } = frame;
    // Its event, once committed, also has the device directory read the channels again (they decide
    // which readings are raw transmitter signals), here and on the other instances of a cluster.
    await this.writer.write({
      deviceUpdate: { deviceId: device.id, update },
      events: [{ type: 'server/deviceConfig', thingName: device.thingName, config }],
    });
  }

  private reject(thingName: string, reason: string): null {
    this.counters.rejected += 1;
    this.warnOnce(thingName, 'Device frame rejected', { reason, rejectedTotal: this.counters.rejected });
    return null;
  }

  /** One warning per device per 10 s: a device sending garbage must not flood the log. */
  private warnOnce(thingName: string, message: string, details: Record<string, unknown>): void {
    const last = this.lastWarning.get(thingName) ?? 0;
    if (Date.now() - last > 10_000) {
      this.lastWarning.set(thingName, Date.now());
      this.logger.warn({ thingName, ...details }, message);
    }
  }
}
