import type { Kysely } from 'kysely';

// Frozen in time: imports nothing from the app; one migration for SQLite and PostgreSQL.

/**
 * Scenes (dashboards) of a group and their widgets (application spec §3). A scene's grid layout per
 * breakpoint and a widget's settings are JSON text: read and written whole, the same in both
 * dialects. Scenes are named by group id, never by group path, so moving a group touches none.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('scenes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('group_id', 'text', (c) => c.notNull().references('groups.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull().defaultTo('grid'))
    // Order within the group (`PUT /scenes/order`); gaps are harmless, ties fall back to created_at.
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('is_grid_locked', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('grid_layout', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('scenes_group').on('scenes').columns(['group_id', 'position']).execute();

  await db.schema
    .createTable('widgets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('scene_id', 'text', (c) => c.notNull().references('scenes.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    // Every field a user sets (name, channels, colours, range, axes, annotations…) as JSON.
    .addColumn('props', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('widgets_scene').on('widgets').columns(['scene_id', 'created_at']).execute();
}
