import type { Kysely } from 'kysely';

// Frozen in time: this file imports nothing from the app. One migration serves SQLite and PostgreSQL.
//
// Webhooks (issue 39 item 3). `webhooks` holds an account's receivers: URL, the events they take
// (JSON array), the body format and the signing secret. `webhook_deliveries` holds one row per event
// per webhook: the event's body as first written (every attempt sends the same event), where its
// delivery stands and how its last attempt went. Each attempt is a job in `jobs`.

// Migrations see the database as it was then, not the current schema types (Kysely advice).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('webhooks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('events', 'text', (c) => c.notNull())
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhooks_account').on('webhooks').column('account_id').execute();
  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('webhook_id', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('last_attempt_at', 'bigint')
    .addColumn('status', 'integer')
    .addColumn('response_ms', 'integer')
    .addColumn('detail', 'text')
    .addColumn('next_attempt_at', 'bigint')
    .addUniqueConstraint('webhook_deliveries_event', ['webhook_id', 'event_id'])
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_webhook_at')
    .on('webhook_deliveries')
    .columns(['webhook_id', 'at'])
    .execute();
}
