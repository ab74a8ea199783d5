import { scenePath, widgetPath } from './group-path';
import {
  defaultWidgetSize,
  isSceneReadOnly,
  normaliseGridLayout,
  type GridLayoutSet,
  type WidgetSize,
  type WidgetType,
} from './widgets';

/**
 * A dashboard scene as `GET /scenes` answers it (§4): its widgets placed in it, its grid layout made
 * whole for every breakpoint, and whether the caller may change it. Assembled here once: the server
 * from its scene and widget rows, the browser demo from the dashboard it makes for its fleet.
 */

/** A widget's stored fields: its own props, its id and type, its size when one was set. */
type StoredWidget<P> = P & { id: string; type: WidgetType; size?: WidgetSize | undefined };

/**
 * A widget of a scene as the answers carry it: its place (path, group, scene) and a size, its type's
 * default for widgets stored before `size` existed.
 */
export function sceneWidget<P>(groupId: string, sceneId: string, widget: StoredWidget<P>) {
  return {
    ...widget,
    size: widget.size ?? defaultWidgetSize(widget.type),
    id: widget.id,
    type: widget.type,
    path: widgetPath(groupId, sceneId, widget.id),
    groupId,
    sceneId,
  };
}

/**
 * A scene of `group` at `index` among the group's scenes, its widgets placed by {@link sceneWidget}.
 * The scene is read-only when its account's dashboards are (§4, {@link isSceneReadOnly}) or the
 * caller may edit neither scenes nor widgets (`mayEdit` false).
 */
export function sceneView<P>(input: {
  group: { id: string; accountId: string; appType: string; accountKind: string };
  scene: { id: string; name: string; isGridLocked: boolean; gridLayout: GridLayoutSet };
  widgets: readonly StoredWidget<P>[];
  index: number;
  mayEdit: boolean;
}) {
  const { group, scene } = input;
  const widgets = input.widgets.map((widget) => sceneWidget(group.id, scene.id, widget));
  return {
    id: scene.id,
    name: scene.name,
    type: 'grid' as const,
    index: input.index,
    accountId: group.accountId,
    path: scenePath(group.id, scene.id),
    groupId: group.id,
    isGridLocked: scene.isGridLocked,
    widgets,
    gridLayout: normaliseGridLayout(scene.gridLayout, widgets),
    appType: group.appType,
    readOnly: isSceneReadOnly({ appType: group.appType, kind: group.accountKind }) || !input.mayEdit,
  };
}
