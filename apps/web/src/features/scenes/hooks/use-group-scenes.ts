import { useCallback, useEffect, useMemo } from 'react';
import { useNavigate } from 'react-router';
import type { GroupNode } from '@fieldlink/api/account';
import type { Scene, Widget } from '@fieldlink/api/scenes';
import { groupHoldsDevices, NO_DEVICE_IN_GROUP } from '@fieldlink/domain/account-tree';
import { moveInOrder, sceneRoute, type GridBreakpoint } from '@fieldlink/domain/widgets';
import { showToast } from '../../../lib/app-store/app-store';
import { useLiveDevices } from '../../../lib/realtime/use-live-devices';
import { useScenes } from '../api/scenes-api';
import { withBreakpointLayout, type LayoutItem } from '../model/grid-layout';
import { sceneDeviceIds, type DeviceIndex } from '../model/resolve-channels';
import { sceneOfRoute } from '../model/scenes';
import type { WidgetDraft } from '../widgets/widget-definition';
import { useSceneActions } from './use-scene-actions';

/**
 * A group's scenes and their calls: `GET /scenes`, the scene of the route (the first when the route
 * names none, then named in the address), the live values of its devices while it is shown, and
 * each change (`POST`/`PUT`/`DELETE /scene`, `PUT /scenes/order`, `POST /gridlayout`,
 * `PUT`/`DELETE /widget`), with the address following an added, renamed or deleted scene.
 */
export function useGroupScenes({
  group,
  sceneId,
  devices,
  viewDashboard,
}: {
  group: GroupNode;
  sceneId: string | undefined;
  devices: DeviceIndex;
  viewDashboard: boolean;
}) {
  const navigate = useNavigate();
  const accountId = group.accountId;
  const scenesQuery = useScenes(accountId, group.id);
  const actions = useSceneActions(accountId, group.id);
  const scenes = scenesQuery.data;
  const scene = scenes ? sceneOfRoute(scenes, sceneId) : null;

  // §8: a group without any device shows no live value; say so once when it is opened.
  const holdsDevices = groupHoldsDevices(group);
  useEffect(() => {
    if (!holdsDevices) showToast('warning', NO_DEVICE_IN_GROUP);
  }, [holdsDevices, group.id]);

  // The route without a scene segment shows the first scene; name it in the address when it has a name.
  useEffect(() => {
    if (sceneId === undefined && scene && scene.name.trim() !== '') {
      void navigate(sceneRoute(accountId, group.id, scene), { replace: true });
    }
  }, [sceneId, scene, accountId, group.id, navigate]);

  // Live values of the scene's devices while it is shown.
  const liveDevices = useMemo(
    () =>
      scene
        ? sceneDeviceIds(scene.widgets, devices).map((id) => ({
            id,
            thingName: devices.get(id)?.device.thingName ?? '',
          }))
        : [],
    [scene, devices],
  );
  useLiveDevices(liveDevices, viewDashboard);

  const saveLayout = useCallback(
    (target: Scene, breakpoint: GridBreakpoint, layout: readonly LayoutItem[]) =>
      actions.saveLayout.mutate({ sceneId: target.id, gridLayout: withBreakpointLayout(target, breakpoint, layout) }),
    [actions.saveLayout],
  );
  const moveScene = (moved: Scene, to: number) => {
    if (!scenes) return;
    const ids = scenes.map((s) => s.id);
    actions.orderScenes.mutate(moveInOrder(ids, ids.indexOf(moved.id), to));
  };
  const toggleLock = (target: Scene) =>
    actions.lockScene.mutate({ sceneId: target.id, isGridLocked: !target.isGridLocked });
  const addScene = async (name: string) => {
    const created = await actions.addScene.mutateAsync(name);
    void navigate(sceneRoute(accountId, group.id, created));
  };
  const renameScene = async (target: Scene, name: string) => {
    await actions.renameScene.mutateAsync({ sceneId: target.id, name });
    void navigate(sceneRoute(accountId, group.id, { ...target, name }), { replace: true });
  };
  const removeScene = async (target: Scene) => {
    await actions.removeScene.mutateAsync(target.id);
    void navigate(sceneRoute(accountId, group.id), { replace: true });
  };
  const saveWidget = (target: Scene, draft: WidgetDraft) =>
    actions.saveWidget.mutateAsync({ sceneId: target.id, draft });
  const removeWidget = (target: Scene, widget: Widget) =>
    actions.removeWidget.mutateAsync({ sceneId: target.id, widgetId: widget.id });

  return {
    scenesQuery,
    scenes,
    scene,
    locking: actions.lockScene.isPending,
    saveLayout,
    moveScene,
    toggleLock,
    addScene,
    renameScene,
    removeScene,
    saveWidget,
    removeWidget,
  };
}

export type GroupScenesData = ReturnType<typeof useGroupScenes>;
