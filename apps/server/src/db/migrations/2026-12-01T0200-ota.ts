import type { Kysely } from 'kysely';

// Frozen in time: imports nothing from the app; one migration for SQLite and PostgreSQL.

/**
 * Over-the-air updates: a rollout per submission (its pace, failure threshold and state) and one row
 * per device of it. `devices.ota_update` keeps the device's latest update as the API shows it (the
 * Device `update` field), so reading a device or the device table needs no join.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('devices').addColumn('ota_update', 'text').execute();

  await db.schema
    .createTable('ota_rollouts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('update_command', 'text', (c) => c.notNull())
    .addColumn('skip_approval', 'integer', (c) => c.notNull())
    .addColumn('devices_per_minute', 'integer', (c) => c.notNull())
    .addColumn('failure_threshold_percent', 'real', (c) => c.notNull())
    .addColumn('min_executed', 'integer', (c) => c.notNull())
    .addColumn('failure_threshold_count', 'integer')
    // RUNNING | STOPPED (failure threshold crossed) | COMPLETED
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('stop_reason', 'text')
    // The pace counts from here: set when the first of its updates is released.
    .addColumn('started_at', 'bigint')
    // Updates sent so far (the pace allows one more each 60 / devices_per_minute s).
    .addColumn('dispatched', 'integer', (c) => c.notNull().defaultTo(0))
    // The one pending pacing job of the rollout, so two instances never pace it twice.
    .addColumn('tick_job_id', 'text')
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('finished_at', 'bigint')
    .execute();

  await db.schema
    .createTable('ota_updates')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('rollout_id', 'text', (c) => c.notNull())
    .addColumn('device_id', 'text', (c) => c.notNull())
    // Place in the submission's list of devices: a rollout sends in the order devices were named.
    .addColumn('position', 'integer', (c) => c.notNull())
    // AWAITING_APPROVAL | QUEUED | SENT | DOWNLOADING | INSTALLING | REBOOTING | SUCCEEDED | FAILED | CANCELLED
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('percent', 'real')
    .addColumn('update_command', 'text', (c) => c.notNull())
    .addColumn('submitted_at', 'bigint', (c) => c.notNull())
    .addColumn('submitted_by', 'text')
    .addColumn('approved_at', 'bigint')
    .addColumn('approved_by', 'text')
    .addColumn('sent_at', 'bigint')
    .addColumn('last_report_at', 'bigint')
    .addColumn('finished_at', 'bigint')
    .addColumn('reloaded_at', 'bigint')
    // Unanswered deliveries so far; the update fails after a few.
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('fw', 'text')
    .addColumn('error', 'text')
    .execute();
  await db.schema.createIndex('ota_updates_rollout_state').on('ota_updates').columns(['rollout_id', 'state']).execute();
  await db.schema
    .createIndex('ota_updates_device_submitted')
    .on('ota_updates')
    .columns(['device_id', 'submitted_at'])
    .execute();
}
