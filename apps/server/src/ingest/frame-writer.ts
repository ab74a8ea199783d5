import type { Kysely, Transaction } from 'kysely';
import { shouldReplaceLatest } from '@fieldlink/domain/log-merge';
import { isSqlite } from '../db/dialect';
import { appendToInbox, type InboxMover } from '../db/log-inbox';
import { insertLogs } from '../db/log-writes';
import { insertLogsToRollupInbox } from '../db/log-rollup-inbox';
import type { Database, DevicesTable } from '../db/schema';
import type { DeviceEvent } from '../events';
import { newId } from '../security/secrets';
import { REAL_TIMERS, type Timer, type Timers } from '../timers';

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
  /**
   * The latest value of each channel, by device and channel (no key is built per sample); left empty
   * while `latestOfSamples` holds and the store works them out ({@link FrameWriterOptions}).
   */
  latest: Map<string, Map<string, LatestRow>>;
  deviceUpdates: Map<string, DeviceUpdate>;
  connections: ConnectionChange[];
  events: DeviceEvent[];
  waiters: { resolve: () => void; reject: (error: unknown) => void }[];
  /** When its first frame arrived (on the writer's clock). */
  since: number;
  /** Whether every frame gave its samples as its latest values (see {@link BatchWrites}). */
  latestOfSamples: boolean;
  /** Whether a sample of `logs` has an extra (while `latestOfSamples` holds, they are all LatestRows). */
  withExtra: boolean;
}

/** What one batch writes, as plain data (it may be handed to the writer thread). */
export interface BatchWrites {
  logs: LogRow[];
  latest: LatestRow[];
  /**
   * `latest` is the latest value of each channel of `logs` by `shouldReplaceLatest`, taken in their
   * order (every frame gave its samples as its latest values): a store may work it out from them. With
   * the frame writer's `latestFromSamples`, `latest` then holds only those that have an extra.
   */
  latestOfSamples?: boolean;
  deviceUpdates: [deviceId: string, update: DeviceUpdate][];
  connections: ConnectionChange[];
}

/** A batch being written, and how its transaction ended (null while it runs). */
interface Running {
  batch: Batch;
  outcome: { ok: true } | { ok: false; error: unknown } | null;
}

export interface FrameWriterOptions {
  /** Longest the first frame of a batch waits before the batch is written, in ms, when a writer is free. */
  maxDelayMs?: number;
  /** A batch is written as soon as a writer is free when it holds this many log rows. */
  maxRows?: number;
  /**
   * Batches written at the same time, each in a transaction of its own (PostgreSQL: on a connection
   * of its own); 1 for SQLite, whose one connection writes one transaction at a time.
   */
  concurrency?: number;
  /**
   * Writes one batch in a transaction and answers the events of the connection changes it recorded;
   * by default {@link writeBatch} on the writer's database (a SQLite file: the writer thread's).
   */
  store?: (writes: BatchWrites) => Promise<DeviceEvent[]>;
  /**
   * The store works out a batch's latest values from its samples when every frame gave its samples as
   * its latest values (`BatchWrites.latestOfSamples`: SQLite's writer thread), so such a batch gives
   * it only those that have an extra, and no map of latest values is kept per sample.
   */
  latestFromSamples?: boolean;
  /** SQLite: the default store commits samples into the inbox this mover moves (db/log-inbox.ts). */
  inbox?: InboxMover;
  onCommitted?: (events: DeviceEvent[]) => void;
  onError?: (error: unknown) => void;
  /** The clock the batch delay is counted on and its timer; the real ones unless a test moves its own. */
  timers?: Timers;
}

function emptyBatch(): Batch {
  return {
    logs: [],
    latest: new Map(),
    deviceUpdates: new Map(),
    connections: [],
    events: [],
    waiters: [],
    since: 0,
    latestOfSamples: true,
    withExtra: false,
  };
}

/** Longest the first frame of a batch waits before the batch is written (when a writer is free), in ms. */
export const BATCH_DELAY_MS = 15;
/** A batch is written as soon as a writer is free once it holds this many log rows. */
export const BATCH_MAX_ROWS = 5000;

/**
 * Batches PostgreSQL writes at a time, each on a connection of its own (3 of the pool's 10): one batch
 * at a time left the database idle while the server made the next one and waited on each commit.
 */
export const POSTGRES_BATCHES_IN_FLIGHT = 3;

/** PostgreSQL's deadlock_detected: the transaction was undone whole and may simply run again. */
const DEADLOCK = '40P01';
const DEADLOCK_RETRIES = 3;

/**
 * Writes frames in batched transactions. `write` resolves only once the frame's rows are committed,
 * which is when the broker may acknowledge a QoS 1 publish.
 *
 * A batch is written once its first frame has waited `maxDelayMs` or it holds `maxRows` log rows,
 * and a writer is free: the wait is counted from the frame's arrival, so frames that gathered while
 * the writers were busy go at once (docs/decisions.md, "Ingest at higher steady loads"). Up to
 * `concurrency` batches are written at a time. Whatever order their transactions end in, batches are
 * answered (frames resolved, events published) in the order they were started, so a device's
 * acknowledgements and events keep the order of its frames. A batch that changes devices or
 * connections waits until every batch before it is committed: such writes read or replace a
 * device's row and must follow its earlier frames; log rows and latest values need not (roll-ups add
 * up in any order, and an older sample never replaces a newer latest value).
 */
export class FrameWriter {
  private batch = emptyBatch();
  private timer: Timer | null = null;
  /** When the timer's batch is due (on the writer's clock). */
  private timerDue = 0;
  /** Batches started and not yet answered, oldest first. */
  private readonly running: Running[] = [];
  private idle: (() => void)[] = [];
  private readonly maxDelayMs: number;
  private readonly maxRows: number;
  private readonly concurrency: number;
  private readonly timers: Timers;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly options: FrameWriterOptions = {},
  ) {
    this.maxDelayMs = options.maxDelayMs ?? BATCH_DELAY_MS;
    this.maxRows = options.maxRows ?? BATCH_MAX_ROWS;
    this.concurrency = options.concurrency ?? 1;
    this.timers = options.timers ?? REAL_TIMERS;
  }

  write(writes: FrameWrites): Promise<void> {
    const batch = this.batch;
    if (batch.waiters.length === 0) batch.since = this.timers.now();
    if (writes.logs !== writes.latest && batch.latestOfSamples) {
      batch.latestOfSamples = false;
      // The samples so far were their frames' latest values, left out of the map until now.
      if (this.options.latestFromSamples) keepLatest(batch.latest, batch.logs as LatestRow[]);
    }
    if (writes.logs) for (const row of writes.logs) batch.logs.push(row);
    if (writes.latest) {
      // A batch whose store works its latest values out from the samples keeps only whether one has an
      // extra: the map cost the main thread a lookup per sample (docs/decisions.md, issue 41 item 3, round 6).
      if (!batch.latestOfSamples || !this.options.latestFromSamples) keepLatest(batch.latest, writes.latest);
      else if (!batch.withExtra) batch.withExtra = writes.latest.some((row) => row.extra !== null);
    }
    if (writes.deviceUpdate) {
      const { deviceId, update } = writes.deviceUpdate;
      batch.deviceUpdates.set(deviceId, { ...batch.deviceUpdates.get(deviceId), ...update });
    }
    if (writes.connection) batch.connections.push(writes.connection);
    if (writes.events) for (const event of writes.events) batch.events.push(event);
    const done = new Promise<void>((resolve, reject) => batch.waiters.push({ resolve, reject }));
    this.pump();
    return done;
  }

  /** Writes whatever is pending; resolves when everything queued so far is committed. */
  async flush(): Promise<void> {
    while (this.running.length > 0 || this.batch.waiters.length > 0) {
      if (this.batch.waiters.length > 0 && this.canStart(this.batch)) this.start();
      else await new Promise<void>((resolve) => this.idle.push(resolve));
    }
  }

  /**
   * Starts the pending batch when it is due and may run: at the next turn of the event loop (so the
   * frames already received are read first, and a commit's answers never start the next batch within
   * the same turn), or by a timer at the moment it will be due.
   */
  private pump(): void {
    const batch = this.batch;
    if (batch.waiters.length === 0 || !this.canStart(batch)) return;
    const due = batch.logs.length >= this.maxRows ? 0 : batch.since + this.maxDelayMs;
    if (this.timer && this.timerDue <= due) return;
    this.timer?.cancel();
    this.timerDue = due;
    this.timer = this.timers.setTimeout(
      () => {
        this.timer = null;
        const pending = this.batch;
        const ready = pending.logs.length >= this.maxRows || this.timers.now() >= pending.since + this.maxDelayMs;
        if (ready && pending.waiters.length > 0 && this.canStart(pending)) this.start();
        else this.pump();
      },
      Math.max(0, due - this.timers.now()),
    );
  }

  private canStart(batch: Batch): boolean {
    if (this.running.length >= this.concurrency) return false;
    const ordered = batch.deviceUpdates.size > 0 || batch.connections.length > 0;
    return !ordered || this.running.length === 0;
  }

  private start(): void {
    this.timer?.cancel();
    this.timer = null;
    const running: Running = { batch: this.batch, outcome: null };
    this.batch = emptyBatch();
    this.running.push(running);
    this.commit(running.batch).then(
      () => this.settle(running, { ok: true }),
      (error: unknown) => this.settle(running, { ok: false, error }),
    );
  }

  /** Records how a batch ended, answers every finished batch at the head of the line, and goes on. */
  private settle(running: Running, outcome: NonNullable<Running['outcome']>): void {
    running.outcome = outcome;
    while (this.running[0]?.outcome) {
      const { batch, outcome: ended } = this.running.shift()!;
      if (ended!.ok) {
        for (const waiter of batch.waiters) waiter.resolve();
        if (batch.events.length > 0) this.options.onCommitted?.(batch.events);
      } else {
        this.options.onError?.(ended!.error);
        for (const waiter of batch.waiters) waiter.reject(ended!.error);
      }
    }
    const idle = this.idle;
    this.idle = [];
    for (const resolve of idle) resolve();
    this.pump();
  }

  private async commit(batch: Batch): Promise<void> {
    const ofSamples = batch.latestOfSamples && this.options.latestFromSamples;
    // Only a batch with an extra needs the map here: the extras of the channels' latest samples.
    if (ofSamples && batch.withExtra) keepLatest(batch.latest, batch.logs as LatestRow[]);
    const latest = [...batch.latest.values()].flatMap((channels) => [...channels.values()]);
    const writes: BatchWrites = {
      logs: batch.logs,
      latest: ofSamples ? latest.filter((row) => row.extra !== null) : latest,
      latestOfSamples: batch.latestOfSamples,
      deviceUpdates: [...batch.deviceUpdates],
      connections: batch.connections,
    };
    const store =
      this.options.store ?? ((batchWrites: BatchWrites) => writeBatch(this.db, batchWrites, this.options.inbox));
    for (let attempt = 1; ; attempt += 1) {
      try {
        for (const event of await store(writes)) batch.events.push(event);
        return;
      } catch (error) {
        if ((error as { code?: unknown }).code !== DEADLOCK || attempt > DEADLOCK_RETRIES) throw error;
      }
    }
  }
}

/** Keeps in `latest` each channel's latest value of `rows`, by `shouldReplaceLatest` in their order. */
function keepLatest(latest: Map<string, Map<string, LatestRow>>, rows: readonly LatestRow[]): void {
  for (const row of rows) {
    let channels = latest.get(row.device_id);
    if (!channels) latest.set(row.device_id, (channels = new Map()));
    const current = channels.get(row.code);
    if (!current || shouldReplaceLatest(current, row)) channels.set(row.code, row);
  }
}

/**
 * Writes one batch in a transaction of its own: the samples (with their roll-ups; with an `inbox`, on
 * SQLite, into the inbox its mover moves into `logs`), the latest values (there, as a rule, in the
 * inbox's rows too: db/log-inbox.ts), the device changes and the connection changes. Answers the events of the connection changes.
 * With `latestOfSamples` (the writer thread's batches), `batch.latest` holds only the latest values
 * that have an extra, the others being the samples' own: it gives them all, and is called only where
 * they are upserted rather than stood for by the inbox's rows.
 */
export async function writeBatch(
  db: Kysely<Database>,
  batch: BatchWrites,
  inbox?: InboxMover,
  latestOfSamples?: () => LatestRow[],
): Promise<DeviceEvent[]> {
  const events: DeviceEvent[] = [];
  // Only SQLite's inbox takes the latest values as the samples' own: elsewhere they are all upserted.
  const writes = latestOfSamples && !inbox ? { ...batch, latest: latestOfSamples() } : batch;
  if (writes.deviceUpdates.length === 0 && writes.connections.length === 0 && !isSqlite(db)) {
    // Samples and latest values only (the steady stream): one statement, its own transaction, sharing
    // no row with the batches beside it (db/log-rollup-inbox.ts).
    await insertLogsToRollupInbox(db, writes.logs, writes.latest);
    return events;
  }
  let shards: number[] = [];
  await db.transaction().execute(async (trx) => {
    if (inbox) {
      shards = await appendToInbox(trx, writes.logs, writes.latest, latestOfSamples);
    } else if (isSqlite(trx)) await insertLogs(trx, writes.logs, writes.latest);
    else await insertLogsToRollupInbox(trx, writes.logs, writes.latest);
    // Devices in key order: two instances lock their rows alike.
    const updates = [...writes.deviceUpdates].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    for (const [deviceId, update] of updates) {
      await trx.updateTable('devices').set(update).where('id', '=', deviceId).execute();
    }
    for (const change of writes.connections) {
      const event = await applyConnectionChange(trx, change);
      if (event) events.push(event);
    }
  });
  inbox?.appended(shards);
  return events;
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
