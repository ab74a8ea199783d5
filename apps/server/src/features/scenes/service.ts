import type { Kysely, Transaction } from 'kysely';
import type {
  AddSceneBody,
  DeleteByPathBody,
  GridLayoutBody,
  GridLayouts,
  PutWidgetBody,
  Scene,
  SceneOrderBody,
  ScenesQuery,
  UpdateSceneBody,
  Widget,
} from '@fieldlink/api/scenes';
import { isPlaceholderGroup, type GroupKind } from '@fieldlink/domain/account-tree';
import { parseScenePath, scenePath, widgetPath } from '@fieldlink/domain/group-path';
import { sceneView, sceneWidget } from '@fieldlink/domain/scene-view';
import {
  MAX_SCENES_PER_GROUP,
  MAX_WIDGETS_PER_SCENE,
  READ_ONLY_SCENE_MESSAGE,
  isSceneReadOnly,
  normaliseGridLayout,
  normaliseSceneName,
  placeNewWidget,
  removeWidgetFromLayout,
  sceneOrderRefusal,
  widgetProblem,
  widgetWithDefaults,
  type GridLayoutSet,
  type WidgetType,
} from '@fieldlink/domain/widgets';
import type { Database, ScenesTable, WidgetsTable } from '../../db/schema';
import { HttpError, forbidden, notFound } from '../../http-errors';
import { newId } from '../../security/secrets';
import { findDevicesByIds } from '../devices/repository';
import { DEVICE_NOT_FOUND, GROUP_NOT_FOUND } from '@fieldlink/api/errors';
import type { AuditAction, AuditTarget } from '@fieldlink/domain/audit';
import { audit, byUser } from '../audit/service';
import { inScope, requireCapability, userCan } from '../session/access';
import type { UserContext } from '../session/user-context';
import {
  changeGridLayout,
  countWidgets,
  deleteScenes,
  deleteWidget,
  findGroupWithAccount,
  findScene,
  findWidget,
  insertScene,
  insertWidget,
  replaceWidget,
  scenesOfGroup,
  updateScene,
  widgetsOfScenes,
  type SceneGroup,
  type WidgetProps,
} from './repository';

const SCENE_NOT_FOUND = 'Scene not found.';
const WIDGET_NOT_FOUND = 'Widget not found.';

/** A scene or widget named by `{accountId, path}`, checked against the caller's scope. */
interface Located {
  group: SceneGroup;
  scene: ScenesTable;
  widget: WidgetsTable | null;
}

function toWidget(groupId: string, row: WidgetsTable): Widget {
  const props = JSON.parse(row.props) as WidgetProps;
  return sceneWidget(groupId, row.scene_id, { ...props, id: row.id, type: row.type as WidgetType });
}

/** A stored scene and its widgets as the answer carries them (domain `sceneView`). */
function toScene(group: SceneGroup, row: ScenesTable, widgets: WidgetsTable[], index: number, mayEdit: boolean): Scene {
  return sceneView({
    group: { id: group.id, accountId: group.account_id, appType: group.app_type, accountKind: group.account_kind },
    scene: {
      id: row.id,
      name: row.name,
      isGridLocked: row.is_grid_locked === 1,
      gridLayout: JSON.parse(row.grid_layout) as GridLayoutSet,
    },
    widgets: widgets.map((widget) => ({
      ...(JSON.parse(widget.props) as WidgetProps),
      id: widget.id,
      type: widget.type as WidgetType,
    })),
    index,
    mayEdit,
  });
}

/** §4's read-only rule for the group's account. */
const isGroupReadOnly = (group: SceneGroup) => isSceneReadOnly({ appType: group.app_type, kind: group.account_kind });

/** Every device id a widget names: its channels, its chart axes (`{deviceId}:{code}`) and annotations. */
function deviceIdsOf(widget: WidgetProps): string[] {
  const ids = new Set<string>();
  widget.channels.forEach((channel) => ids.add(channel.deviceId));
  widget.annotations.forEach((annotation) => annotation.channel && ids.add(annotation.channel.deviceId));
  for (const axis of widget.yAxis) {
    for (const channel of axis.channels) {
      const colon = channel.lastIndexOf(':');
      ids.add(colon > 0 ? channel.slice(0, colon) : channel);
    }
  }
  return [...ids];
}

/**
 * Scenes (dashboards) and their widgets (application spec §3, §4, §7). Each call checks the
 * permission first (403 whatever the ids), then that the group lies under one of the caller's
 * attachment points and belongs to the named account (else 404, as for an id that does not exist),
 * then §4's read-only rule (403), then the content (400); only then does it write.
 */
export class SceneService {
  constructor(private readonly db: Kysely<Database>) {}

  /** A group the caller may see, of the named account, or 404. */
  private async visibleGroup(caller: UserContext, accountId: string, groupId: string, message: string) {
    const group = await findGroupWithAccount(this.db, groupId);
    if (!group || group.account_id !== accountId || !inScope(caller, group.path)) throw notFound(message);
    return group;
  }

  /** The scene (and widget) a path names, in the caller's scope, or 404; 400 for a malformed path. */
  private async locate(
    caller: UserContext,
    accountId: string,
    path: string,
    kind: 'scene' | 'widget',
  ): Promise<Located> {
    const parsed = parseScenePath(path);
    if (!parsed) throw new HttpError(400, 'Not a scene or widget path.');
    if (kind === 'scene' && parsed.widgetId !== null) throw new HttpError(400, 'Expected the path of a scene.');
    if (kind === 'widget' && parsed.widgetId === null) throw new HttpError(400, 'Expected the path of a widget.');
    const group = await this.visibleGroup(caller, accountId, parsed.groupId, SCENE_NOT_FOUND);
    const scene = await this.sceneOf(group, parsed.sceneId);
    if (parsed.widgetId === null) return { group, scene, widget: null };
    return { group, scene, widget: await this.widgetOf(scene, parsed.widgetId) };
  }

  /** Records a change to the group's dashboards in the audit trail, in the change's transaction. */
  private record(
    trx: Transaction<Database>,
    caller: UserContext,
    group: SceneGroup,
    action: AuditAction,
    target: AuditTarget,
    before: unknown,
    after: unknown,
  ): Promise<void> {
    return audit.record(trx, { accountId: group.account_id, by: byUser(caller), action, target, before, after });
  }

  /** A scene of the group, or 404. */
  private async sceneOf(group: SceneGroup, sceneId: string): Promise<ScenesTable> {
    const scene = await findScene(this.db, sceneId);
    if (!scene || scene.group_id !== group.id) throw notFound(SCENE_NOT_FOUND);
    return scene;
  }

  /** A widget of the scene, or 404. */
  private async widgetOf(scene: ScenesTable, widgetId: string): Promise<WidgetsTable> {
    const widget = await findWidget(this.db, widgetId);
    if (!widget || widget.scene_id !== scene.id) throw notFound(WIDGET_NOT_FOUND);
    return widget;
  }

  /** 403 for a scene of an account whose dashboards are read-only (§4). */
  private requireWritable(group: SceneGroup): void {
    if (isGroupReadOnly(group)) throw forbidden(READ_ONLY_SCENE_MESSAGE);
  }

  /** True when the caller may change the group's scenes or widgets (domain `sceneView` adds the account's rule). */
  private mayEdit(caller: UserContext): boolean {
    return userCan(caller, 'editScenes') || userCan(caller, 'editWidgets');
  }

  private async sceneAnswer(caller: UserContext, group: SceneGroup, sceneId: string): Promise<Scene> {
    const scenes = await scenesOfGroup(this.db, group.id);
    const index = scenes.findIndex((scene) => scene.id === sceneId);
    if (index < 0) throw notFound(SCENE_NOT_FOUND);
    const widgets = await widgetsOfScenes(this.db, [sceneId]);
    return toScene(group, scenes[index]!, widgets, index, this.mayEdit(caller));
  }

  /** `GET /scenes?accountId&groupId`: the group's scenes in order, with widgets and layouts. */
  async scenes(caller: UserContext, query: ScenesQuery): Promise<Scene[]> {
    requireCapability(caller, 'viewDashboard');
    const group = await this.visibleGroup(caller, query.accountId, query.groupId, GROUP_NOT_FOUND);
    const scenes = await scenesOfGroup(this.db, group.id);
    const widgets = await widgetsOfScenes(
      this.db,
      scenes.map((scene) => scene.id),
    );
    const mayEdit = this.mayEdit(caller);
    return scenes.map((scene, index) =>
      toScene(
        group,
        scene,
        widgets.filter((widget) => widget.scene_id === scene.id),
        index,
        mayEdit,
      ),
    );
  }

  /** `POST /scene {scene}`: a new, empty scene at the end of the group's scenes. */
  async addScene(caller: UserContext, body: AddSceneBody): Promise<Scene> {
    requireCapability(caller, 'editScenes');
    const group = await this.visibleGroup(caller, body.scene.accountId, body.scene.groupId, GROUP_NOT_FOUND);
    this.requireWritable(group);
    if (isPlaceholderGroup(group.kind as GroupKind)) {
      throw new HttpError(400, 'New Devices and Trash hold devices only, not dashboards.');
    }
    const id = newId();
    await this.db.transaction().execute(async (trx) => {
      const existing = await scenesOfGroup(trx, group.id);
      if (existing.length >= MAX_SCENES_PER_GROUP) {
        throw new HttpError(409, `A group holds at most ${MAX_SCENES_PER_GROUP} dashboards.`);
      }
      // After the highest position in use (positions may have gaps after a deletion).
      const position = Math.max(-1, ...existing.map((scene) => scene.position)) + 1;
      await insertScene(trx, {
        id,
        group_id: group.id,
        name: normaliseSceneName(body.scene.name),
        type: 'grid',
        position,
        is_grid_locked: 0,
        grid_layout: JSON.stringify(normaliseGridLayout({}, [])),
        created_at: Date.now(),
      });
      const name = normaliseSceneName(body.scene.name);
      await this.record(trx, caller, group, 'scene.add', { kind: 'scene', id, name }, null, { name, position });
    });
    return this.sceneAnswer(caller, group, id);
  }

  /** `PUT /scene {accountId, path, props{name or isGridLocked}}`: rename or (un)lock the grid. */
  async updateScene(caller: UserContext, body: UpdateSceneBody): Promise<Scene> {
    requireCapability(caller, 'editScenes');
    const { group, scene } = await this.locate(caller, body.accountId, body.path, 'scene');
    this.requireWritable(group);
    const change = {
      ...(body.props.name !== undefined && { name: normaliseSceneName(body.props.name) }),
      ...(body.props.isGridLocked !== undefined && { is_grid_locked: body.props.isGridLocked ? 1 : 0 }),
    };
    await this.db.transaction().execute(async (trx) => {
      await updateScene(trx, scene.id, change);
      const before = { name: scene.name, is_grid_locked: scene.is_grid_locked };
      await this.record(
        trx,
        caller,
        group,
        'scene.update',
        { kind: 'scene', id: scene.id, name: change.name ?? scene.name },
        Object.fromEntries(Object.keys(change).map((key) => [key, before[key as keyof typeof before]])),
        change,
      );
    });
    return this.sceneAnswer(caller, group, scene.id);
  }

  /** `DELETE /scene {accountId, path}`: the scene and its widgets. */
  async deleteScene(caller: UserContext, body: DeleteByPathBody): Promise<{ path: string }> {
    requireCapability(caller, 'editScenes');
    const { group, scene } = await this.locate(caller, body.accountId, body.path, 'scene');
    this.requireWritable(group);
    await this.db.transaction().execute(async (trx) => {
      await deleteScenes(trx, [scene.id]);
      const target = { kind: 'scene', id: scene.id, name: scene.name };
      await this.record(trx, caller, group, 'scene.delete', target, { name: scene.name }, null);
    });
    return { path: scenePath(group.id, scene.id) };
  }

  /** `PUT /scenes/order {sceneIds, accountId, groupId}`: every scene of the group, in the new order. */
  async orderScenes(caller: UserContext, body: SceneOrderBody): Promise<{ sceneIds: string[] }> {
    requireCapability(caller, 'editScenes');
    const group = await this.visibleGroup(caller, body.accountId, body.groupId, GROUP_NOT_FOUND);
    this.requireWritable(group);
    await this.db.transaction().execute(async (trx) => {
      const current = (await scenesOfGroup(trx, group.id)).map((scene) => scene.id);
      const refusal = sceneOrderRefusal(current, body.sceneIds);
      if (refusal) throw new HttpError(refusal.status, refusal.message);
      for (const [position, id] of body.sceneIds.entries()) {
        if (current[position] !== id) await updateScene(trx, id, { position });
      }
      const target = { kind: 'group', id: group.id };
      await this.record(trx, caller, group, 'scene.order', target, { sceneIds: current }, { sceneIds: body.sceneIds });
    });
    return { sceneIds: body.sceneIds };
  }

  /**
   * `POST /gridlayout {gridLayout, accountId, path}`: each breakpoint given replaces the stored one,
   * normalised (§3, §5); breakpoints not given keep theirs. A locked grid is not rearranged (409).
   */
  async saveGridLayout(caller: UserContext, body: GridLayoutBody): Promise<{ path: string; gridLayout: GridLayouts }> {
    requireCapability(caller, 'editWidgets');
    const { group, scene } = await this.locate(caller, body.accountId, body.path, 'scene');
    this.requireWritable(group);
    if (scene.is_grid_locked === 1) throw new HttpError(409, 'The dashboard is locked. Unlock it to move widgets.');
    const gridLayout = await this.db.transaction().execute(async (trx) => {
      const widgets = (await widgetsOfScenes(trx, [scene.id])).map((row) => ({
        id: row.id,
        type: row.type as WidgetType,
      }));
      const changed = await changeGridLayout<GridLayoutSet>(trx, scene.id, (stored) =>
        normaliseGridLayout({ ...stored, ...(body.gridLayout as GridLayoutSet) }, widgets),
      );
      if (changed) {
        const target = { kind: 'scene', id: scene.id, name: scene.name };
        await this.record(trx, caller, group, 'scene.layout', target, JSON.parse(scene.grid_layout), changed);
      }
      return changed;
    });
    if (!gridLayout) throw notFound(SCENE_NOT_FOUND);
    return { path: scenePath(group.id, scene.id), gridLayout };
  }

  /**
   * `PUT /widget {widget}`: without an id, adds the widget to the scene and places it on every
   * breakpoint; with an id, replaces that widget of the scene. Every device it names must be one the
   * caller may see. Answers the widget as stored.
   */
  async putWidget(caller: UserContext, body: PutWidgetBody): Promise<Widget> {
    requireCapability(caller, 'editWidgets');
    const { id, accountId, groupId, sceneId, type, ...fields } = body.widget;
    const group = await this.visibleGroup(caller, accountId, groupId, SCENE_NOT_FOUND);
    const scene = await this.sceneOf(group, sceneId);
    const existing = id === undefined ? null : await this.widgetOf(scene, id);
    this.requireWritable(group);
    const { type: _type, ...props }: WidgetProps & { type: WidgetType } = widgetWithDefaults({ ...fields, type });
    const problem = widgetProblem(props);
    if (problem) throw new HttpError(400, problem);
    const deviceIds = deviceIdsOf(props);
    const visible = (await findDevicesByIds(this.db, deviceIds)).filter((device) => inScope(caller, device.path));
    if (visible.length !== deviceIds.length) throw notFound(DEVICE_NOT_FOUND);

    const now = Date.now();
    if (existing) {
      await this.db.transaction().execute(async (trx) => {
        await replaceWidget(trx, existing.id, { type, props: JSON.stringify(props), updated_at: now });
        const target = { kind: 'widget', id: existing.id, name: type };
        const before = { type: existing.type, props: JSON.parse(existing.props) as unknown };
        await this.record(trx, caller, group, 'widget.update', target, before, { type, props });
      });
      return toWidget(group.id, { ...existing, type, props: JSON.stringify(props), updated_at: now });
    }
    const row: WidgetsTable = {
      id: newId(),
      scene_id: scene.id,
      type,
      props: JSON.stringify(props),
      created_at: now,
      updated_at: now,
    };
    await this.db.transaction().execute(async (trx) => {
      if ((await countWidgets(trx, scene.id)) >= MAX_WIDGETS_PER_SCENE) {
        throw new HttpError(409, `A dashboard holds at most ${MAX_WIDGETS_PER_SCENE} widgets.`);
      }
      await insertWidget(trx, row);
      const placed = await changeGridLayout<GridLayoutSet>(trx, scene.id, (stored) =>
        placeNewWidget(stored, row.id, type, props.size),
      );
      if (!placed) throw notFound(SCENE_NOT_FOUND);
      const target = { kind: 'widget', id: row.id, name: type };
      await this.record(trx, caller, group, 'widget.add', target, null, { sceneId: scene.id, type, props });
    });
    return toWidget(group.id, row);
  }

  /** `DELETE /widget {accountId, path}`: the widget, and its place on every breakpoint. */
  async deleteWidget(caller: UserContext, body: DeleteByPathBody): Promise<{ path: string }> {
    requireCapability(caller, 'editWidgets');
    const { group, scene, widget } = await this.locate(caller, body.accountId, body.path, 'widget');
    this.requireWritable(group);
    await this.db.transaction().execute(async (trx) => {
      await deleteWidget(trx, widget!.id);
      await changeGridLayout<GridLayoutSet>(trx, scene.id, (stored) => removeWidgetFromLayout(stored, widget!.id));
      const target = { kind: 'widget', id: widget!.id, name: widget!.type };
      const before = { sceneId: scene.id, type: widget!.type, props: JSON.parse(widget!.props) as unknown };
      await this.record(trx, caller, group, 'widget.delete', target, before, null);
    });
    return { path: widgetPath(group.id, scene.id, widget!.id) };
  }
}
