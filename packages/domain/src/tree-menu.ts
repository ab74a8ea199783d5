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
export type TreeMenuEntry = 'Move' | 'Delete' | 'Add Subgroup' | 'Invite User' | 'Add Device' | 'Import Devices';

const MOVE = { entry: 'Move', needs: 'editGroups' } as const;
const DELETE = { entry: 'Delete', needs: 'editGroups' } as const;
const ADD_SUBGROUP = { entry: 'Add Subgroup', needs: 'editGroups' } as const;
const INVITE_USER = { entry: 'Invite User', needs: 'inviteUsers' } as const;
// Ours (issue 35): the specification's menus add no devices, yet ADD_DEVICES needs a place to do it.
const ADD_DEVICE = { entry: 'Add Device', needs: 'addDevices' } as const;
const IMPORT_DEVICES = { entry: 'Import Devices', needs: 'addDevices' } as const;

/**
 * The menu of each item kind, in the order shown: the specification's entries, then adding devices
 * (also on the New Devices group, where a device without a group lands). The trash, scenes and
 * channels have none.
 */
export const TREE_MENU: Readonly<
  Record<TreeItemKind, readonly { readonly entry: TreeMenuEntry; readonly needs: Capability }[]>
> = {
  rootGroup: [ADD_SUBGROUP, INVITE_USER, ADD_DEVICE, IMPORT_DEVICES],
  group: [MOVE, DELETE, ADD_SUBGROUP, INVITE_USER, ADD_DEVICE, IMPORT_DEVICES],
  newDevicesGroup: [ADD_DEVICE, IMPORT_DEVICES],
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
