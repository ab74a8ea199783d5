import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { hasPreviousRelease, previousMigrations } from '../../testing/cluster/previous-release';
import { DIALECTS, freshDatabase } from '../../testing/test-app';
import { MIGRATIONS, migrate, openStorage } from './database';

/** Statements that take something away from the schema: a later release's contract step, never this one's. */
const CONTRACTING =
  /\.(dropTable|dropColumn|renameColumn|renameTo|alterColumn|dropIndex|dropView)\(|\b(drop|rename)\s+(table|column)\b/i;
/** A required column added to a table the previous release writes without it: its inserts would fail. */
const REQUIRED_WITHOUT_DEFAULT =
  /alterTable\([^;]*?\.addColumn\((?:(?!defaultTo)[^;])*?notNull\(\)(?:(?!defaultTo)[^;])*;/;

describe.each(DIALECTS)('a schema a later release expanded, on %s', (dialect) => {
  it('is run as it is by this release when all of its own migrations are in it', async () => {
    const database = await freshDatabase(dialect);
    const storage = openStorage(database.url);
    try {
      expect(await migrate(storage.db)).toEqual([]);
      await sql`insert into kysely_migration (name, timestamp) values ('2099-01-01T0000-later', '2099-01-01T00:00:00.000Z')`.execute(
        storage.db,
      );
      expect(await migrate(storage.db)).toEqual(['2099-01-01T0000-later']);

      // A database that lacks one of this release's migrations and has a later one is refused, unchanged.
      const [last] = Object.keys(MIGRATIONS).slice(-1);
      await sql`delete from kysely_migration where name = ${last}`.execute(storage.db);
      await expect(migrate(storage.db)).rejects.toThrow(
        `The database has migrations of a later release (2099-01-01T0000-later) but not this release's ${last}: start the later release.`,
      );
      const { rows } = await sql<{ name: string }>`select name from kysely_migration where name = ${last}`.execute(
        storage.db,
      );
      expect(rows).toEqual([]);
    } finally {
      await storage.close();
      await database.drop();
    }
  });
});

describe('migrations since the previous release', () => {
  it.skipIf(!hasPreviousRelease())('only add: the previous release runs on the new schema', () => {
    const before = new Set(previousMigrations());
    expect(before.size).toBeGreaterThan(20);
    const added = Object.keys(MIGRATIONS).filter((name) => !before.has(name));
    const source = (name: string) =>
      fs.readFileSync(path.join(import.meta.dirname, 'migrations', `${name}.ts`), 'utf8');
    const contracting = added.filter(
      (name) => CONTRACTING.test(source(name)) || REQUIRED_WITHOUT_DEFAULT.test(source(name)),
    );
    expect(
      contracting,
      'contract steps wait for the release after the one that stopped using what they remove; ' +
        'a column added to a table the previous release writes is nullable or has a default',
    ).toEqual([]);
    // The rules themselves.
    expect(CONTRACTING.test("await db.schema.alterTable('a').dropColumn('b').execute();")).toBe(true);
    expect(
      REQUIRED_WITHOUT_DEFAULT.test(
        "await db.schema.alterTable('a').addColumn('b', 'text', (c) => c.notNull()).execute();",
      ),
    ).toBe(true);
    expect(
      REQUIRED_WITHOUT_DEFAULT.test(
        "await db.schema.alterTable('a').addColumn('b', 'text', (c) => c.notNull().defaultTo('x')).execute();",
      ),
    ).toBe(false);
    expect(
      REQUIRED_WITHOUT_DEFAULT.test(
        "await db.schema.createTable('a').addColumn('b', 'text', (c) => c.notNull()).execute();",
      ),
    ).toBe(false);
  });
});
