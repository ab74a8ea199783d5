import type { Kysely } from 'kysely';

// Frozen in time: imports nothing from the app; one migration for SQLite and PostgreSQL.

/**
 * Channel alarms (issue 7): each configured channel's thresholds and where its evaluation stands,
 * every raised alarm with its acknowledgement and clearing (the history), and alerts such as
 * disconnections.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('alarm_configs')
    .addColumn('device_id', 'text', (c) => c.notNull())
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('high', 'double precision')
    .addColumn('low', 'double precision')
    .addColumn('hysteresis', 'double precision', (c) => c.notNull())
    .addColumn('delay_seconds', 'integer', (c) => c.notNull())
    .addColumn('severity', 'text', (c) => c.notNull())
    // Evaluation state, kept here so whichever instance stores the next sample continues it.
    .addColumn('phase', 'text', (c) => c.notNull())
    .addColumn('side', 'text')
    .addColumn('since', 'bigint')
    .addColumn('last_t', 'bigint')
    // Bumped by every state change: a writer whose read is stale loses the compare-and-set.
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('updated_by', 'text')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('alarm_configs_pk', ['device_id', 'code'])
    .execute();

  await db.schema
    .createTable('alarms')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('device_id', 'text', (c) => c.notNull())
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('side', 'text', (c) => c.notNull())
    .addColumn('severity', 'text', (c) => c.notNull())
    .addColumn('threshold', 'double precision', (c) => c.notNull())
    .addColumn('value', 'double precision', (c) => c.notNull())
    .addColumn('raised_at', 'bigint', (c) => c.notNull())
    .addColumn('cleared_at', 'bigint')
    .addColumn('cleared_value', 'double precision')
    .addColumn('acknowledged_at', 'bigint')
    .addColumn('acknowledged_by', 'text')
    .addColumn('reminders_sent', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('escalated_at', 'bigint')
    .execute();
  await db.schema.createIndex('alarms_device_raised').on('alarms').columns(['device_id', 'raised_at']).execute();
  await db.schema.createIndex('alarms_raised').on('alarms').columns(['raised_at']).execute();

  await db.schema
    .createTable('alerts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('device_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('t', 'bigint', (c) => c.notNull())
    .addColumn('resolved_at', 'bigint')
    .execute();
  // One alert per disconnection, however many instances run its job.
  await db.schema
    .createIndex('alerts_device_kind_t')
    .on('alerts')
    .columns(['device_id', 'kind', 't'])
    .unique()
    .execute();
  await db.schema.createIndex('alerts_t').on('alerts').columns(['t']).execute();
}
