import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import {
  freePort,
  MOSQUITTO_BIN,
  waitForPort,
  encodeInboxBody,
  INBOX_SHARD_SPAN,
  INBOX_SHARDS,
  inboxShard,
  startCheckpointer,
  BATCH_DELAY_MS,
  BATCH_MAX_ROWS,
  POSTGRES_BATCHES_IN_FLIGHT,
} from '@fieldlink/server/testing';
import type { StorageDialect } from '../benchmark';

/**
 * The limits of this machine beside which the ingest benchmark sets Fieldlink's figures: the same
 * rows written straight into the database with the same batching (no MQTT, no server), and the same
 * publisher against a bare Mosquitto that acknowledges on receipt and stores nothing.
 */

interface Pending {
  rows: { deviceId: string; codes: readonly string[]; t: number; values: readonly string[] }[];
  count: number;
  waiters: ((error?: Error) => void)[];
  /** When its first frame came (performance.now()). */
  since: number;
}

/** A batch being committed, and how it ended (undefined while it runs; null when committed). */
interface Committing {
  batch: Pending;
  failure: Error | null | undefined;
}

const emptyPending = (): Pending => ({ rows: [], count: 0, waiters: [], since: 0 });

/**
 * Where the database direct limit writes: `logs`, a row per data point (what every stored sample
 * becomes, the rows issue 41 measures the limit by), or SQLite's inbox, a row per shard and batch
 * (where the server commits a frame before its PUBACK; the mover takes it into `logs` later).
 */
export type DirectTable = 'logs' | 'inbox';

/**
 * Rows straight into a table of a database the server's migrations made (`logs` on both, or SQLite's
 * inbox, `log_inbox_runs`, at the end of each device's shard: {@link DirectTable}), in transactions
 * batched as the frame writer batches them (apps/server/src/ingest/frame-writer.ts: a batch goes once
 * its first frame has waited 15 ms or it holds 5,000 rows, when a writer is free; one at a time on
 * SQLite, three side by side on PostgreSQL, each on a connection of its own, answered in the order
 * they started): a multi-row INSERT (PostgreSQL: one `unnest` statement of array parameters, ON
 * CONFLICT DO NOTHING; SQLite: prepared VALUES lists, ON CONFLICT DO NOTHING into `logs`, a row per
 * shard into the inbox as the server writes), committed, then each of the batch's frames is done. No
 * roll-ups, no latest values, no parsing, no move out of the inbox: the least any store of these rows
 * costs on this database.
 */
export class DirectLogWriter {
  private pending = emptyPending();
  private timer: NodeJS.Timeout | null = null;
  private timerDue = 0;
  private readonly committing: Committing[] = [];

  private constructor(
    private readonly commit: (batch: Pending) => Promise<void>,
    private readonly concurrency: number,
  ) {}

  static async open(dialect: StorageDialect, url: string, table: DirectTable): Promise<DirectLogWriter> {
    if (dialect === 'sqlite') {
      const db = new SqliteDatabase(url);
      // The server's settings (apps/server/src/db/database.ts), its WAL checkpointed by a thread of its own.
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      db.pragma('wal_autocheckpoint = 0');
      db.pragma('cache_size = -65536');
      startCheckpointer(url);
      return new DirectLogWriter(table === 'logs' ? sqliteLogsCommit(db) : sqliteInboxCommit(db), 1);
    }
    const pool = new pg.Pool({ connectionString: url, max: POSTGRES_BATCHES_IN_FLIGHT });
    return new DirectLogWriter(async (batch) => {
      const columns: [string[], string[], number[], number[]] = [[], [], [], []];
      for (const row of batch.rows) {
        for (let i = 0; i < row.codes.length; i += 1) {
          columns[0].push(row.deviceId);
          columns[1].push(row.codes[i]!);
          columns[2].push(row.t);
          columns[3].push(Number(row.values[i]));
        }
      }
      const client = await pool.connect();
      try {
        await client.query('begin');
        await client.query(
          `insert into logs (device_id, code, t, value)
           select * from unnest($1::text[], $2::text[], $3::bigint[], $4::double precision[]) on conflict do nothing`,
          columns,
        );
        await client.query('commit');
      } finally {
        client.release();
      }
    }, POSTGRES_BATCHES_IN_FLIGHT);
  }

  /** Queues one frame's rows; `done` once they are committed. */
  write(
    deviceId: string,
    codes: readonly string[],
    t: number,
    values: readonly string[],
    done: (error?: Error) => void,
  ) {
    if (this.pending.waiters.length === 0) this.pending.since = performance.now();
    this.pending.rows.push({ deviceId, codes, t, values });
    this.pending.count += codes.length;
    this.pending.waiters.push(done);
    this.schedule();
  }

  /**
   * As the frame writer: the pending batch goes when it is due and a writer is free, at the next turn
   * of the event loop at the soonest (SQLite commits synchronously: started from a commit's answers,
   * the next commit would hold the loop).
   */
  private schedule(): void {
    if (this.pending.waiters.length === 0 || this.committing.length >= this.concurrency) return;
    const due = this.pending.count >= BATCH_MAX_ROWS ? 0 : this.pending.since + BATCH_DELAY_MS;
    if (this.timer && this.timerDue <= due) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerDue = due;
    this.timer = setTimeout(
      () => {
        this.timer = null;
        const ready = this.pending.count >= BATCH_MAX_ROWS || performance.now() >= this.pending.since + BATCH_DELAY_MS;
        if (ready && this.pending.waiters.length > 0 && this.committing.length < this.concurrency) this.start();
        else this.schedule();
      },
      Math.max(0, due - performance.now()),
    );
  }

  private start(): void {
    const committing: Committing = { batch: this.pending, failure: undefined };
    this.pending = emptyPending();
    this.committing.push(committing);
    this.commit(committing.batch).then(
      () => this.settle(committing, null),
      (error: unknown) => this.settle(committing, error instanceof Error ? error : new Error(String(error))),
    );
  }

  /** Answers the finished batches at the head of the line, in the order they started. */
  private settle(committing: Committing, failure: Error | null): void {
    committing.failure = failure;
    while (this.committing[0] && this.committing[0].failure !== undefined) {
      const { batch, failure: ended } = this.committing.shift()!;
      for (const waiter of batch.waiters) waiter(ended ?? undefined);
    }
    this.schedule();
  }
}

/** Prepared multi-row INSERTs of `columns` parameters a row, one per row count, made when first used. */
function preparedValues(db: SqliteDatabase.Database, columns: number, insert: (values: string) => string) {
  const statements = new Map<number, SqliteDatabase.Statement>();
  const row = `(${Array.from({ length: columns }, () => '?').join(', ')})`;
  return (rows: number) => {
    let prepared = statements.get(rows);
    if (!prepared) {
      prepared = db.prepare(insert(Array.from({ length: rows }, () => row).join(', ')));
      statements.set(rows, prepared);
    }
    return prepared;
  };
}

/** Rows a SQLite statement into `logs` takes: four parameters each, under SQLite's 32,766. */
const SQLITE_LOGS_ROWS_PER_STATEMENT = 1_000;

/** SQLite: a row per data point into `logs`, skipping any already stored. */
function sqliteLogsCommit(db: SqliteDatabase.Database): (batch: Pending) => Promise<void> {
  const statement = preparedValues(
    db,
    4,
    (values) => `insert into logs (device_id, code, t, value) values ${values} on conflict do nothing`,
  );
  const insert = db.transaction((parameters: unknown[]) => {
    for (let i = 0; i < parameters.length; i += SQLITE_LOGS_ROWS_PER_STATEMENT * 4) {
      const chunk = parameters.slice(i, i + SQLITE_LOGS_ROWS_PER_STATEMENT * 4);
      statement(chunk.length / 4).run(chunk);
    }
  });
  return async (batch) => {
    const parameters: unknown[] = [];
    for (const row of batch.rows) {
      for (let i = 0; i < row.codes.length; i += 1)
        parameters.push(row.deviceId, row.codes[i], row.t, Number(row.values[i]));
    }
    insert(parameters);
  };
}

/**
 * SQLite: where the server commits samples, the end of each device's shard of the inbox, a row per
 * shard and batch (apps/server/src/db/log-inbox.ts), this writer's the only rows there.
 */
function sqliteInboxCommit(db: SqliteDatabase.Database): (batch: Pending) => Promise<void> {
  const statement = preparedValues(
    db,
    3,
    (values) => `insert into log_inbox_runs (id, samples, body) values ${values}`,
  );
  const insert = db.transaction((parameters: unknown[]) => statement(parameters.length / 3).run(parameters));
  const last = Array.from({ length: INBOX_SHARDS }, (_, shard) => shard * INBOX_SHARD_SPAN);
  return async (batch) => {
    const byShard = new Map<number, { device_id: string; code: string; t: number; value: number }[]>();
    for (const row of batch.rows) {
      const shard = inboxShard(row.deviceId);
      let samples = byShard.get(shard);
      if (!samples) byShard.set(shard, (samples = []));
      for (let i = 0; i < row.codes.length; i += 1) {
        samples.push({ device_id: row.deviceId, code: row.codes[i]!, t: row.t, value: Number(row.values[i]) });
      }
    }
    const parameters: unknown[] = [];
    for (const shard of [...byShard.keys()].sort((a, b) => a - b)) {
      const samples = byShard.get(shard)!;
      last[shard] = last[shard]! + 1;
      parameters.push(last[shard], samples.length, encodeInboxBody(samples));
    }
    insert(parameters);
  };
}

export interface BareMosquitto {
  readonly url: string;
  readonly pid: number | undefined;
  readonly version: string;
  stop(): Promise<void>;
}

/** Why the bare broker cannot run here, or null when it can. */
export function mosquittoMissing(): string | null {
  return fs.existsSync(MOSQUITTO_BIN) ? null : `bare Mosquitto skipped: ${MOSQUITTO_BIN} is absent`;
}

/**
 * Mosquitto with nothing but a loopback listener: anonymous clients, no persistence, no plugin, no
 * subscriber. It acknowledges each QoS 1 publish on receipt and drops it: what the publisher, the
 * network stack and an MQTT broker cost together on this machine.
 */
export async function startBareMosquitto(): Promise<BareMosquitto> {
  const missing = mosquittoMissing();
  if (missing) throw new Error(missing);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fieldlink-bench-mosquitto-'));
  const port = await freePort();
  const config = path.join(dir, 'mosquitto.conf');
  // No limit on messages in flight or queued: the devices' own in-flight limits apply, as with Fieldlink.
  fs.writeFileSync(
    config,
    [`listener ${port} 127.0.0.1`, 'allow_anonymous true', 'persistence false', 'max_inflight_messages 0'].join('\n'),
  );
  let output = '';
  const child = spawn(MOSQUITTO_BIN, ['-c', config], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  child.stderr.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitForPort(port, 10_000, child);
  } catch (error) {
    await stop();
    throw new Error(`${error instanceof Error ? error.message : String(error)}: ${output}`);
  }
  const version = /mosquitto version (\S+)/i.exec(output)?.[1] ?? '2';
  return { url: `mqtt://127.0.0.1:${port}`, pid: child.pid, version: `Mosquitto ${version}`, stop };
}
