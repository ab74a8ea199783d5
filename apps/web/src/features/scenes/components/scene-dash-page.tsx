import { useCallback, useEffect, useMemo, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import type { Account, GroupNode } from '@fieldlink/api/account';
import type { Scene, Widget } from '@fieldlink/api/scenes';
import { groupHoldsDevices, NO_DEVICE_IN_GROUP } from '@fieldlink/domain/account-tree';
import { deviceActionRefusal } from '@fieldlink/domain/device-actions';
import { can } from '@fieldlink/domain/permissions';
import {
  isSceneReadOnly,
  moveInOrder,
  sceneReadOnlyReason,
  sceneRoute,
  widgetRole,
  type GridBreakpoint,
  type WidgetType,
} from '@fieldlink/domain/widgets';
import { Button } from '../../../components/ui/button';
import { ChevronRightIcon, DashboardIcon, LockIcon, PlusIcon } from '../../../components/ui/icons';
import { PanelMessage } from '../../../components/ui/panel-message';
import { RefusalNote } from '../../../components/ui/refusal-note';
import { groupTrail } from '../../../lib/account-tree';
import { ApiError, serverErrorMessage } from '../../../lib/api-client';
import { showToast } from '../../../lib/app-store/app-store';
import { useScenes } from '../api/scenes-api';
import { useSceneActions } from '../hooks/use-scene-actions';
import { useSceneContext, type SceneContext } from '../hooks/use-scene-context';
import { useLiveDevices } from '../../../lib/realtime/use-live-devices';
import { withBreakpointLayout, type LayoutItem } from '../model/grid-layout';
import { sceneDeviceIds } from '../model/resolve-channels';
import { sceneOfRoute } from '../model/scenes';
import { draftOfWidget, newWidgetDraft } from '../model/widget-form';
import { WIDGET_DEFINITIONS } from '../widgets/registry';
import type { WidgetDefinition, WidgetDraft } from '../widgets/widget-definition';
import { ConfirmDeleteDialog, SceneNameDialog } from './scene-dialogs';
import { SceneGrid } from './scene-grid';
import { UnlockIcon, WidgetsIcon } from './scene-icons';
import { SceneTabs } from './scene-tabs';
import { WidgetEditorDialog } from './widget-editor-dialog';
import { WidgetPickerDialog } from './widget-picker-dialog';
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

type DialogState =
  | { kind: 'addScene' }
  | { kind: 'renameScene'; scene: Scene }
  | { kind: 'deleteScene'; scene: Scene }
  | { kind: 'pickWidget' }
  | { kind: 'editWidget'; definition: WidgetDefinition; draft: WidgetDraft }
  | { kind: 'deleteWidget'; widget: Widget };

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
  const [dialog, setDialog] = useState<DialogState | null>(null);
  const closeDialog = useCallback(() => setDialog(null), []);

  const scenes = scenesQuery.data;
  const scene = scenes ? sceneOfRoute(scenes, sceneId) : null;

  const viewDashboard = can(subject, 'viewDashboard');
  // §4: the account's scenes are read-only for everyone; a supplier's tree names each group's account kind.
  const sceneAccount = {
    appType: group.appType,
    kind: group.accountKind ?? (tree.rootGroup.accountId === accountId ? tree.kind : ''),
  };
  const accountReadOnly = isSceneReadOnly(sceneAccount);
  // New Devices and Trash hold devices only (the server refuses scenes there).
  const canAddScene = can(subject, 'editScenes') && !accountReadOnly && group.kind !== 'new' && group.kind !== 'trash';
  const canEditScene = (s: Scene) => can(subject, 'editScenes') && !s.readOnly && !accountReadOnly;
  const widgetsEditable = scene !== null && can(subject, 'editWidgets') && !scene.readOnly && !accountReadOnly;
  const arrangeable = widgetsEditable && scene !== null && !scene.isGridLocked;
  // Anyone who cannot change the scene is told why in one line, rather than finding buttons missing.
  const readOnlyReason =
    scene === null
      ? null
      : sceneReadOnlyReason(sceneAccount, scene, {
          canEditScenes: can(subject, 'editScenes'),
          canEditWidgets: can(subject, 'editWidgets'),
        });

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
  const pickWidget = (type: WidgetType) => {
    const definition = WIDGET_DEFINITIONS[type];
    if (definition) setDialog({ kind: 'editWidget', definition, draft: newWidgetDraft(type, definition) });
  };
  const moveScene = (moved: Scene, to: number) => {
    if (!scenes) return;
    const ids = scenes.map((s) => s.id);
    actions.orderScenes.mutate(moveInOrder(ids, ids.indexOf(moved.id), to));
  };

  const trail = groupTrail(tree, group.id);
  const header = (
    <header className="scene-page__head">
      <div className="scene-page__titles">
        <nav className="scene-page__trail" aria-label="Group">
          {trail.slice(0, -1).map((name, index) => (
            <span key={index}>
              {name}
              <ChevronRightIcon size={13} />
            </span>
          ))}
        </nav>
        <h1 className="scene-page__title">{group.name}</h1>
      </div>
      {scene && (
        <div className="scene-page__actions">
          {canEditScene(scene) ? (
            <Button
              size="sm"
              variant="secondary"
              aria-pressed={scene.isGridLocked}
              data-testid="scene-lock"
              title={scene.isGridLocked ? 'Widgets cannot be moved or resized' : 'Widgets can be moved and resized'}
              busy={actions.lockScene.isPending}
              onClick={() => actions.lockScene.mutate({ sceneId: scene.id, isGridLocked: !scene.isGridLocked })}
            >
              {scene.isGridLocked ? <LockIcon size={15} /> : <UnlockIcon size={15} />}
              {scene.isGridLocked ? 'Unlock layout' : 'Lock layout'}
            </Button>
          ) : (
            scene.isGridLocked && (
              <span className="scene-page__locked" data-testid="scene-locked">
                <LockIcon size={14} /> Layout locked
              </span>
            )
          )}
          {widgetsEditable && (
            <Button
              size="sm"
              variant="primary"
              data-testid="widget-add"
              onClick={() => setDialog({ kind: 'pickWidget' })}
            >
              <PlusIcon size={15} />
              Add widget
            </Button>
          )}
        </div>
      )}
    </header>
  );

  let body;
  if (scenesQuery.isPending) {
    body = <SceneSkeleton />;
  } else if (scenesQuery.isError) {
    body = (
      <PanelMessage
        title={
          scenesQuery.error instanceof ApiError && scenesQuery.error.status === 404
            ? 'Dashboard not found'
            : 'Could not read the scenes'
        }
        actions={
          <Button variant="primary" onClick={() => void scenesQuery.refetch()}>
            Try again
          </Button>
        }
      >
        {serverErrorMessage(scenesQuery.error)}
      </PanelMessage>
    );
  } else if (!scenes || scenes.length === 0) {
    body = (
      <PanelMessage
        icon={<DashboardIcon size={26} />}
        title="No scenes yet"
        actions={
          canAddScene && (
            <Button variant="primary" data-testid="scene-create-first" onClick={() => setDialog({ kind: 'addScene' })}>
              <PlusIcon size={16} />
              Create a scene
            </Button>
          )
        }
      >
        {canAddScene
          ? `A scene is a dashboard of widgets for the devices of ${group.name}: gauges, switches, charts and notes, arranged as you like.`
          : `${group.name} has no dashboards yet.`}
      </PanelMessage>
    );
  } else if (!scene) {
    body = (
      <PanelMessage
        icon={<DashboardIcon size={26} />}
        title="This scene no longer exists"
        actions={
          <Link to={sceneRoute(accountId, group.id)} className="fl-button fl-button--primary">
            Open {group.name}’s first scene
          </Link>
        }
      >
        It may have been deleted or moved.
      </PanelMessage>
    );
  } else if (scene.widgets.length === 0) {
    body = (
      <div className="scene-empty fl-card" data-testid="scene-empty">
        <div className="scene-empty__icon">
          <WidgetsIcon size={26} />
        </div>
        <h2>This scene is empty</h2>
        <p className="fl-muted">
          {widgetsEditable
            ? 'Add widgets to watch live values, operate setpoints and relays, chart logs or write notes.'
            : 'No widgets have been added to this scene yet.'}
        </p>
        {widgetsEditable && (
          <Button variant="primary" data-testid="widget-add-first" onClick={() => setDialog({ kind: 'pickWidget' })}>
            <PlusIcon size={16} />
            Add a widget
          </Button>
        )}
      </div>
    );
  } else {
    body = (
      <SceneGrid
        scene={scene}
        devices={devices}
        arrangeable={arrangeable}
        editable={widgetsEditable}
        controlsDisabled={!viewDashboard}
        onSaveLayout={saveLayout}
        onEditWidget={editWidget}
        onDeleteWidget={deleteWidget}
      />
    );
  }

  return (
    <div className="scene-page">
      {header}
      <RefusalNote reason={readOnlyReason || null} testId="scene-read-only" />
      {viewDashboard && scene?.widgets.some((widget) => widgetRole(widget.type) === 'CONTROL') && (
        <RefusalNote reason={deviceActionRefusal(subject, 'writeChannel')} />
      )}
      {scenes && scenes.length > 0 && (
        <SceneTabs
          accountId={accountId}
          groupId={group.id}
          scenes={scenes}
          currentId={scene?.id ?? null}
          canAdd={canAddScene}
          canEdit={canEditScene}
          onAdd={() => setDialog({ kind: 'addScene' })}
          onRename={(s) => setDialog({ kind: 'renameScene', scene: s })}
          onDelete={(s) => setDialog({ kind: 'deleteScene', scene: s })}
          onMove={moveScene}
        />
      )}
      {body}

      {dialog?.kind === 'addScene' && (
        <SceneNameDialog
          title="New scene"
          submitLabel="Create scene"
          onClose={closeDialog}
          onSubmit={async (name) => {
            const created = await actions.addScene.mutateAsync(name);
            void navigate(sceneRoute(accountId, group.id, created));
          }}
        />
      )}
      {dialog?.kind === 'renameScene' && (
        <SceneNameDialog
          title="Rename scene"
          submitLabel="Rename"
          initialName={dialog.scene.name}
          onClose={closeDialog}
          onSubmit={async (name) => {
            await actions.renameScene.mutateAsync({ sceneId: dialog.scene.id, name });
            void navigate(sceneRoute(accountId, group.id, { ...dialog.scene, name }), { replace: true });
          }}
        />
      )}
      {dialog?.kind === 'deleteScene' && (
        <ConfirmDeleteDialog
          title="Delete scene?"
          confirmLabel="Delete scene"
          onClose={closeDialog}
          onConfirm={async () => {
            await actions.removeScene.mutateAsync(dialog.scene.id);
            void navigate(sceneRoute(accountId, group.id), { replace: true });
          }}
        >
          “{dialog.scene.name || 'Untitled'}” and its {dialog.scene.widgets.length}{' '}
          {dialog.scene.widgets.length === 1 ? 'widget' : 'widgets'} will be deleted for everyone who sees this group.
          This cannot be undone.
        </ConfirmDeleteDialog>
      )}
      {dialog?.kind === 'pickWidget' && <WidgetPickerDialog onPick={pickWidget} onClose={closeDialog} />}
      {dialog?.kind === 'editWidget' && scene && (
        <WidgetEditorDialog
          definition={dialog.definition}
          initialDraft={dialog.draft}
          accounts={accounts}
          accountId={accountId}
          devices={devices}
          onClose={closeDialog}
          onSave={(draft) => actions.saveWidget.mutateAsync({ sceneId: scene.id, draft })}
        />
      )}
      {dialog?.kind === 'deleteWidget' && scene && (
        <ConfirmDeleteDialog
          title="Delete widget?"
          confirmLabel="Delete widget"
          onClose={closeDialog}
          onConfirm={() => actions.removeWidget.mutateAsync({ sceneId: scene.id, widgetId: dialog.widget.id })}
        >
          “{dialog.widget.name || WIDGET_DEFINITIONS[dialog.widget.type]?.label || 'Widget'}” will be removed from this
          scene. This cannot be undone.
        </ConfirmDeleteDialog>
      )}
    </div>
  );
}

function SceneSkeleton() {
  return (
    <div className="scene-skeleton" role="status" aria-label="Loading scenes">
      <div className="fl-skeleton" style={{ height: 40, width: 320 }} />
      <div className="scene-skeleton__grid">
        {Array.from({ length: 6 }, (_, i) => (
          <div key={i} className="fl-skeleton" style={{ height: 150 }} />
        ))}
      </div>
    </div>
  );
}
