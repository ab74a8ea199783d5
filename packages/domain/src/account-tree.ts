import { holdsPermission, isAdmin, type PermissionSubject } from './permissions';
import { isUnderPath } from './group-path';
import type { TreeItemKind } from './tree-menu';

/**
 * The account tree (specification core §1, §3): an account's root group holds groups, devices,
 * users and scenes; every account also has a New Devices group (where new devices land) and a Trash
 * group. These are the tree's rules that do not depend on storage: the kind of each item, and what
 * may be added, renamed, moved and deleted.
 */

/** Kinds of group: an account's root, an ordinary group, the New Devices placeholder, the Trash. */
export const GROUP_KINDS = ['root', 'group', 'new', 'trash'] as const;
export type GroupKind = (typeof GROUP_KINDS)[number];

/** Entities a move can carry (§4: users, devices and groups). */
export const MOVABLE_NODE_TYPES = ['USER', 'DEVICE', 'GROUP'] as const;
export type MovableNodeType = (typeof MOVABLE_NODE_TYPES)[number];

/** Longest group name accepted. */
export const MAX_GROUP_NAME_LENGTH = 100;

/** The tree item kind of a group. */
export function groupItemKind(kind: GroupKind): TreeItemKind {
  const kinds: Record<GroupKind, TreeItemKind> = {
    root: 'rootGroup',
    group: 'group',
    new: 'newDevicesGroup',
    trash: 'trashGroup',
  };
  return kinds[kind];
}

/** The tree item kind of a device: connected or disconnected. */
export function deviceItemKind(isConnected: boolean): TreeItemKind {
  return isConnected ? 'deviceConnected' : 'deviceDisconnected';
}

/** The tree item kind of a user: an administrator, else an alarm responder, else a plain user. */
export function userItemKind(subject: PermissionSubject): 'adminUser' | 'alarmUser' | 'user' {
  if (isAdmin(subject)) return 'adminUser';
  if (holdsPermission(subject, 'ALARM')) return 'alarmUser';
  return 'user';
}

/** True for the placeholder groups every account has (New Devices, Trash). */
export function isPlaceholderGroup(kind: GroupKind): boolean {
  return kind === 'new' || kind === 'trash';
}

/** A group name as stored: trimmed, inner runs of white space made one space. */
export function normaliseGroupName(name: string): string {
  return name.trim().replace(/\s+/g, ' ');
}

/** Why a group name cannot be used, or null when it can. */
export function groupNameProblem(name: string): string | null {
  const normalised = normaliseGroupName(name);
  if (normalised === '') return 'Please enter a group name.';
  if (normalised.length > MAX_GROUP_NAME_LENGTH) return `A group name has at most ${MAX_GROUP_NAME_LENGTH} characters.`;
  return null;
}

/** Why a subgroup cannot be added under a group of this kind, or null when it can. */
export function addSubgroupRefusal(parentKind: GroupKind): string | null {
  return isPlaceholderGroup(parentKind) ? 'New Devices and Trash hold devices only, not groups.' : null;
}

/** Why a group of this kind cannot be renamed, or null when it can. */
export function renameGroupRefusal(kind: GroupKind): string | null {
  return isPlaceholderGroup(kind) ? 'The New Devices and Trash groups keep their names.' : null;
}

/**
 * Why a group cannot be deleted, or null when it can. Deleting moves the devices of the group and of
 * its subgroups into the account's Trash; users would lose (or, moved up, widen) their access, so a
 * group with users attached in it is not deleted until they are moved; nor is a group that holds
 * another account (a supplier's group of customer accounts).
 */
export function deleteGroupRefusal(kind: GroupKind, usersAttached: number, accountsInside = 0): string | null {
  if (kind === 'root') return 'An account’s root group cannot be deleted.';
  if (isPlaceholderGroup(kind)) return 'The New Devices and Trash groups cannot be deleted.';
  if (accountsInside > 0) return 'This group holds other accounts. Move them to another group first.';
  if (usersAttached > 0) {
    return `Move the ${usersAttached === 1 ? 'user' : `${usersAttached} users`} of this group to another group first.`;
  }
  return null;
}

/** What a move needs to know about the entity and its destination. */
export interface MoveFacts {
  type: MovableNodeType;
  /** Kind of the moved group (GROUP moves only). */
  movedGroupKind?: GroupKind;
  /** Path of the moved group (GROUP moves only). */
  movedGroupPath?: string;
  destinationKind: GroupKind;
  destinationPath: string;
  /** True when the destination belongs to the same account as the moved entity. */
  sameAccount: boolean;
}

/**
 * Why a move cannot happen, or null when it can (§4: users, devices and groups move between groups).
 * Devices may go anywhere, New Devices and Trash included; users and groups go only into a root or an
 * ordinary group; a group moves within its account, never under itself; the placeholder and root
 * groups stay where they are.
 */
export function moveRefusal(facts: MoveFacts): string | null {
  if (facts.type === 'DEVICE') return null;
  if (isPlaceholderGroup(facts.destinationKind)) return 'Only devices can be moved into New Devices or Trash.';
  if (facts.type === 'USER') return null;
  if (facts.movedGroupKind !== 'group') return 'Root, New Devices and Trash groups cannot be moved.';
  if (facts.movedGroupPath !== undefined && isUnderPath(facts.destinationPath, facts.movedGroupPath)) {
    return 'A group cannot be moved under itself.';
  }
  if (!facts.sameAccount) return 'A group can be moved only within its account.';
  return null;
}

/** The warning when a group without devices is chosen for a dashboard (§8). */
export const NO_DEVICE_IN_GROUP = 'No device found in the group.';

/** A group with its subgroups and devices, as far as counting devices goes. */
export interface DeviceHoldingGroup {
  kind: string;
  deviceIds: readonly string[];
  groups: readonly DeviceHoldingGroup[];
}

/** True when the group or a group under it (the trash left out) holds a device. */
export function groupHoldsDevices(group: DeviceHoldingGroup): boolean {
  if (group.kind === 'trash') return false;
  return group.deviceIds.length > 0 || group.groups.some(groupHoldsDevices);
}
