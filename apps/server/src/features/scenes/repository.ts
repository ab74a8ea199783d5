import type { Kysely } from 'kysely';
import type { WidgetFields } from '@fieldlink/api/scenes';
import type { Database, ScenesTable, WidgetsTable } from '../../db/schema';

/** The widget fields kept in the `props` column (everything a user sets except the type). */
export type WidgetProps = Omit<WidgetFields, 'id' | 'type'>;

/** A group with what scene calls need to know of it: its path (scope), kind and account. */
export function findGroupWithAccount(db: Kysely<Database>, groupId: string) {
  return db
    .selectFrom('groups')
    .innerJoin('accounts', 'accounts.id', 'groups.account_id')
    .select([
      'groups.id as id',
      'groups.path as path',
      'groups.kind as kind',
      'groups.account_id as account_id',
      'accounts.app_type as app_type',
      'accounts.kind as account_kind',
    ])
    .where('groups.id', '=', groupId)
    .executeTakeFirst();
}

export type SceneGroup = NonNullable<Awaited<ReturnType<typeof findGroupWithAccount>>>;

/** The scenes of a group, in their order. */
export function scenesOfGroup(db: Kysely<Database>, groupId: string) {
  return db
    .selectFrom('scenes')
    .selectAll()
    .where('group_id', '=', groupId)
    .orderBy('position')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** Id and name of the scenes of these groups, each group's in order (the account tree). */
export function sceneNamesOfGroups(db: Kysely<Database>, groupIds: readonly string[]) {
  return groupIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('scenes')
        .select(['id', 'group_id', 'name'])
        .where('group_id', 'in', groupIds)
        .orderBy('group_id')
        .orderBy('position')
        .orderBy('created_at')
        .orderBy('id')
        .execute();
}

export function findScene(db: Kysely<Database>, id: string) {
  return db.selectFrom('scenes').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The widgets of these scenes, oldest first. */
export function widgetsOfScenes(db: Kysely<Database>, sceneIds: readonly string[]) {
  return sceneIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('widgets')
        .selectAll()
        .where('scene_id', 'in', sceneIds)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
}

export function findWidget(db: Kysely<Database>, id: string) {
  return db.selectFrom('widgets').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function countWidgets(db: Kysely<Database>, sceneId: string): Promise<number> {
  const row = await db
    .selectFrom('widgets')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('scene_id', '=', sceneId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export function insertScene(db: Kysely<Database>, scene: ScenesTable) {
  return db.insertInto('scenes').values(scene).execute();
}

export function updateScene(
  db: Kysely<Database>,
  id: string,
  set: Partial<Pick<ScenesTable, 'name' | 'is_grid_locked' | 'position'>>,
) {
  return db.updateTable('scenes').set(set).where('id', '=', id).execute();
}

export function insertWidget(db: Kysely<Database>, widget: WidgetsTable) {
  return db.insertInto('widgets').values(widget).execute();
}

export function replaceWidget(
  db: Kysely<Database>,
  id: string,
  set: Pick<WidgetsTable, 'type' | 'props' | 'updated_at'>,
) {
  return db.updateTable('widgets').set(set).where('id', '=', id).execute();
}

export function deleteWidget(db: Kysely<Database>, id: string) {
  return db.deleteFrom('widgets').where('id', '=', id).execute();
}

/** Deletes scenes and their widgets. */
export async function deleteScenes(db: Kysely<Database>, sceneIds: readonly string[]): Promise<void> {
  if (sceneIds.length === 0) return;
  await db.deleteFrom('widgets').where('scene_id', 'in', sceneIds).execute();
  await db.deleteFrom('scenes').where('id', 'in', sceneIds).execute();
}

/** Deletes every scene of these groups with its widgets (a deleted group takes its dashboards along). */
export async function deleteScenesOfGroups(db: Kysely<Database>, groupIds: readonly string[]): Promise<void> {
  if (groupIds.length === 0) return;
  const scenes = await db.selectFrom('scenes').select('id').where('group_id', 'in', groupIds).execute();
  await deleteScenes(
    db,
    scenes.map((scene) => scene.id),
  );
}

/**
 * Changes a scene's grid layout with compare-and-set: read, change, write only if nobody wrote in
 * between, else read again. Two widgets added at once both get their place, on either dialect.
 * Answers the layout as stored, or undefined when the scene is gone.
 */
export async function changeGridLayout<T>(
  db: Kysely<Database>,
  sceneId: string,
  change: (layout: T) => T,
): Promise<T | undefined> {
  for (let attempt = 0; attempt < 10; attempt += 1) {
    const row = await db.selectFrom('scenes').select('grid_layout').where('id', '=', sceneId).executeTakeFirst();
    if (!row) return undefined;
    const next = change(JSON.parse(row.grid_layout) as T);
    const result = await db
      .updateTable('scenes')
      .set({ grid_layout: JSON.stringify(next) })
      .where('id', '=', sceneId)
      .where('grid_layout', '=', row.grid_layout)
      .executeTakeFirst();
    if (result.numUpdatedRows === 1n) return next;
  }
  throw new Error('Too many concurrent changes; please try again.');
}
