import { Writable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { newId } from '../security/secrets';

/** Content is stored in rows of this many bytes: large enough to be few, small enough to stream. */
export const FILE_CHUNK_BYTES = 256 * 1024;

/** A finished file as it is served. */
export interface StoredFile {
  id: string;
  name: string;
  contentType: string;
  size: number;
  createdAt: number;
}

/** Where a document's bytes go: a stored file, or (in a worker thread) the port to the thread storing it. */
export type DocumentSink = Pick<FileWriter, 'write' | 'stream'>;

/** A Node stream over a sink's `write`, for producers that pipe (pdfkit); it honours back-pressure. */
export function writableOf(sink: Pick<FileWriter, 'write'>): Writable {
  return new Writable({
    write: (chunk: Buffer, _encoding, callback) => {
      sink.write(chunk).then(() => callback(), callback);
    },
  });
}

/**
 * A file being written. Bytes are buffered up to {@link FILE_CHUNK_BYTES} and then stored as one
 * row, so memory stays at one chunk whatever the document's size. Nothing is served before
 * {@link FileWriter.finish}; {@link FileWriter.abort} removes what was written.
 */
export class FileWriter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private seq = 0;
  private size = 0;

  constructor(
    private readonly db: Kysely<Database>,
    readonly id: string,
    private readonly name: string,
    private readonly contentType: string,
    private readonly createdAt: number,
  ) {}

  /** Bytes written so far. */
  get bytesWritten(): number {
    return this.size;
  }

  async write(data: Buffer | string): Promise<void> {
    const buffer = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    if (buffer.length === 0) return;
    this.pending.push(buffer);
    this.pendingBytes += buffer.length;
    this.size += buffer.length;
    while (this.pendingBytes >= FILE_CHUNK_BYTES) await this.flush(FILE_CHUNK_BYTES);
  }

  /** A Node stream over {@link write}, for producers that pipe (pdfkit); it honours back-pressure. */
  stream(): Writable {
    return writableOf(this);
  }

  /** Stores the rest and marks the file complete; answers what is now served. */
  async finish(): Promise<StoredFile> {
    if (this.pendingBytes > 0) await this.flush(this.pendingBytes);
    await this.db.updateTable('stored_files').set({ size: this.size, complete: 1 }).where('id', '=', this.id).execute();
    return { id: this.id, name: this.name, contentType: this.contentType, size: this.size, createdAt: this.createdAt };
  }

  /** Removes the file and what was written of it. */
  async abort(): Promise<void> {
    this.pending = [];
    this.pendingBytes = 0;
    await removeFile(this.db, this.id);
  }

  private async flush(bytes: number): Promise<void> {
    const all = Buffer.concat(this.pending);
    const data = all.subarray(0, bytes);
    const rest = all.subarray(bytes);
    this.pending = rest.length > 0 ? [Buffer.from(rest)] : [];
    this.pendingBytes = rest.length;
    const seq = this.seq;
    this.seq += 1;
    await this.db.insertInto('stored_file_chunks').values({ file_id: this.id, seq, data }).execute();
  }
}

async function removeFile(db: Kysely<Database>, id: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('stored_file_chunks').where('file_id', '=', id).execute();
    await trx.deleteFrom('stored_files').where('id', '=', id).execute();
  });
}

/**
 * Files of generated documents, kept in the database (both dialects) in chunks, so any instance of
 * a cluster serves what another wrote, and a backup of the database holds them too.
 */
export class FileStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => number = Date.now,
  ) {}

  /** Starts a file; write to it, then finish (or abort) it. */
  async create(name: string, contentType: string): Promise<FileWriter> {
    const id = newId();
    const createdAt = this.now();
    await this.db
      .insertInto('stored_files')
      .values({ id, name, content_type: contentType, size: 0, complete: 0, created_at: createdAt })
      .execute();
    return new FileWriter(this.db, id, name, contentType, createdAt);
  }

  /** A complete file, or undefined (missing, or still being written). */
  async find(id: string): Promise<StoredFile | undefined> {
    const row = await this.db
      .selectFrom('stored_files')
      .selectAll()
      .where('id', '=', id)
      .where('complete', '=', 1)
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      id: row.id,
      name: row.name,
      contentType: row.content_type,
      size: Number(row.size),
      createdAt: Number(row.created_at),
    };
  }

  /** The file's content, one stored chunk at a time. */
  async *read(id: string): AsyncGenerator<Buffer> {
    for (let seq = 0; ; seq += 1) {
      const row = await this.db
        .selectFrom('stored_file_chunks')
        .select('data')
        .where('file_id', '=', id)
        .where('seq', '=', seq)
        .executeTakeFirst();
      if (!row) return;
      yield Buffer.from(row.data);
    }
  }

  /** The whole content in memory: for mail attachments below their size limit only. */
  async readAll(id: string): Promise<Buffer> {
    const parts: Buffer[] = [];
    for await (const part of this.read(id)) parts.push(part);
    return Buffer.concat(parts);
  }

  async remove(id: string): Promise<void> {
    await removeFile(this.db, id);
  }
}
