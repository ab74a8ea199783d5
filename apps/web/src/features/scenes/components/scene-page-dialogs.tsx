import type { Account } from '@fieldlink/api/account';
import type { Scene, Widget } from '@fieldlink/api/scenes';
import type { DeviceIndex } from '../model/resolve-channels';
import { WIDGET_DEFINITIONS } from '../widgets/registry';
import type { WidgetDefinition, WidgetDraft } from '../widgets/widget-definition';
import type { WidgetType } from '@fieldlink/domain/widgets';
import { ConfirmDeleteDialog, SceneNameDialog } from './scene-dialogs';
import { WidgetEditorDialog } from './widget-editor-dialog';
import { WidgetPickerDialog } from './widget-picker-dialog';

/** The scene page's one open dialog, and what it is about. */
export type ScenePageDialog =
  | { kind: 'addScene' }
  | { kind: 'renameScene'; scene: Scene }
  | { kind: 'deleteScene'; scene: Scene }
  | { kind: 'pickWidget' }
  | { kind: 'editWidget'; definition: WidgetDefinition; draft: WidgetDraft }
  | { kind: 'deleteWidget'; widget: Widget };

/** What each dialog does once the user has said yes: the page's changes, and where it goes next. */
export interface ScenePageDialogActions {
  addScene: (name: string) => Promise<unknown>;
  renameScene: (scene: Scene, name: string) => Promise<unknown>;
  deleteScene: (scene: Scene) => Promise<unknown>;
  pickWidget: (type: WidgetType) => void;
  saveWidget: (draft: WidgetDraft) => Promise<unknown>;
  deleteWidget: (widget: Widget) => Promise<unknown>;
}

/** The open dialog of the scene page, if any. Widget dialogs need the shown `scene`. */
export function ScenePageDialogs({
  dialog,
  scene,
  accounts,
  accountId,
  devices,
  actions,
  onClose,
}: {
  dialog: ScenePageDialog | null;
  scene: Scene | null;
  accounts: readonly Account[];
  accountId: string;
  devices: DeviceIndex;
  actions: ScenePageDialogActions;
  onClose: () => void;
}) {
  switch (dialog?.kind) {
    case 'addScene':
      return (
        <SceneNameDialog title="New scene" submitLabel="Create scene" onClose={onClose} onSubmit={actions.addScene} />
      );
    case 'renameScene':
      return (
        <SceneNameDialog
          title="Rename scene"
          submitLabel="Rename"
          initialName={dialog.scene.name}
          onClose={onClose}
          onSubmit={(name) => actions.renameScene(dialog.scene, name)}
        />
      );
    case 'deleteScene': {
      const widgets = dialog.scene.widgets.length;
      return (
        <ConfirmDeleteDialog
          title="Delete scene?"
          confirmLabel="Delete scene"
          onClose={onClose}
          onConfirm={() => actions.deleteScene(dialog.scene)}
        >
          “{dialog.scene.name || 'Untitled'}” and its {widgets} {widgets === 1 ? 'widget' : 'widgets'} will be deleted
          for everyone who sees this group. This cannot be undone.
        </ConfirmDeleteDialog>
      );
    }
    case 'pickWidget':
      return <WidgetPickerDialog onPick={actions.pickWidget} onClose={onClose} />;
    case 'editWidget':
      return scene ? (
        <WidgetEditorDialog
          definition={dialog.definition}
          initialDraft={dialog.draft}
          accounts={accounts}
          accountId={accountId}
          devices={devices}
          onClose={onClose}
          onSave={actions.saveWidget}
        />
      ) : null;
    case 'deleteWidget':
      return scene ? (
        <ConfirmDeleteDialog
          title="Delete widget?"
          confirmLabel="Delete widget"
          onClose={onClose}
          onConfirm={() => actions.deleteWidget(dialog.widget)}
        >
          “{dialog.widget.name || WIDGET_DEFINITIONS[dialog.widget.type]?.label || 'Widget'}” will be removed from this
          scene. This cannot be undone.
        </ConfirmDeleteDialog>
      ) : null;
    default:
      return null;
  }
}
