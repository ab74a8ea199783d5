import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { freePort, MOSQUITTO_BIN, waitForPort } from '../../../apps/server/src/cluster/testing/mosquitto';
import { INBOX_SHARD_SPAN, INBOX_SHARDS, inboxShard } from '../../../apps/server/src/db/log-inbox';
import { startCheckpointer } from '../../../apps/server/src/db/sqlite-checkpointer';
import { FrameWriter, POSTGRES_BATCHES_IN_FLIGHT } from '../../../apps/server/src/ingest/frame-writer';
import type { StorageDialect } from '../benchmark';

/**
 * The limits of this machine beside which the ingest benchmark sets Fieldlink's figures: the same
 * rows written straight into the database with the same batching (no MQTT, no server), and the same
 * publisher against a bare Mosquitto that acknowledges on receipt and stores nothing.
 */

// SQLite allows 32,766 bound values: 2,000 rows of 5 columns, and a second statement for the rest.
const SQLITE_ROWS_PER_STATEMENT = 2000;

/**
 * Rows straight into the table where the server commits them, of a database the server's migrations
 * made (PostgreSQL: `logs`; SQLite: its inbox, `log_inbox`, at the end of each device's shard), in
 * transactions batched by the server's own frame writer (apps/server/src/ingest/frame-writer.ts: a
 * batch goes once its first frame has waited 15 ms or it holds 5,000 rows, when its lane is free; one
 * lane on SQLite, three side by side on PostgreSQL, each on a connection of its own): a multi-row
 * INSERT (PostgreSQL: one `unnest` statement of array parameters, ON CONFLICT DO NOTHING; SQLite:
 * prepared VALUES lists), committed, then each of the batch's frames is done. No roll-ups, no latest
 * values, no parsing, no move out of the inbox: the least any store of these rows costs on this
 * database.
 */
export class DirectLogWriter {
  private constructor(private readonly writer: FrameWriter) {}

  static async open(dialect: StorageDialect, url: string): Promise<DirectLogWriter> {
    if (dialect === 'sqlite') {
      const db = new SqliteDatabase(url);
      // The server's settings (apps/server/src/db/database.ts), its WAL checkpointed by a thread of its own.
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      db.pragma('wal_autocheckpoint = 0');
      db.pragma('cache_size = -65536');
      startCheckpointer(url);
      const statements = new Map<number, SqliteDatabase.Statement>();
      const statement = (rows: number) => {
        let prepared = statements.get(rows);
        if (!prepared) {
          const values = Array.from({ length: rows }, () => '(?, ?, ?, ?, ?)').join(', ');
          prepared = db.prepare(`insert into log_inbox (id, device_id, code, t, value) values ${values}`);
          statements.set(rows, prepared);
        }
        return prepared;
      };
      const insert = db.transaction((parameters: unknown[]) => {
        for (let i = 0; i < parameters.length; i += SQLITE_ROWS_PER_STATEMENT * 5) {
          const chunk = parameters.slice(i, i + SQLITE_ROWS_PER_STATEMENT * 5);
          statement(chunk.length / 5).run(chunk);
        }
      });
      // Where the server commits samples: the end of each device's shard of the inbox
      // (apps/server/src/db/log-inbox.ts), this writer's the only rows there.
      const last = Array.from({ length: INBOX_SHARDS }, (_, shard) => shard * INBOX_SHARD_SPAN);
      return new DirectLogWriter(
        new FrameWriter(null, {
          store: async ({ logs }) => {
            const rows: [id: number, deviceId: string, code: string, t: number, value: number][] = [];
            for (const { device_id, code, t, value } of logs) {
              const shard = inboxShard(device_id);
              last[shard] = last[shard]! + 1;
              rows.push([last[shard]!, device_id, code, t, value]);
            }
            rows.sort((a, b) => a[0] - b[0]);
            insert(rows.flat());
            return [];
          },
        }),
      );
    }
    const pool = new pg.Pool({ connectionString: url, max: POSTGRES_BATCHES_IN_FLIGHT });
    return new DirectLogWriter(
      new FrameWriter(null, {
        concurrency: POSTGRES_BATCHES_IN_FLIGHT,
        store: async ({ logs }) => {
          const client = await pool.connect();
          try {
            await client.query('begin');
            await client.query(
              `insert into logs (device_id, code, t, value)
               select * from unnest($1::text[], $2::text[], $3::bigint[], $4::double precision[]) on conflict do nothing`,
              [
                logs.map((row) => row.device_id),
                logs.map((row) => row.code),
                logs.map((row) => row.t),
                logs.map((row) => row.value),
              ],
            );
            await client.query('commit');
          } finally {
            client.release();
          }
          return [];
        },
      }),
    );
  }

  /** Queues one frame's rows; `done` once they are committed. */
  write(
    deviceId: string,
    codes: readonly string[],
    t: number,
    values: readonly string[],
    done: (error?: Error) => void,
  ) {
    const logs = codes.map((code, i) => ({ device_id: deviceId, code, t, value: Number(values[i]) }));
    this.writer.write({ logs }).then(
      () => done(),
      (error: unknown) => done(error instanceof Error ? error : new Error(String(error))),
    );
  }
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
