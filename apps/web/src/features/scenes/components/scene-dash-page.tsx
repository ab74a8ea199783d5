import { useCallback, useEffect, useMemo, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import type { Account, GroupNode } from '@fieldlink/api/account';
import type { Scene, Widget } from '@fieldlink/api/scenes';
import { groupHoldsDevices, NO_DEVICE_IN_GROUP } from '@fieldlink/domain/account-tree';
import { deviceActionRefusal } from '@fieldlink/domain/device-actions';
import { can } from '@fieldlink/domain/permissions';
import { moveInOrder, scenePageRights, sceneRoute, widgetRole, type GridBreakpoint } from '@fieldlink/domain/widgets';
import { Button } from '../../../components/ui/button';
import { DashboardIcon } from '../../../components/ui/icons';
import { PanelMessage } from '../../../components/ui/panel-message';
import { RefusalNote } from '../../../components/ui/refusal-note';
import { groupTrail } from '../../../lib/account-tree';
import { serverErrorMessage } from '../../../lib/api-client';
import { showToast } from '../../../lib/app-store/app-store';
import { useLiveDevices } from '../../../lib/realtime/use-live-devices';
import { useScenes } from '../api/scenes-api';
import { useSceneActions } from '../hooks/use-scene-actions';
import { useSceneContext, type SceneContext } from '../hooks/use-scene-context';
import { withBreakpointLayout, type LayoutItem } from '../model/grid-layout';
import { sceneDeviceIds } from '../model/resolve-channels';
import { sceneOfRoute } from '../model/scenes';
import { draftOfWidget, newWidgetDraft } from '../model/widget-form';
import { WIDGET_DEFINITIONS } from '../widgets/registry';
import { SceneGrid } from './scene-grid';
import { ScenePageBody, type ScenesAnswer } from './scene-page-body';
import { ScenePageDialogs, type ScenePageDialog, type ScenePageDialogActions } from './scene-page-dialogs';
import { ScenePageHeader } from './scene-page-header';
import { SceneSkeleton } from './scene-skeleton';
import { SceneTabs } from './scene-tabs';
import './scenes.css';

/** `/dash/:accountId/:groupId(/:sceneId)`: a group's scene dashboards (application spec §2). */
export function SceneDashPage() {
  const { accountId = '', groupId = '', sceneId } = useParams();
  const context = useSceneContext();

  if (context.status === 'pending') return <SceneSkeleton />;
  if (context.status === 'error') {
    return (
      <PanelMessage
        title="Could not read your account"
        actions={
          <Button variant="primary" onClick={context.retry}>
            Try again
          </Button>
        }
      >
        {serverErrorMessage(context.error)}
      </PanelMessage>
    );
  }
  const found = findSceneGroup(context.accounts, accountId, groupId);
  if (!found) {
    return (
      <PanelMessage
        icon={<DashboardIcon size={26} />}
        title="Dashboard not found"
        actions={
          <Link to="/dash" className="fl-button fl-button--primary">
            Open the device list
          </Link>
        }
      >
        This group does not exist, or it is not one of yours.
      </PanelMessage>
    );
  }
  return (
    <GroupScenes
      key={`${accountId}/${groupId}`}
      context={context}
      tree={found.tree}
      group={found.group}
      sceneId={sceneId}
    />
  );
}

/**
 * The group of a scene route and the tree it was found in. A supplier's tree holds its customers'
 * accounts as groups, so the group is looked for, by its own account id, in every tree.
 */
function findSceneGroup(accounts: readonly Account[], accountId: string, groupId: string) {
  const find = (group: GroupNode): GroupNode | null => {
    if (group.id === groupId) return group;
    for (const child of group.groups) {
      const found = find(child);
      if (found) return found;
    }
    return null;
  };
  for (const tree of accounts) {
    const group = find(tree.rootGroup);
    if (group && group.accountId === accountId) return { tree, group };
  }
  return null;
}

function GroupScenes({
  context,
  tree,
  group,
  sceneId,
}: {
  context: SceneContext;
  /** The tree the group was found in (its own account's, or a supplier's above it). */
  tree: Account;
  group: GroupNode;
  sceneId: string | undefined;
}) {
  const navigate = useNavigate();
  const { subject, devices, accounts } = context;
  const accountId = group.accountId;
  const scenesQuery = useScenes(accountId, group.id);
  const actions = useSceneActions(accountId, group.id);
  const [dialog, setDialog] = useState<ScenePageDialog | null>(null);
  const closeDialog = useCallback(() => setDialog(null), []);

  const scenes = scenesQuery.data;
  const scene = scenes ? sceneOfRoute(scenes, sceneId) : null;

  const viewDashboard = can(subject, 'viewDashboard');
  // §4: the account's scenes are read-only for everyone; a supplier's tree names each group's account kind.
  const sceneAccount = {
    appType: group.appType,
    kind: group.accountKind ?? (tree.rootGroup.accountId === accountId ? tree.kind : ''),
  };
  // Anyone who cannot change the scene is told why in one line, rather than finding buttons missing.
  const rights = scenePageRights(
    { canEditScenes: can(subject, 'editScenes'), canEditWidgets: can(subject, 'editWidgets') },
    sceneAccount,
    group.kind,
    scene,
  );

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
  const editWidget = useCallback((widget: Widget) => {
    const definition = WIDGET_DEFINITIONS[widget.type];
    if (definition) setDialog({ kind: 'editWidget', definition, draft: draftOfWidget(widget) });
  }, []);
  const deleteWidget = useCallback((widget: Widget) => setDialog({ kind: 'deleteWidget', widget }), []);
  const moveScene = (moved: Scene, to: number) => {
    if (!scenes) return;
    const ids = scenes.map((s) => s.id);
    actions.orderScenes.mutate(moveInOrder(ids, ids.indexOf(moved.id), to));
  };
  const dialogActions: ScenePageDialogActions = {
    addScene: async (name) => {
      const created = await actions.addScene.mutateAsync(name);
      void navigate(sceneRoute(accountId, group.id, created));
    },
    renameScene: async (renamed, name) => {
      await actions.renameScene.mutateAsync({ sceneId: renamed.id, name });
      void navigate(sceneRoute(accountId, group.id, { ...renamed, name }), { replace: true });
    },
    deleteScene: async (deleted) => {
      await actions.removeScene.mutateAsync(deleted.id);
      void navigate(sceneRoute(accountId, group.id), { replace: true });
    },
    pickWidget: (type) => {
      const definition = WIDGET_DEFINITIONS[type];
      if (definition) setDialog({ kind: 'editWidget', definition, draft: newWidgetDraft(type, definition) });
    },
    saveWidget: (draft) => (scene ? actions.saveWidget.mutateAsync({ sceneId: scene.id, draft }) : Promise.resolve()),
    deleteWidget: (widget) =>
      scene ? actions.removeWidget.mutateAsync({ sceneId: scene.id, widgetId: widget.id }) : Promise.resolve(),
  };
  const answer: ScenesAnswer = scenesQuery.isPending
    ? { status: 'pending' }
    : scenesQuery.isError
      ? { status: 'error', error: scenesQuery.error, retry: () => void scenesQuery.refetch() }
      : { status: 'success', scenes: scenes ?? [] };

  return (
    <div className="scene-page">
      <ScenePageHeader
        ancestors={groupTrail(tree, group.id).slice(0, -1)}
        name={group.name}
        scene={scene}
        canEditScene={scene !== null && rights.canEditScene(scene)}
        widgetsEditable={rights.widgetsEditable}
        lockPending={actions.lockScene.isPending}
        onToggleLock={() => scene && actions.lockScene.mutate({ sceneId: scene.id, isGridLocked: !scene.isGridLocked })}
        onAddWidget={() => setDialog({ kind: 'pickWidget' })}
      />
      <RefusalNote reason={rights.readOnlyReason} testId="scene-read-only" />
      {viewDashboard && scene?.widgets.some((widget) => widgetRole(widget.type) === 'CONTROL') && (
        <RefusalNote reason={deviceActionRefusal(subject, 'writeChannel')} />
      )}
      {scenes && scenes.length > 0 && (
        <SceneTabs
          accountId={accountId}
          groupId={group.id}
          scenes={scenes}
          currentId={scene?.id ?? null}
          canAdd={rights.canAddScene}
          canEdit={rights.canEditScene}
          onAdd={() => setDialog({ kind: 'addScene' })}
          onRename={(s) => setDialog({ kind: 'renameScene', scene: s })}
          onDelete={(s) => setDialog({ kind: 'deleteScene', scene: s })}
          onMove={moveScene}
        />
      )}
      <ScenePageBody
        answer={answer}
        scene={scene}
        group={group}
        accountId={accountId}
        canAddScene={rights.canAddScene}
        widgetsEditable={rights.widgetsEditable}
        onAddScene={() => setDialog({ kind: 'addScene' })}
        onAddWidget={() => setDialog({ kind: 'pickWidget' })}
        grid={(shown) => (
          <SceneGrid
            scene={shown}
            devices={devices}
            arrangeable={rights.arrangeable}
            editable={rights.widgetsEditable}
            controlsDisabled={!viewDashboard}
            onSaveLayout={saveLayout}
            onEditWidget={editWidget}
            onDeleteWidget={deleteWidget}
          />
        )}
      />
      <ScenePageDialogs
        dialog={dialog}
        scene={scene}
        accounts={accounts}
        accountId={accountId}
        devices={devices}
        actions={dialogActions}
        onClose={closeDialog}
      />
    </div>
  );
}
