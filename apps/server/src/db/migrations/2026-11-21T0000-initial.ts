import { type Kysely, SqliteAdapter, sql } from 'kysely';

// Frozen in time: this file imports nothing from the app. One migration serves SQLite and PostgreSQL;
// the types used (text, integer, bigint, double precision) mean the same in both.

// Migrations see the database as it was then, not the current schema types (Kysely advice).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;

  await db.schema
    .createTable('settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('accounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('app_type', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('user_variant', 'text')
    .addColumn('root_group_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('groups')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('parent_id', 'text', (c) => c.references('groups.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('groups_parent').on('groups').column('parent_id').execute();
  await db.schema.createIndex('groups_account').on('groups').column('account_id').execute();

  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('first_name', 'text', (c) => c.notNull())
    .addColumn('last_name', 'text', (c) => c.notNull())
    .addColumn('theme', 'text')
    .addColumn('muted_devices', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('latest_user_update_id', 'text')
    .addColumn('token_version', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('attachment_points')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('ordinal', 'integer', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('permissions', 'text', (c) => c.notNull())
    .addColumn('secret_permissions', 'text', (c) => c.notNull())
    .addColumn('app_type', 'text', (c) => c.notNull())
    .addUniqueConstraint('attachment_points_user_ordinal', ['user_id', 'ordinal'])
    .execute();

  await db.schema
    .createTable('devices')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('group_id', 'text', (c) => c.notNull().references('groups.id'))
    .addColumn('thing_name', 'text', (c) => c.notNull().unique())
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('sn', 'text')
    .addColumn('site', 'text')
    .addColumn('plan', 'text', (c) => c.notNull().defaultTo('FREE'))
    .addColumn('fw', 'text')
    .addColumn('model', 'text')
    .addColumn('hw', 'text')
    .addColumn('base', 'text')
    .addColumn('custom', 'text')
    .addColumn('esp_fw', 'text')
    .addColumn('hw_platform', 'text')
    .addColumn('update_point', 'text')
    .addColumn('upload_interval', 'double precision')
    .addColumn('log_interval', 'double precision')
    .addColumn('time_date', 'text')
    .addColumn('channels', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('registers', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('ports', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('location', 'text')
    .addColumn('tags', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('health', 'text')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('is_connected', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_connection', 'bigint')
    .addColumn('last_disconnection', 'bigint')
    .addColumn('ota_pending_submitted_at', 'bigint')
    .addColumn('alarms_have_been_read', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('devices_group').on('devices').column('group_id').execute();
  await db.schema.createIndex('devices_account').on('devices').column('account_id').execute();

  await db.schema
    .createTable('latest_values')
    .addColumn('device_id', 'text', (c) => c.notNull())
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('t', 'bigint', (c) => c.notNull())
    .addColumn('value', 'double precision', (c) => c.notNull())
    .addColumn('extra', 'text')
    .addPrimaryKeyConstraint('latest_values_pk', ['device_id', 'code'])
    .execute();

  // The log is the big table: clustered on its key (WITHOUT ROWID in SQLite), so a window of one
  // channel is one contiguous range scan.
  const logs = db.schema
    .createTable('logs')
    .addColumn('device_id', 'text', (c) => c.notNull())
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('t', 'bigint', (c) => c.notNull())
    .addColumn('value', 'double precision', (c) => c.notNull())
    .addPrimaryKeyConstraint('logs_pk', ['device_id', 'code', 't']);
  await (sqlite ? logs.modifyEnd(sql`without rowid`) : logs).execute();

  await db.schema
    .createTable('connections')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('device_id', 'text', (c) => c.notNull())
    .addColumn('t', 'bigint', (c) => c.notNull())
    .addColumn('connected', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('connections_device_t').on('connections').columns(['device_id', 't']).execute();

  await db.schema
    .createTable('revoked_tokens')
    .addColumn('jti', 'text', (c) => c.primaryKey())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('invitations')
    .addColumn('code_hash', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('permissions', 'text', (c) => c.notNull())
    .addColumn('secret_permissions', 'text', (c) => c.notNull())
    .addColumn('app_type', 'text', (c) => c.notNull())
    .addColumn('invited_by', 'text')
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();

  await db.schema
    .createTable('password_resets')
    .addColumn('code_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();

  await db.schema
    .createTable('outbox')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('sent_at', 'bigint')
    .addColumn('error', 'text')
    .execute();

  await db.schema
    .createTable('event_log')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text')
    .addColumn('error', 'text', (c) => c.notNull())
    .addColumn('error_info', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}
