import { Link } from 'react-router';
import type { Account, GroupNode } from '@fieldlink/api/account';
import type { Scene } from '@fieldlink/api/scenes';
import { sceneRoute } from '@fieldlink/domain/widgets';
import { Button } from '../../../components/ui/button';
import { ChevronRightIcon, DashboardIcon, LockIcon, PlusIcon } from '../../../components/ui/icons';
import { PanelMessage } from '../../../components/ui/panel-message';
import { groupTrail } from '../../../lib/account-tree';
import { ApiError, serverErrorMessage } from '../../../lib/api-client';
import type { GroupScenesData } from '../hooks/use-group-scenes';
import type { SceneDialogState } from '../hooks/use-scene-dialog';
import type { DeviceIndex } from '../model/resolve-channels';
import type { SceneRights } from '../model/scene-rights';
import { WIDGET_DEFINITIONS } from '../widgets/registry';
import { ConfirmDeleteDialog, SceneNameDialog } from './scene-dialogs';
import { SceneGrid } from './scene-grid';
import { UnlockIcon, WidgetsIcon } from './scene-icons';
import { WidgetEditorDialog } from './widget-editor-dialog';
import { WidgetPickerDialog } from './widget-picker-dialog';

/** The group's trail and name, and the shown scene's layout lock and Add widget. */
export function SceneHeader({
  tree,
  group,
  scene,
  rights,
  data,
  dialogs,
}: {
  tree: Account;
  group: GroupNode;
  scene: Scene | null;
  rights: SceneRights;
  data: GroupScenesData;
  dialogs: SceneDialogState;
}) {
  const trail = groupTrail(tree, group.id);
  return (
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
          {rights.canEditScene(scene) ? (
            <Button
              size="sm"
              variant="secondary"
              aria-pressed={scene.isGridLocked}
              data-testid="scene-lock"
              title={scene.isGridLocked ? 'Widgets cannot be moved or resized' : 'Widgets can be moved and resized'}
              busy={data.locking}
              onClick={() => data.toggleLock(scene)}
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
          {rights.widgetsEditable && (
            <Button size="sm" variant="primary" data-testid="widget-add" onClick={dialogs.pickWidget}>
              <PlusIcon size={15} />
              Add widget
            </Button>
          )}
        </div>
      )}
    </header>
  );
}

/** The shown scene's grid, or what stands in its place: loading, a failure, no scenes, an empty scene. */
export function SceneBody({
  group,
  devices,
  rights,
  data,
  dialogs,
}: {
  group: GroupNode;
  devices: DeviceIndex;
  rights: SceneRights;
  data: GroupScenesData;
  dialogs: SceneDialogState;
}) {
  const { scenesQuery, scenes, scene } = data;
  if (scenesQuery.isPending) return <SceneSkeleton />;
  if (scenesQuery.isError) {
    return (
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
  }
  if (!scenes || scenes.length === 0) {
    return (
      <PanelMessage
        icon={<DashboardIcon size={26} />}
        title="No scenes yet"
        actions={
          rights.canAddScene && (
            <Button variant="primary" data-testid="scene-create-first" onClick={dialogs.addScene}>
              <PlusIcon size={16} />
              Create a scene
            </Button>
          )
        }
      >
        {rights.canAddScene
          ? `A scene is a dashboard of widgets for the devices of ${group.name}: gauges, switches, charts and notes, arranged as you like.`
          : `${group.name} has no dashboards yet.`}
      </PanelMessage>
    );
  }
  if (!scene) {
    return (
      <PanelMessage
        icon={<DashboardIcon size={26} />}
        title="This scene no longer exists"
        actions={
          <Link to={sceneRoute(group.accountId, group.id)} className="fl-button fl-button--primary">
            Open {group.name}’s first scene
          </Link>
        }
      >
        It may have been deleted or moved.
      </PanelMessage>
    );
  }
  if (scene.widgets.length === 0) {
    return (
      <div className="scene-empty fl-card" data-testid="scene-empty">
        <div className="scene-empty__icon">
          <WidgetsIcon size={26} />
        </div>
        <h2>This scene is empty</h2>
        <p className="fl-muted">
          {rights.widgetsEditable
            ? 'Add widgets to watch live values, operate setpoints and relays, chart logs or write notes.'
            : 'No widgets have been added to this scene yet.'}
        </p>
        {rights.widgetsEditable && (
          <Button variant="primary" data-testid="widget-add-first" onClick={dialogs.pickWidget}>
            <PlusIcon size={16} />
            Add a widget
          </Button>
        )}
      </div>
    );
  }
  return (
    <SceneGrid
      scene={scene}
      devices={devices}
      arrangeable={rights.arrangeable}
      editable={rights.widgetsEditable}
      controlsDisabled={!rights.viewDashboard}
      onSaveLayout={data.saveLayout}
      onEditWidget={dialogs.editWidget}
      onDeleteWidget={dialogs.deleteWidget}
    />
  );
}

/** The open dialog of the scene page: add, rename or delete a scene; pick, edit or delete a widget. */
export function SceneDialogs({
  accountId,
  scene,
  accounts,
  devices,
  data,
  dialogs,
}: {
  accountId: string;
  scene: Scene | null;
  accounts: readonly Account[];
  devices: DeviceIndex;
  data: GroupScenesData;
  dialogs: SceneDialogState;
}) {
  const { dialog, close } = dialogs;
  switch (dialog?.kind) {
    case 'addScene':
      return <SceneNameDialog title="New scene" submitLabel="Create scene" onClose={close} onSubmit={data.addScene} />;
    case 'renameScene':
      return (
        <SceneNameDialog
          title="Rename scene"
          submitLabel="Rename"
          initialName={dialog.scene.name}
          onClose={close}
          onSubmit={(name) => data.renameScene(dialog.scene, name)}
        />
      );
    case 'deleteScene':
      return (
        <ConfirmDeleteDialog
          title="Delete scene?"
          confirmLabel="Delete scene"
          onClose={close}
          onConfirm={() => data.removeScene(dialog.scene)}
        >
          “{dialog.scene.name || 'Untitled'}” and its {dialog.scene.widgets.length}{' '}
          {dialog.scene.widgets.length === 1 ? 'widget' : 'widgets'} will be deleted for everyone who sees this group.
          This cannot be undone.
        </ConfirmDeleteDialog>
      );
    case 'pickWidget':
      return <WidgetPickerDialog onPick={dialogs.newWidget} onClose={close} />;
    case 'editWidget':
      return (
        scene && (
          <WidgetEditorDialog
            definition={dialog.definition}
            initialDraft={dialog.draft}
            accounts={accounts}
            accountId={accountId}
            devices={devices}
            onClose={close}
            onSave={(draft) => data.saveWidget(scene, draft)}
          />
        )
      );
    case 'deleteWidget':
      return (
        scene && (
          <ConfirmDeleteDialog
            title="Delete widget?"
            confirmLabel="Delete widget"
            onClose={close}
            onConfirm={() => data.removeWidget(scene, dialog.widget)}
          >
            “{dialog.widget.name || WIDGET_DEFINITIONS[dialog.widget.type]?.label || 'Widget'}” will be removed from
            this scene. This cannot be undone.
          </ConfirmDeleteDialog>
        )
      );
    default:
      return null;
  }
}

export function SceneSkeleton() {
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
