import type { StorageDialect } from './benchmark';
import type { LatencySummary } from './latency-histogram';
import type { ProcessUsage } from './process-meter';
import type { DirectTable } from './peers/limits';

/** Calls between the ingest benchmark (parent) and its server and load-generator processes. */

export interface DeviceCredentials {
  thingName: string;
  password: string;
}

export interface ServerSetup {
  dialect: StorageDialect;
  /** PostgreSQL server on which a fresh database is created (and dropped afterwards). */
  postgresUrl: string;
  devices: number;
}

export interface ServerReady {
  mqttPort: number;
  devices: DeviceCredentials[];
  /** Where the data lives, for the report. */
  storage: string;
  setupMs: number;
}

export interface IngestCounters {
  frames: number;
  dataPoints: number;
  rejected: number;
}

export interface ServerMark {
  usage: ProcessUsage;
  counters: IngestCounters;
}

export interface StoredRows {
  logRows: number;
  latestRows: number;
}

/**
 * An old backlog for the log maintenance job, written by the bulk loader (SQL, with its roll-ups) for
 * `devices` devices, each of their channels a sample a minute: `compactHours` hours ending eight days
 * ago (past the week after which samples move into hourly blocks), and a day past each retention the
 * job applies (the FREE plan's raw samples; every plan's, which on PostgreSQL is a monthly partition
 * of its own, as the job made it then, to be detached and dropped). Backlog `run` (0, 1, ...) is for
 * the job's run of that number: devices of its own (the `run`-th `devices` of them) and, past every
 * retention, a month of its own (`run` months earlier), so each run finds the same work.
 */
export interface BacklogSpec {
  devices: number;
  compactHours: number;
  run: number;
}

export interface BacklogLoaded {
  /** Samples written in all. */
  samples: number;
  loadMs: number;
}

/** One run of the app's own `logs.maintain` job, from queueing to its end (or to the time limit). */
export interface MaintenanceEnd {
  finished: boolean;
  ms: number;
}

/**
 * What the run left, counted once the load has stopped: counting `logs` by time is a scan of the whole
 * table, which in the measured window stalled ingest beside it (SQLite's main thread, PostgreSQL's cores).
 */
export interface MaintenanceOutcome {
  /** Backlog samples still in `logs` (0 once the run is over), and hourly blocks made. */
  backlogRowsLeft: number;
  blocks: number;
  /** PostgreSQL partitions of `logs` and `log_blocks` dropped by the runs. */
  partitionsDropped: number;
}

/** The server process: the real app (buildApp) with its embedded broker, on a fresh database. */
export type ServerCalls = {
  setup(params: ServerSetup): Promise<ServerReady>;
  mark(params: null): Promise<ServerMark>;
  /** Writes whatever is pending, then counts the rows stored since set-up (the backlog left out). */
  countRows(params: null): Promise<StoredRows>;
  loadBacklog(params: BacklogSpec): Promise<BacklogLoaded>;
  /**
   * Queues run `run` of the log maintenance job in the app's job queue and waits up to `timeoutMs` for
   * its end; called again, waits for the same run.
   */
  runMaintenance(params: { run: number; timeoutMs: number }): Promise<MaintenanceEnd>;
  /** Counts what the runs left (after them, with the load stopped). */
  maintenanceOutcome(params: null): Promise<MaintenanceOutcome>;
  /** Closes the app, drops the database, and lets the process exit. */
  shutdown(params: null): Promise<void>;
};

/**
 * Where the load generator sends each device's frames: MQTT at QoS 1 (a frame is done at its PUBACK),
 * InfluxDB's line protocol over HTTP, one request per frame (done at its 204), or straight into a
 * database's `logs` (or SQLite's inbox) in the frame writer's batches (done once committed).
 */
export type LoadTarget =
  | { kind: 'mqtt'; brokerUrl: string }
  | { kind: 'influx'; writeUrl: string }
  | { kind: 'database'; dialect: StorageDialect; url: string; table: DirectTable };

export interface LoadConnect {
  target: LoadTarget;
  devices: DeviceCredentials[];
}

export interface LoadStage {
  /** Aggregate frames per second to offer; null publishes as fast as acknowledgements allow. */
  framesPerSecond: number | null;
  /** Publishes awaiting PUBACK per device, at most. */
  inFlightPerDevice: number;
  /**
   * Frames a device keeps while its in-flight slots are taken, as firmware keeps unacknowledged
   * samples; beyond this they are dropped and counted.
   */
  backlogPerDevice: number;
}

export interface LoadMark {
  usage: ProcessUsage;
  /** Frames acknowledged (PUBACK) since the previous mark. */
  ackedFrames: number;
  /** Frames published since the previous mark. */
  publishedFrames: number;
  /** Frames the offered rate called for that were dropped because their device's backlog was full. */
  droppedFrames: number;
  /** Most frames waiting on one device (for a free in-flight slot) at any moment since the previous mark. */
  peakBacklog: number;
  /** Publish-to-PUBACK latency of the frames acknowledged since the previous mark. */
  latency: LatencySummary;
  /** Sample-to-PUBACK latency: also counts the time a frame waited on its device for a free slot. */
  sampleLatency: LatencySummary;
  /** When the mark was taken, on the load generator's clock (performance.now()), for {@link LoadCalls.latencyBetween}. */
  atMs: number;
}

export interface LoadTotals {
  publishedFrames: number;
  ackedFrames: number;
  failedFrames: number;
  /** Unexpected disconnects since connecting. */
  disconnects: number;
}

/** A window of the load generator's clock (performance.now()), `[fromMs, toMs)`. */
export interface LoadWindow {
  fromMs: number;
  toMs: number;
}

/** The load generator: one client per device (MQTT or HTTP), sending log frames. */
export type LoadCalls = {
  connect(params: LoadConnect): Promise<{ connectMs: number }>;
  startStage(params: LoadStage): Promise<void>;
  mark(params: null): Promise<LoadMark>;
  /**
   * Publish-to-PUBACK latency of the frames of the stage running acknowledged in any of these windows
   * `[fromMs, toMs)` of the load generator's clock (a mark's `atMs`), pooled: windows chosen after the
   * fact.
   */
  latencyIn(params: { windows: readonly LoadWindow[] }): Promise<LatencySummary>;
  /** Stops publishing and waits until every publish is acknowledged or failed. */
  stopStage(params: null): Promise<LoadTotals>;
  /** Disconnects every client and lets the process exit. */
  disconnect(params: null): Promise<void>;
};

/** Data points in each benchmark log frame (channels c1 to c10). */
export const POINTS_PER_FRAME = 10;
