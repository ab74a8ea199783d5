import type { Kysely } from 'kysely';
import pg from 'pg';
import type { Database } from './schema';

/**
 * Reading rows by `COPY … TO STDOUT (FORMAT binary)` on PostgreSQL (docs/decisions.md, "Serving a
 * decade of 100 channels"). node-postgres asks for every result in text, so a `bytea` column comes
 * as hex or base64 that PostgreSQL encodes and Node decodes: for a decade of 100 channels' packed
 * roll-ups (15 MB) PostgreSQL spent about 45 ms encoding alone. Binary COPY sends the bytes as they
 * are stored (and integers as 8 bytes); node-postgres hands each CopyData message to the running
 * query, which is what {@link copyRows} plugs in.
 */

/** The pool behind each Kysely instance `openStorage` makes on PostgreSQL. */
const pools = new WeakMap<Kysely<Database>, pg.Pool>();

/** Registers the pool of a PostgreSQL Kysely instance, for {@link copyRows}. */
export function registerPostgresPool(db: Kysely<Database>, pool: pg.Pool): void {
  pools.set(db, pool);
}

/** A column of a binary COPY row: its bytes (a view valid only while the row is decoded), null for NULL. */
export type CopyField = Buffer | null;

const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');

/**
 * Splits the stream of a binary COPY into rows, whatever the messages' boundaries: rows wholly inside
 * a chunk are decoded from it, a row spread over chunks from their concatenation.
 */
export class BinaryCopyReader<Row> {
  private pending: Buffer = Buffer.alloc(0);
  private headerRead = false;
  private ended = false;
  readonly rows: Row[] = [];

  constructor(private readonly decode: (fields: CopyField[]) => Row) {}

  push(chunk: Buffer): void {
    let bytes = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    let at = 0;
    if (!this.headerRead) {
      const whole = bytes.length >= SIGNATURE.length + 8;
      if (
        !bytes.subarray(0, SIGNATURE.length).equals(SIGNATURE.subarray(0, Math.min(bytes.length, SIGNATURE.length)))
      ) {
        throw new Error('Not a binary COPY stream');
      }
      // The signature, flags and the header extension's length, then the extension.
      at = whole ? SIGNATURE.length + 8 + bytes.readUInt32BE(SIGNATURE.length + 4) : Infinity;
      if (at > bytes.length) {
        this.pending = Buffer.from(bytes);
        return;
      }
      this.headerRead = true;
    }
    for (;;) {
      const row = this.readRow(bytes, at);
      if (row === null) break;
      at = row;
    }
    bytes = bytes.subarray(at);
    // What is left is copied: node-postgres reuses the chunk's memory for the next message.
    this.pending = bytes.length === 0 ? Buffer.alloc(0) : Buffer.from(bytes);
  }

  /** Decodes the row at `at`, answering where the next one starts, or null when it is not whole yet. */
  private readRow(bytes: Buffer, at: number): number | null {
    if (this.ended || at + 2 > bytes.length) return null;
    const count = bytes.readInt16BE(at);
    if (count === -1) {
      this.ended = true;
      return at + 2;
    }
    const fields: CopyField[] = [];
    let next = at + 2;
    for (let i = 0; i < count; i += 1) {
      if (next + 4 > bytes.length) return null;
      const length = bytes.readInt32BE(next);
      next += 4;
      if (length === -1) {
        fields.push(null);
        continue;
      }
      if (next + length > bytes.length) return null;
      fields.push(bytes.subarray(next, next + length));
      next += length;
    }
    this.rows.push(this.decode(fields));
    return next;
  }

  finish(): Row[] {
    if (!this.ended || this.pending.length > 0) throw new Error('Binary COPY stream ended early');
    return this.rows;
  }
}

/**
 * The rows of `select` (an SQL query whose values are written into it as literals: COPY takes no
 * parameters), read by binary COPY on one connection of the storage's pool, each decoded from its
 * fields as it arrives. `db` must be the Kysely instance `openStorage` made, not a transaction.
 */
export async function copyRows<Row>(
  db: Kysely<Database>,
  select: string,
  decode: (fields: CopyField[]) => Row,
): Promise<Row[]> {
  const pool = pools.get(db);
  if (!pool) throw new Error('copyRows needs the storage’s own PostgreSQL instance');
  const client = await pool.connect();
  let broken = false;
  try {
    return await new Promise<Row[]>((resolve, reject) => {
      const reader = new BinaryCopyReader(decode);
      let failure: unknown = null;
      // A submittable query (the interface node-postgres' cursors and COPY streams use): the
      // client calls these as the server's messages arrive, and its queue waits for ReadyForQuery.
      const query = {
        submit: (connection: { query(text: string): void }) => {
          connection.query(`copy (${select}) to stdout (format binary)`);
        },
        handleCopyData: (message: { chunk: Buffer }) => {
          if (failure !== null) return;
          try {
            reader.push(message.chunk);
          } catch (error) {
            failure = error;
          }
        },
        // An error answers at once: a broken connection sends no ReadyForQuery after it.
        handleError: (error: unknown) => {
          broken = true;
          reject(error instanceof Error ? error : new Error(String(error)));
        },
        handleReadyForQuery: () => {
          try {
            if (failure !== null) throw failure;
            resolve(reader.finish());
          } catch (error) {
            reject(error instanceof Error ? error : new Error(String(error)));
          }
        },
        handleCommandComplete: () => undefined,
        handleRowDescription: () => undefined,
        handleDataRow: () => undefined,
        handleEmptyQuery: () => undefined,
        handlePortalSuspended: () => undefined,
        handleCopyInResponse: () => undefined,
      };
      client.query(query as unknown as pg.QueryConfig);
    });
  } finally {
    // A client whose query failed is not given back for reuse: it may still be mid-answer.
    client.release(broken);
  }
}

/** A text value as an SQL literal. */
export function sqlText(value: string): string {
  return pg.escapeLiteral(value);
}

/** A safe integer as an SQL literal (anything else is refused rather than written into SQL). */
export function sqlInteger(value: number): string {
  if (!Number.isSafeInteger(value)) throw new Error(`Not an integer: ${value}`);
  return String(value);
}

/** A binary COPY field of `bigint` as a number (unix ms are far inside Number's exact range). */
export function int8Field(field: CopyField): number {
  if (field === null || field.length !== 8) throw new Error('Not a bigint field');
  return Number(field.readBigInt64BE(0));
}

/** A binary COPY field of `bytea`: a view on the driver's buffer. */
export function bytesField(field: CopyField): Buffer {
  if (field === null) throw new Error('Unexpected NULL');
  return field;
}

/** A binary COPY field of text. */
export function textField(field: CopyField): string {
  if (field === null) throw new Error('Unexpected NULL');
  return field.toString('utf8');
}
