import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';

// Frozen in time: imports nothing from the app; one migration for SQLite and PostgreSQL.

/** Bytes of one stored file chunk (the document runner's chunk size when this was written). */
const CHUNK_BYTES = 256 * 1024;

/**
 * Batch reports are made by the shared document runner (issue 16): their PDF is a stored file
 * (`stored_files`, `stored_file_chunks`) served by the signed file links, no longer base64 in the
 * report's row. Every existing report is kept: a finished report's PDF moves into a stored file named
 * as the download was (`<beer>-<start date>.pdf`), then the old column goes.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('brew_reports').addColumn('file_id', 'text').execute();
  const finished = (await db
    .selectFrom('brew_reports')
    .innerJoin('brew_batches', 'brew_batches.id', 'brew_reports.batch_id')
    .select([
      'brew_reports.id',
      'brew_reports.file',
      'brew_reports.created_at',
      'brew_batches.props',
      'brew_batches.start_at',
    ])
    .where('brew_reports.file', 'is not', null)
    .execute()) as {
    id: string;
    file: string;
    created_at: number | string;
    props: string;
    start_at: number | string;
  }[];
  for (const report of finished) {
    const data = Buffer.from(report.file, 'base64');
    const beerName = String((JSON.parse(report.props) as { beerName?: unknown }).beerName ?? '');
    const base = beerName.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-|-$/g, '') || 'batch';
    const fileId = randomUUID();
    await db
      .insertInto('stored_files')
      .values({
        id: fileId,
        name: `${base}-${new Date(Number(report.start_at)).toISOString().slice(0, 10)}.pdf`,
        content_type: 'application/pdf',
        size: data.length,
        complete: 1,
        created_at: Number(report.created_at),
      })
      .execute();
    for (let seq = 0; seq * CHUNK_BYTES < data.length; seq += 1) {
      await db
        .insertInto('stored_file_chunks')
        .values({ file_id: fileId, seq, data: data.subarray(seq * CHUNK_BYTES, (seq + 1) * CHUNK_BYTES) })
        .execute();
    }
    await db.updateTable('brew_reports').set({ file_id: fileId }).where('id', '=', report.id).execute();
  }
  await db.schema.alterTable('brew_reports').dropColumn('file').execute();
}
