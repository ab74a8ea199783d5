import type { Kysely } from 'kysely';

// Frozen in time: imports nothing from the app; one migration for SQLite and PostgreSQL.

/**
 * Brewing: a tank's settings (one row per device once anything is set), batches with their gravity
 * readings, tasting notes, annotations and reports. Lists that only grow with a batch (transitions)
 * are JSON on the batch; the rest are rows so each has an id to change or delete it by.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('brew_tanks')
    .addColumn('device_id', 'text', (c) => c.primaryKey())
    .addColumn('capacity', 'real')
    .addColumn('co2_total_gain', 'real', (c) => c.notNull())
    // JSON {scale, offset}, or null until calibrated.
    .addColumn('tank_level', 'text')
    .addColumn('updated_by', 'text')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('brew_batches')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('device_id', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('start_at', 'bigint', (c) => c.notNull())
    .addColumn('end_at', 'bigint')
    // JSON: beerName, style, originalGravity, targetGravity, notes.
    .addColumn('props', 'text', (c) => c.notNull())
    // JSON [{state, timestamp}].
    .addColumn('transitions', 'text', (c) => c.notNull())
    .addColumn('is_demo', 'integer', (c) => c.notNull())
    // JSON: the tank's channel map and calibration when the batch started.
    .addColumn('channels_map', 'text', (c) => c.notNull())
    .addColumn('co2_total_gain', 'real', (c) => c.notNull())
    .addColumn('tank_level', 'text')
    .addColumn('tank_level_at_ferm_start', 'real')
    .addColumn('co2_total_at_start', 'real')
    .addColumn('pressurized_at', 'bigint')
    // JSON gravity parameters frozen at pressurized_at.
    .addColumn('frozen_gravity', 'text')
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('brew_batches_device').on('brew_batches').columns(['device_id', 'start_at']).execute();

  await db.schema
    .createTable('brew_gravities')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('batch_id', 'text', (c) => c.notNull())
    .addColumn('value', 'real', (c) => c.notNull())
    .addColumn('t', 'bigint', (c) => c.notNull())
    .addColumn('created_by', 'text')
    .execute();
  await db.schema.createIndex('brew_gravities_batch').on('brew_gravities').columns(['batch_id', 't']).execute();

  await db.schema
    .createTable('brew_sensories')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('batch_id', 'text', (c) => c.notNull())
    // JSON {aroma, flavor, mouthfeel, appearance, overall, carbonation}.
    .addColumn('ratings', 'text', (c) => c.notNull())
    .addColumn('notes', 'text', (c) => c.notNull())
    .addColumn('t', 'bigint', (c) => c.notNull())
    .addColumn('created_by', 'text')
    .execute();
  await db.schema.createIndex('brew_sensories_batch').on('brew_sensories').columns(['batch_id', 't']).execute();

  await db.schema
    .createTable('brew_annotations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('batch_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('t', 'bigint', (c) => c.notNull())
    .addColumn('color', 'text', (c) => c.notNull())
    .addColumn('channel_code', 'text')
    .addColumn('sensory_id', 'text')
    .execute();
  await db.schema.createIndex('brew_annotations_batch').on('brew_annotations').columns(['batch_id', 't']).execute();

  await db.schema
    .createTable('brew_reports')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('batch_id', 'text', (c) => c.notNull())
    // GENERATING | READY | AWAITING_USER | ERROR | DELETING
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('error', 'text')
    // The PDF, base64 (one text column for both dialects; reports are tens of kilobytes).
    .addColumn('file', 'text')
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('generated_at', 'bigint')
    .execute();
  await db.schema.createIndex('brew_reports_batch').on('brew_reports').columns(['batch_id', 'created_at']).execute();
}
