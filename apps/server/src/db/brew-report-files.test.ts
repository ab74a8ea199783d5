import { randomBytes } from 'node:crypto';
import { Migrator } from 'kysely';
import { describe, expect, it } from 'vitest';
import { FileStore } from '../documents/file-store';
import { DIALECTS, freshDatabase } from '../../testing/test-app';
import { MIGRATIONS, migrate, openStorage } from './database';

const MIGRATION = '2026-12-04T0100-brew-report-files';

/** Batch reports moved to the document runner: the migration keeps every report and its PDF. */
describe.each(DIALECTS)('the brew report files migration on %s', (dialect) => {
  it('moves each finished report’s PDF into a stored file and keeps every report', async () => {
    const database = await freshDatabase(dialect);
    const storage = openStorage(database.url);
    try {
      const before = Object.fromEntries(Object.entries(MIGRATIONS).filter(([name]) => name < MIGRATION));
      const { error } = await new Migrator({
        db: storage.db,
        provider: { getMigrations: async () => before },
      }).migrateToLatest();
      expect(error).toBeUndefined();
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the tables as they were before it
      const old = storage.db as any;
      await old
        .insertInto('brew_batches')
        .values({
          id: 'batch-1',
          device_id: 'device-1',
          state: 'MANUALLY_ENDED',
          start_at: Date.UTC(2026, 9, 4),
          end_at: Date.UTC(2026, 9, 18),
          props: JSON.stringify({
            beerName: 'Winter Stout',
            style: '',
            originalGravity: 1.06,
            targetGravity: null,
            notes: '',
          }),
          transitions: '[]',
          is_demo: 0,
          channels_map: '{}',
          co2_total_gain: 1,
          tank_level: null,
          tank_level_at_ferm_start: null,
          co2_total_at_start: null,
          pressurized_at: null,
          frozen_gravity: null,
          created_by: null,
          created_at: Date.UTC(2026, 9, 4),
        })
        .execute();
      // A PDF of three chunks, and a report still waiting for the brewer.
      const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(600 * 1024)]);
      const report = (id: string, state: string, file: string | null) => ({
        id,
        batch_id: 'batch-1',
        state,
        error: null,
        file,
        created_by: 'brew@fieldlink.test',
        created_at: Date.UTC(2026, 9, 18),
        generated_at: null,
      });
      await old
        .insertInto('brew_reports')
        .values([report('ready', 'READY', pdf.toString('base64')), report('waiting', 'AWAITING_USER', null)])
        .execute();

      await migrate(storage.db);

      const rows = await storage.db.selectFrom('brew_reports').selectAll().orderBy('id').execute();
      expect(rows.map((row) => [row.id, row.state])).toEqual([
        ['ready', 'READY'],
        ['waiting', 'AWAITING_USER'],
      ]);
      expect(rows[1]!.file_id).toBeNull();
      const files = new FileStore(storage.db);
      const stored = await files.find(rows[0]!.file_id!);
      expect(stored).toMatchObject({
        name: 'Winter-Stout-2026-10-04.pdf',
        contentType: 'application/pdf',
        size: pdf.length,
      });
      expect((await files.readAll(rows[0]!.file_id!)).equals(pdf)).toBe(true);
    } finally {
      await storage.close();
      await database.drop();
    }
  });
});
