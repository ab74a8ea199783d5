import type { Kysely } from 'kysely';

// Frozen in time: imports nothing from the app; one migration for SQLite and PostgreSQL.

/**
 * Retail stock (issue 18): where each product of a smart shelf stands (its count, range state, the
 * times of its last sale, restock and range change, and its decayed sales rate), kept as readings
 * arrive; and each shelf's units sold and estimated lost sales per UTC day, so an overview of
 * hundreds of stores sums a few rows per shelf instead of scanning weeks of logs.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('retail_products')
    .addColumn('device_id', 'text', (c) => c.notNull())
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('t', 'bigint', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('range_state', 'text', (c) => c.notNull())
    .addColumn('decreased_at', 'bigint')
    .addColumn('restocked_at', 'bigint')
    .addColumn('range_state_changed_at', 'bigint')
    .addColumn('sold_weight', 'double precision', (c) => c.notNull())
    .addColumn('stocked_hours', 'double precision', (c) => c.notNull())
    .addPrimaryKeyConstraint('retail_products_pk', ['device_id', 'code'])
    .execute();

  await db.schema
    .createTable('retail_shelf_days')
    .addColumn('device_id', 'text', (c) => c.notNull())
    .addColumn('day', 'bigint', (c) => c.notNull())
    .addColumn('units_sold', 'integer', (c) => c.notNull())
    .addColumn('lost_sales', 'double precision', (c) => c.notNull())
    .addPrimaryKeyConstraint('retail_shelf_days_pk', ['device_id', 'day'])
    .execute();
}
