import BetterSqlite3, { type Database as SqliteDatabase, type Statement } from 'better-sqlite3';
import {
  CompiledQuery,
  SqliteDialect,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';

/** How long a statement keeps trying while another process holds the database's lock. */
const BUSY_DEADLINE_MS = 5000;
const MAX_RETRY_DELAY_MS = 100;

/** How a connection waits out another connection's lock. */
export interface BusyRetry {
  /** How long a statement keeps trying, in ms. */
  deadlineMs: number;
  /** The longest pause between two tries, in ms (they start at 2 ms and double). */
  maxDelayMs: number;
}
/** Prepared statements kept for reuse. */
const STATEMENT_CACHE_SIZE = 200;

const isBusy = (error: unknown) => String((error as { code?: unknown })?.code ?? '').startsWith('SQLITE_BUSY');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One holder at a time of the single SQLite connection. */
class ConnectionMutex {
  private held: Promise<void> | null = null;
  private unlockHeld: (() => void) | null = null;

  async lock(): Promise<void> {
    while (this.held) await this.held;
    this.held = new Promise((resolve) => (this.unlockHeld = resolve));
  }

  unlock(): void {
    const unlock = this.unlockHeld;
    this.held = null;
    this.unlockHeld = null;
    unlock?.();
  }
}

/**
 * The single better-sqlite3 connection. better-sqlite3 waits for a lock synchronously, which would
 * freeze the whole event loop while another process holds the database (13.8 s measured); so the
 * busy timeout is 0 and a statement refused with SQLITE_BUSY is tried again after an asynchronous
 * pause, the connection released meanwhile so other queries (reads above all: WAL lets them run)
 * go on. Past {@link BUSY_DEADLINE_MS} the SQLITE_BUSY error stands: the call answers 503.
 */
class RetryingConnection implements DatabaseConnection {
  /** Prepared statements by their text, most recently used last. */
  private readonly statements = new Map<string, Statement>();

  constructor(
    private readonly db: SqliteDatabase,
    private readonly mutex: ConnectionMutex,
    private readonly retry: BusyRetry,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const deadline = Date.now() + this.retry.deadlineMs;
    for (let delay = Math.min(2, this.retry.maxDelayMs); ; delay = Math.min(delay * 2, this.retry.maxDelayMs)) {
      try {
        return this.run<R>(query);
      } catch (error) {
        // Inside a transaction the lock is already ours (BEGIN IMMEDIATE): busy there is not waited out.
        if (!isBusy(error) || this.db.inTransaction || Date.now() + delay > deadline) throw error;
      }
      this.mutex.unlock();
      await sleep(delay);
      await this.mutex.lock();
    }
  }

  /**
   * A statement prepared once and run again: ingest's batch inserts of thousands of values (their
   * texts of a few fixed sizes) spent a good part of their time preparing. The least recently used
   * is let go beyond {@link STATEMENT_CACHE_SIZE}.
   */
  private prepared(sql: string): Statement {
    const cached = this.statements.get(sql);
    if (cached) {
      this.statements.delete(sql);
      this.statements.set(sql, cached);
      return cached;
    }
    const statement = this.db.prepare(sql);
    this.statements.set(sql, statement);
    if (this.statements.size > STATEMENT_CACHE_SIZE) this.statements.delete(this.statements.keys().next().value!);
    return statement;
  }

  // eslint-disable-next-line require-yield -- Fieldlink streams no query; the interface needs it.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('Streaming queries are not supported on SQLite.');
  }

  private run<R>({ sql, parameters }: CompiledQuery): QueryResult<R> {
    const statement = this.prepared(sql);
    if (statement.reader) return { rows: statement.all(parameters) as R[] };
    const { changes, lastInsertRowid } = statement.run(parameters);
    return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
  }
}

class RetryingSqliteDriver implements Driver {
  private readonly mutex = new ConnectionMutex();
  private readonly connection: RetryingConnection;

  constructor(
    private readonly db: SqliteDatabase,
    retry: BusyRetry,
  ) {
    this.connection = new RetryingConnection(db, this.mutex, retry);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.mutex.lock();
    return this.connection;
  }

  /** Takes the write lock at once, so no statement of the transaction meets another writer's lock. */
  async beginTransaction(connection: DatabaseConnection, _settings: TransactionSettings): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async releaseConnection(): Promise<void> {
    this.mutex.unlock();
  }

  async destroy(): Promise<void> {
    this.db.close();
  }
}

/** Kysely's SQLite dialect with a driver that waits out other processes' locks without blocking. */
export class RetryingSqliteDialect extends SqliteDialect {
  constructor(
    private readonly sqlite: SqliteDatabase,
    private readonly retry: BusyRetry = { deadlineMs: BUSY_DEADLINE_MS, maxDelayMs: MAX_RETRY_DELAY_MS },
  ) {
    super({ database: sqlite });
  }

  override createDriver(): Driver {
    return new RetryingSqliteDriver(this.sqlite, this.retry);
  }
}

/**
 * A connection to a SQLite file (or `:memory:`) as the server uses it: WAL, synchronous NORMAL, the WAL
 * checkpointed by a thread of its own (`sqlite-checkpointer.ts`) rather than by this connection's
 * commits, a 64 MiB page cache, foreign keys enforced, and no synchronous wait for a lock.
 */
export function openSqliteConnection(file: string): SqliteDatabase {
  const sqlite = new BetterSqlite3(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  // Never wait synchronously: the driver retries asynchronously instead.
  sqlite.pragma('busy_timeout = 0');
  // The WAL is checkpointed by a thread of its own (for a file), never by a commit of this connection.
  sqlite.pragma('wal_autocheckpoint = 0');
  // When the WAL starts over, its file is cut back to 64 MiB (it is reused, not cut, below that).
  sqlite.pragma(`journal_size_limit = ${64 * 2 ** 20}`);
  // 64 MiB page cache: a year-long chart window reads tens of thousands of log pages.
  sqlite.pragma('cache_size = -65536');
  sqlite.pragma('foreign_keys = ON');
  return sqlite;
}
