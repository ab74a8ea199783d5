import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { FILE_CHUNK_BYTES, FileStore } from '../documents/file-store';
import { DIALECTS, freshDatabase } from '../../testing/test-app';
import { migrate, openStorage } from './database';

/** A report-like CSV of `bytes` bytes: compressible text, as the stored files mostly are. */
const csvText = (bytes: number) => {
  const rows = Array.from({ length: 1000 }, (_, row) => `interval,Tank ${row % 7},c1,${(row * 0.37).toFixed(2)}\r\n`);
  return rows
    .join('')
    .repeat(Math.ceil(bytes / rows.join('').length))
    .slice(0, bytes);
};

describe.each(DIALECTS)('stored file chunks on %s', (dialect) => {
  it('come back byte for byte, compressed with lz4 on PostgreSQL', async () => {
    const database = await freshDatabase(dialect);
    const storage = openStorage(database.url);
    try {
      await migrate(storage.db);
      const files = new FileStore(storage.db);
      const text = csvText(FILE_CHUNK_BYTES * 2 + 1234);
      const writer = await files.create('report.csv', 'text/csv; charset=utf-8');
      await writer.write(text);
      const stored = await writer.finish();
      expect(stored.size).toBe(Buffer.byteLength(text));
      expect((await files.readAll(stored.id)).toString('utf8')).toBe(text);
      if (dialect === 'postgres') {
        const { rows } = await sql<{ method: string | null }>`
          select pg_column_compression(data) as method from stored_file_chunks where file_id = ${stored.id}`.execute(
          storage.db,
        );
        expect(rows.map((row) => row.method)).toEqual(['lz4', 'lz4', null]);
      }
    } finally {
      await storage.close();
      await database.drop();
    }
  });
});
