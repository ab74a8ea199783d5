import { can, type Capability, type PermissionSubject } from './permissions';

/**
 * The account tree's context menu (specification core §6): which entries each kind of tree item
 * offers, and the capability each entry needs.
 */

/** Kinds of item in the account tree (§3). */
export const TREE_ITEM_KINDS = [
  'rootGroup',
  'group',
  'newDevicesGroup',
  'trashGroup',
  'device',
  'deviceConnected',
  'deviceDisconnected',
  'user',
  'adminUser',
  'alarmUser',
  'scene',
  'channel',
] as const;
export type TreeItemKind = (typeof TREE_ITEM_KINDS)[number];

/** Context-menu entries, worded as shown. */
export type TreeMenuEntry = 'Move' | 'Delete' | 'Add Subgroup' | 'Invite User';

const MOVE = { entry: 'Move', needs: 'editGroups' } as const;
const DELETE = { entry: 'Delete', needs: 'editGroups' } as const;
const ADD_SUBGROUP = { entry: 'Add Subgroup', needs: 'editGroups' } as const;
const INVITE_USER = { entry: 'Invite User', needs: 'inviteUsers' } as const;

/**
 * The menu of each item kind, in the order shown. The placeholder groups (new devices, trash), scenes
 * and channels have none: the specification lists no entries for them.
 */
export const TREE_MENU: Readonly<
  Record<TreeItemKind, readonly { readonly entry: TreeMenuEntry; readonly needs: Capability }[]>
> = {
  rootGroup: [ADD_SUBGROUP, INVITE_USER],
  group: [MOVE, DELETE, ADD_SUBGROUP, INVITE_USER],
  newDevicesGroup: [],
  trashGroup: [],
  device: [MOVE],
  deviceConnected: [MOVE],
  deviceDisconnected: [MOVE],
  user: [MOVE],
  adminUser: [MOVE],
  alarmUser: [MOVE],
  scene: [],
  channel: [],
};

/** The context-menu entries the subject may use on an item of this kind, in the order shown. */
export function treeMenuEntries(kind: TreeItemKind, subject: PermissionSubject): TreeMenuEntry[] {
  return TREE_MENU[kind].filter((item) => can(subject, item.needs)).map((item) => item.entry);
}
