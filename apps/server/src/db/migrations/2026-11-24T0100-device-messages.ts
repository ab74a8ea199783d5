import type { Kysely } from 'kysely';

// Frozen in time: imports nothing from the app; one migration for SQLite and PostgreSQL.

/**
 * Messages for devices that were offline when a person sent them (`POST /device-config` settings,
 * `POST /message`): kept until the device reconnects, then delivered once, in order.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('device_messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('device_id', 'text', (c) => c.notNull())
    // What the message sets (`register:5405`, `timeDate`, `channel:sp1`): a newer message for the
    // same target replaces a pending older one, so a reconnecting device gets only the last word.
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    // Set while one server instance delivers the message, so two instances never both send it.
    .addColumn('claimed_at', 'bigint')
    .addColumn('settled_at', 'bigint')
    .addColumn('result', 'text')
    .execute();
  await db.schema
    .createIndex('device_messages_device_status')
    .on('device_messages')
    .columns(['device_id', 'status', 'created_at'])
    .execute();
}
