import type { Kysely } from 'kysely';

// Frozen in time: this file imports nothing from the app. One migration serves SQLite and PostgreSQL.
//
// Web Push (issue 39 item 2): one row per browser that turned notifications on. The endpoint is the
// push service's URL for that browser, unique: a browser signed in as another user moves its row to
// that user. `p256dh` and `auth` are the browser's keys the payload is encrypted for (RFC 8291).

// Migrations see the database as it was then, not the current schema types (Kysely advice).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('push_subscriptions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('endpoint', 'text', (c) => c.notNull().unique())
    .addColumn('p256dh', 'text', (c) => c.notNull())
    .addColumn('auth', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('push_subscriptions_user').on('push_subscriptions').column('user_id').execute();
}
