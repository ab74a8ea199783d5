import { type Kysely, SqliteAdapter, sql } from 'kysely';

// Frozen in time: this file imports nothing from the app (docs/decisions.md, "Packed roll-ups").
//
// Closed months of the hourly and daily roll-ups are kept packed: one row per device, channel, level
// and period (a UTC month of hours, a UTC year of days), its buckets as one binary column of typed
// arrays (features/devices/rollup-packs.ts). The rows of `logs_hourly` and `logs_daily` stay where
// they are; the log maintenance job packs the closed months in small transactions after the upgrade,
// and reads combine packed and unpacked buckets meanwhile, so nothing is moved here and nothing can
// be lost.

// Migrations see the database as it was then, not the current schema types (Kysely advice).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  const builder = db.schema
    .createTable('logs_rollup_packs')
    .addColumn('device_id', 'text', (c) => c.notNull())
    .addColumn('code', 'text', (c) => c.notNull())
    // Width of the buckets, ms: 3,600,000 (hourly) or 86,400,000 (daily).
    .addColumn('level', 'integer', (c) => c.notNull())
    // Start of the period (a UTC month of hours, a UTC year of days), unix ms.
    .addColumn('t', 'bigint', (c) => c.notNull())
    .addColumn('data', sqlite ? 'blob' : 'bytea', (c) => c.notNull())
    .addPrimaryKeyConstraint('logs_rollup_packs_pk', ['device_id', 'code', 'level', 't']);
  await (sqlite ? builder.modifyEnd(sql`without rowid`) : builder).execute();
  // Typed arrays of floats barely compress: PostgreSQL keeps a packed period out of line but never
  // spends a compression (nor a decompression per read) on it.
  if (!sqlite) await sql`alter table logs_rollup_packs alter column data set storage external`.execute(db);
}
