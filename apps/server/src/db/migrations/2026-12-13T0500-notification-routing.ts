import type { Kysely } from 'kysely';

// Frozen in time: this file imports nothing from the app. One migration serves SQLite and PostgreSQL.
//
// Who gets what (issue 39 item 5). `notification_preferences`: one row per user who chose anything,
// the choice per channel and the quiet hours as JSON (no row: the defaults). `on_call_shifts`: an
// account's rota, one row per shift, instants in Unix ms. `alarm_link_uses`: the one-time acknowledge
// links already used, by their nonce, so every instance refuses a link used on another.
// `alarms.escalation_steps`: how far an unanswered alarm has moved along the rota, claimed once.

// Migrations see the database as it was then, not the current schema types (Kysely advice).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('notification_preferences')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('preferences', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('on_call_shifts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('ordinal', 'integer', (c) => c.notNull())
    .addColumn('from_t', 'bigint', (c) => c.notNull())
    .addColumn('to_t', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('on_call_shifts_account').on('on_call_shifts').column('account_id').execute();
  await db.schema
    .createTable('alarm_link_uses')
    .addColumn('nonce', 'text', (c) => c.primaryKey())
    .addColumn('alarm_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('used_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .alterTable('alarms')
    .addColumn('escalation_steps', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
