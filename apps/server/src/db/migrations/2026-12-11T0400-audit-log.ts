import type { Kysely } from 'kysely';

// Frozen in time: this file imports nothing from the app. One migration serves SQLite and PostgreSQL.
//
// The audit trail (issue 38, item 1). `audit_log` holds one row per change, chained per account: each
// row carries the hash of the row before it in its account (`prev_hash`) and its own (`hash`), and
// `seq` counts the account's rows from 1 without gaps. `audit_chain_heads` holds one row per chain:
// its last `seq` and `hash` (locked by each writer, so two writers of one account cannot fork the
// chain), and where the chain starts now that retention has trimmed its oldest rows (`start_seq` and
// the hash that row must follow, `start_prev_hash`).

// Migrations see the database as it was then, not the current schema types (Kysely advice).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('actor_kind', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'text', (c) => c.notNull())
    .addColumn('actor_name', 'text', (c) => c.notNull())
    .addColumn('address', 'text')
    .addColumn('client', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target_kind', 'text')
    .addColumn('target_id', 'text')
    .addColumn('target_name', 'text')
    .addColumn('device_id', 'text')
    .addColumn('before', 'text')
    .addColumn('after', 'text')
    .addColumn('prev_hash', 'text', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .addUniqueConstraint('audit_log_account_seq', ['account_id', 'seq'])
    .execute();
  // The filters of `GET /audit-log`, each newest first within the account; retention reads by time.
  await db.schema
    .createIndex('audit_log_account_actor')
    .on('audit_log')
    .columns(['account_id', 'actor_id', 'seq'])
    .execute();
  await db.schema
    .createIndex('audit_log_account_device')
    .on('audit_log')
    .columns(['account_id', 'device_id', 'seq'])
    .execute();
  await db.schema
    .createIndex('audit_log_account_action')
    .on('audit_log')
    .columns(['account_id', 'action', 'seq'])
    .execute();
  await db.schema.createIndex('audit_log_account_at').on('audit_log').columns(['account_id', 'at']).execute();
  await db.schema
    .createTable('audit_chain_heads')
    .addColumn('account_id', 'text', (c) => c.primaryKey())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('start_seq', 'bigint', (c) => c.notNull())
    .addColumn('start_prev_hash', 'text', (c) => c.notNull())
    .execute();
}
