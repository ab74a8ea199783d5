import type { Kysely } from 'kysely';

// Frozen in time: this file imports nothing from the app. One migration serves SQLite and PostgreSQL.
//
// SMS alerts (issue 39 item 4). On `users`: the verified phone number alarms go to (E.164) and when
// it was verified. `phone_codes`: one row per verification code sent, its hash only; the rows of the
// last day are also what the send limits count, so the limits hold across a cluster and a restart.
// `sms_messages`: one row per alarm SMS, its state and its attempts (each attempt a job).

// Migrations see the database as it was then, not the current schema types (Kysely advice).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('phone', 'text').execute();
  await db.schema.alterTable('users').addColumn('phone_verified_at', 'bigint').execute();
  await db.schema
    .createTable('phone_codes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('phone', 'text', (c) => c.notNull())
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema.createIndex('phone_codes_user').on('phone_codes').columns(['user_id', 'created_at']).execute();
  await db.schema.createIndex('phone_codes_phone').on('phone_codes').columns(['phone', 'created_at']).execute();
  await db.schema.createIndex('phone_codes_created').on('phone_codes').column('created_at').execute();
  await db.schema
    .createTable('sms_messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('alarm_id', 'text')
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_attempt_at', 'bigint')
    .addColumn('status', 'integer')
    .addColumn('sid', 'text')
    .addColumn('detail', 'text')
    .execute();
  await db.schema.createIndex('sms_messages_created').on('sms_messages').column('created_at').execute();
  // One SMS per alarm and user, however often the job that queues them runs.
  await db.schema
    .createIndex('sms_messages_alarm_user')
    .on('sms_messages')
    .columns(['alarm_id', 'user_id'])
    .unique()
    .execute();
}
