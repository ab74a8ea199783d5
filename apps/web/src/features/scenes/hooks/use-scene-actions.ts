import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { GridLayouts, Scene, Widget } from '@fieldlink/api/scenes';
import { scenePath, widgetPath } from '@fieldlink/domain/group-path';
import { removeWidgetFromLayout } from '@fieldlink/domain/widgets';
import { showToast } from '../../../lib/app-store/app-store';
import { serverErrorMessage } from '../../../lib/api-client';
import {
  deleteScene,
  deleteWidget,
  postGridLayout,
  postScene,
  putScene,
  putScenesOrder,
  putWidget,
  scenesQueryKey,
} from '../api/scenes-api';
import { inOrder } from '../model/scenes';
import type { WidgetDraft } from '../widgets/widget-definition';

/**
 * The scene page's changes. Each keeps the `GET /scenes` answer in the cache up to date, at once where
 * the change cannot fail for a reason the user must see first (order, lock, layout: put back when the
 * server refuses), after the answer otherwise. The account tree lists scenes too, so adding, renaming
 * and deleting one reads it again.
 */
export function useSceneActions(accountId: string, groupId: string) {
  const queryClient = useQueryClient();
  const key = scenesQueryKey(accountId, groupId);
  const read = () => queryClient.getQueryData<Scene[]>(key);
  const write = (update: (scenes: Scene[]) => Scene[]) =>
    queryClient.setQueryData<Scene[]>(key, (scenes) => (scenes ? update(scenes) : scenes));
  const updateScene = (sceneId: string, update: (scene: Scene) => Scene) =>
    write((scenes) => scenes.map((scene) => (scene.id === sceneId ? update(scene) : scene)));
  const refreshTree = () => void queryClient.invalidateQueries({ queryKey: ['account'] });
  const refetchScenes = () => void queryClient.invalidateQueries({ queryKey: key });

  /** A change shown at once and put back (with a toast) when the server refuses it. */
  const optimistic = <T>(apply: (value: T) => void, send: (value: T) => Promise<unknown>) => ({
    mutationFn: send,
    onMutate: async (value: T) => {
      await queryClient.cancelQueries({ queryKey: key });
      const before = read();
      apply(value);
      return { before };
    },
    onError: (error: unknown, _value: T, context: { before: Scene[] | undefined } | undefined) => {
      if (context?.before) queryClient.setQueryData(key, context.before);
      showToast('error', serverErrorMessage(error));
    },
  });

  const addScene = useMutation({
    mutationFn: (name: string) => postScene({ scene: { name, accountId, groupId, type: 'grid' } }),
    onSuccess: (scene) => {
      write((scenes) => [...scenes.filter((s) => s.id !== scene.id), scene]);
      refreshTree();
    },
  });

  const renameScene = useMutation({
    mutationFn: ({ sceneId, name }: { sceneId: string; name: string }) =>
      putScene({ accountId, path: scenePath(groupId, sceneId), props: { name } }),
    onSuccess: (_answer, { sceneId, name }) => {
      updateScene(sceneId, (scene) => ({ ...scene, name }));
      refreshTree();
    },
  });

  const removeScene = useMutation({
    mutationFn: (sceneId: string) => deleteScene({ accountId, path: scenePath(groupId, sceneId) }),
    onSuccess: (_answer, sceneId) => {
      write((scenes) => scenes.filter((scene) => scene.id !== sceneId));
      refreshTree();
    },
  });

  const lockScene = useMutation(
    optimistic<{ sceneId: string; isGridLocked: boolean }>(
      ({ sceneId, isGridLocked }) => updateScene(sceneId, (scene) => ({ ...scene, isGridLocked })),
      ({ sceneId, isGridLocked }) =>
        putScene({ accountId, path: scenePath(groupId, sceneId), props: { isGridLocked } }),
    ),
  );

  const orderScenes = useMutation(
    optimistic<string[]>(
      (sceneIds) => write((scenes) => inOrder(scenes, sceneIds).map((scene, index) => ({ ...scene, index }))),
      (sceneIds) => putScenesOrder({ sceneIds, accountId, groupId }),
    ),
  );

  const saveLayout = useMutation(
    optimistic<{ sceneId: string; gridLayout: GridLayouts }>(
      ({ sceneId, gridLayout }) => updateScene(sceneId, (scene) => ({ ...scene, gridLayout })),
      ({ sceneId, gridLayout }) => postGridLayout({ gridLayout, accountId, path: scenePath(groupId, sceneId) }),
    ),
  );

  const saveWidget = useMutation({
    mutationFn: ({ sceneId, draft }: { sceneId: string; draft: WidgetDraft }) =>
      putWidget({ widget: { ...draft, accountId, groupId, sceneId } }),
    onSuccess: (widget: Widget, { sceneId }) => {
      updateScene(sceneId, (scene) => {
        const known = scene.widgets.some((w) => w.id === widget.id);
        const widgets = known
          ? scene.widgets.map((w) => (w.id === widget.id ? widget : w))
          : [...scene.widgets, widget];
        return { ...scene, widgets };
      });
      // A new widget is placed by the server: read its place.
      refetchScenes();
    },
  });

  const removeWidget = useMutation({
    mutationFn: ({ sceneId, widgetId }: { sceneId: string; widgetId: string }) =>
      deleteWidget({ accountId, path: widgetPath(groupId, sceneId, widgetId) }),
    onSuccess: (_answer, { sceneId, widgetId }) => {
      updateScene(sceneId, (scene) => ({
        ...scene,
        widgets: scene.widgets.filter((widget) => widget.id !== widgetId),
        gridLayout: removeWidgetFromLayout(scene.gridLayout, widgetId),
      }));
    },
  });

  return { addScene, renameScene, removeScene, lockScene, orderScenes, saveLayout, saveWidget, removeWidget };
}
