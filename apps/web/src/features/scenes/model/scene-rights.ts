import type { Account, GroupNode } from '@fieldlink/api/account';
import type { Scene } from '@fieldlink/api/scenes';
import { can, type PermissionSubject } from '@fieldlink/domain/permissions';
import { isSceneReadOnly, sceneReadOnlyReason } from '@fieldlink/domain/widgets';

/** What the caller may do on a group's scene page, from the domain's permission and scene rules. */
export interface SceneRights {
  viewDashboard: boolean;
  /** A scene can be added (ADD_EDIT_DELETE_SCENES, account not read-only, not New Devices or Trash). */
  canAddScene: boolean;
  /** This scene can be renamed, locked, moved and deleted. */
  canEditScene: (scene: Scene) => boolean;
  /** The shown scene's widgets can be added, edited and deleted. */
  widgetsEditable: boolean;
  /** …and moved and resized (its layout is not locked). */
  arrangeable: boolean;
  /** Why the shown scene cannot be changed, in one line, or null. */
  readOnlyReason: string | null;
}

/**
 * The rights on a group's scenes. `tree` is the tree the group was found in: a supplier's tree names
 * each group's account kind, the group's own account's tree names it at the root.
 */
export function sceneRights(
  subject: PermissionSubject,
  tree: Account,
  group: GroupNode,
  scene: Scene | null,
): SceneRights {
  const editScenes = can(subject, 'editScenes');
  const editWidgets = can(subject, 'editWidgets');
  // §4: the account's scenes are read-only for everyone.
  const sceneAccount = {
    appType: group.appType,
    kind: group.accountKind ?? (tree.rootGroup.accountId === group.accountId ? tree.kind : ''),
  };
  const accountReadOnly = isSceneReadOnly(sceneAccount);
  const widgetsEditable = scene !== null && editWidgets && !scene.readOnly && !accountReadOnly;
  return {
    viewDashboard: can(subject, 'viewDashboard'),
    // New Devices and Trash hold devices only (the server refuses scenes there).
    canAddScene: editScenes && !accountReadOnly && group.kind !== 'new' && group.kind !== 'trash',
    canEditScene: (s) => editScenes && !s.readOnly && !accountReadOnly,
    widgetsEditable,
    arrangeable: widgetsEditable && scene !== null && !scene.isGridLocked,
    // Anyone who cannot change the scene is told why in one line, rather than finding buttons missing.
    readOnlyReason:
      scene === null
        ? null
        : sceneReadOnlyReason(sceneAccount, scene, { canEditScenes: editScenes, canEditWidgets: editWidgets }) || null,
  };
}
