import type { Kysely } from 'kysely';

// Frozen in time: imports nothing from the app; one migration for SQLite and PostgreSQL.

/**
 * Device entity fields of core §3 not stored before: a device's custom attributes (JSON object of
 * text, number or flag values), the number of expanded-IO points it is configured for, and the
 * `simulation` flag of a group whose demo devices are simulated in the browser.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('devices')
    .addColumn('custom_attributes', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute();
  await db.schema.alterTable('devices').addColumn('expanded_io_max', 'integer').execute();
  await db.schema
    .alterTable('groups')
    .addColumn('simulation', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
