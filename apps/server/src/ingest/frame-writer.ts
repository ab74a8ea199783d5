import type { Kysely, Transaction } from 'kysely';
import { shouldReplaceLatest } from '@fieldlink/domain/log-merge';
import { insertLogs, upsertLatestValues } from '../db/log-writes';
import type { Database, DevicesTable } from '../db/schema';
import type { DeviceEvent } from '../events';
import { newId } from '../security/secrets';

export interface LogRow {
  device_id: string;
  code: string;
  t: number;
  value: number;
}

export interface LatestRow extends LogRow {
  extra: string | null;
}

export interface ConnectionChange {
  deviceId: string;
  thingName: string;
  t: number;
  connected: boolean;
}

/** Columns of a device that frames may change (config, health, status). */
export type DeviceUpdate = Partial<
  Pick<
    DevicesTable,
    | 'sn'
    | 'fw'
    | 'model'
    | 'hw'
    | 'base'
    | 'custom'
    | 'esp_fw'
    | 'hw_platform'
    | 'update_point'
    | 'upload_interval'
    | 'log_interval'
    | 'time_date'
    | 'channels'
    | 'registers'
    | 'ports'
    | 'health'
    | 'status'
    | 'alarms_have_been_read'
  >
> & { expanded_io_max?: number | null };

/** One frame's worth of writes, queued by ingest. */
export interface FrameWrites {
  logs?: LogRow[];
  latest?: LatestRow[];
  deviceUpdate?: { deviceId: string; update: DeviceUpdate };
  connection?: ConnectionChange;
  /** Events to publish once the writes are committed. */
  events?: DeviceEvent[];
}

interface Batch {
  logs: LogRow[];
  latest: Map<string, LatestRow>;
  deviceUpdates: Map<string, DeviceUpdate>;
  connections: ConnectionChange[];
  events: DeviceEvent[];
  waiters: { resolve: () => void; reject: (error: unknown) => void }[];
}

export interface FrameWriterOptions {
  /** Longest a frame waits for its batch to be written, in ms. */
  maxDelayMs?: number;
  /** A batch is written at once when it holds this many log rows. */
  maxRows?: number;
  onCommitted?: (events: DeviceEvent[]) => void;
  onError?: (error: unknown) => void;
}

function emptyBatch(): Batch {
  return { logs: [], latest: new Map(), deviceUpdates: new Map(), connections: [], events: [], waiters: [] };
}

/**
 * Writes frames in batched transactions. `write` resolves only once the frame's rows are committed,
 * which is when the broker may acknowledge a QoS 1 publish. One batch is written at a time; frames
 * arriving meanwhile gather in the next.
 */
export class FrameWriter {
  private batch = emptyBatch();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;
  private readonly maxDelayMs: number;
  private readonly maxRows: number;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly options: FrameWriterOptions = {},
  ) {
    this.maxDelayMs = options.maxDelayMs ?? 15;
    this.maxRows = options.maxRows ?? 5000;
  }

  write(writes: FrameWrites): Promise<void> {
    const batch = this.batch;
    if (writes.logs) for (const row of writes.logs) batch.logs.push(row);
    if (writes.latest) {
      for (const row of writes.latest) {
        const key = `${row.device_id}\u0000${row.code}`;
        const current = batch.latest.get(key);
        if (!current || shouldReplaceLatest(current, row)) batch.latest.set(key, row);
      }
    }
    if (writes.deviceUpdate) {
      const { deviceId, update } = writes.deviceUpdate;
      batch.deviceUpdates.set(deviceId, { ...batch.deviceUpdates.get(deviceId), ...update });
    }
    if (writes.connection) batch.connections.push(writes.connection);
    if (writes.events) for (const event of writes.events) batch.events.push(event);
    const done = new Promise<void>((resolve, reject) => batch.waiters.push({ resolve, reject }));
    if (batch.logs.length >= this.maxRows) this.schedule(0);
    else this.schedule(this.maxDelayMs);
    return done;
  }

  /** Writes whatever is pending; resolves when everything queued so far is committed. */
  async flush(): Promise<void> {
    while (this.flushing || this.batch.waiters.length > 0) {
      if (this.flushing) await this.flushing.catch(() => undefined);
      else await this.startFlush();
    }
  }

  private schedule(delayMs: number): void {
    if (this.flushing) return; // the running flush starts the next batch when it ends
    if (this.timer && delayMs > 0) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.startFlush(), delayMs);
  }

  private startFlush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.batch;
    this.batch = emptyBatch();
    const run = this.commit(batch).then(
      () => {
        for (const waiter of batch.waiters) waiter.resolve();
        if (batch.events.length > 0) this.options.onCommitted?.(batch.events);
      },
      (error: unknown) => {
        this.options.onError?.(error);
        for (const waiter of batch.waiters) waiter.reject(error);
      },
    );
    this.flushing = run.finally(() => {
      this.flushing = null;
      if (this.batch.waiters.length > 0) this.schedule(this.batch.logs.length >= this.maxRows ? 0 : this.maxDelayMs);
    });
    return this.flushing;
  }

  private async commit(batch: Batch): Promise<void> {
    if (batch.waiters.length === 0) return;
    await this.db.transaction().execute(async (trx) => {
      await insertLogs(trx, batch.logs);
      await upsertLatestValues(trx, [...batch.latest.values()]);
      for (const [deviceId, update] of batch.deviceUpdates) {
        await trx.updateTable('devices').set(update).where('id', '=', deviceId).execute();
      }
      for (const change of batch.connections) {
        const event = await applyConnectionChange(trx, change);
        if (event) batch.events.push(event);
      }
    });
  }
}

/**
 * Records a connect or disconnect. A report older than the last recorded one changes nothing: behind
 * a shared subscription a device's will and its next `conn` frame may be stored by two instances in
 * either order. A report that repeats the current state (a device's own `conn` frame after the
 * broker already saw it connect) only moves the time of the last connection or disconnection.
 */
async function applyConnectionChange(
  trx: Transaction<Database>,
  change: ConnectionChange,
): Promise<DeviceEvent | null> {
  const current = await trx
    .selectFrom('devices')
    .select(['is_connected', 'last_connection', 'last_disconnection'])
    .where('id', '=', change.deviceId)
    .executeTakeFirst();
  if (!current) return null;
  if (change.t < Math.max(current.last_connection ?? 0, current.last_disconnection ?? 0)) return null;
  if (Boolean(current.is_connected) === change.connected) {
    // The same state, reported again later: keep the report's time (no log row, no event), so an
    // older report stored after it (a will held in a broker session's backlog) cannot undo it.
    await trx
      .updateTable('devices')
      .set(change.connected ? { last_connection: change.t } : { last_disconnection: change.t })
      .where('id', '=', change.deviceId)
      .execute();
    return null;
  }
  const lastConnection = change.connected ? change.t : current.last_connection;
  const lastDisconnection = change.connected ? current.last_disconnection : change.t;
  await trx
    .updateTable('devices')
    .set({
      is_connected: change.connected ? 1 : 0,
      last_connection: lastConnection,
      last_disconnection: lastDisconnection,
    })
    .where('id', '=', change.deviceId)
    .execute();
  await trx
    .insertInto('connections')
    .values({ id: newId(), device_id: change.deviceId, t: change.t, connected: change.connected ? 1 : 0 })
    .execute();
  return {
    type: 'server/connectionState',
    thingName: change.thingName,
    isConnected: change.connected,
    lastConnection,
    lastDisconnection,
  };
}
