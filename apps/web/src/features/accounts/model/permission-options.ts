import {
  EXTRA_FLAGS,
  PERMISSIONS,
  PERMISSION_PARENTS,
  TOP_LEVEL_PERMISSIONS,
  holdsFlag,
  holdsPermission,
  READABLE_NAMES,
  type ExtraFlag,
  type Permission,
  type PermissionSubject,
} from '@fieldlink/domain/permissions';

/** What an invitation or a user edit grants. */
export interface Grant {
  permissions: Permission[];
  secretPermissions: ExtraFlag[];
  /** The user sees every value and chart but operates nothing (issue 35). */
  monitorOnly: boolean;
}

/**
 * What a new invitation starts from: nothing granted; monitor-only when the granter is, since a
 * monitor-only user can make only monitor-only users.
 */
export function emptyGrant(granter: PermissionSubject): Grant {
  return { permissions: [], secretPermissions: [], monitorOnly: granter.monitorOnly === true };
}

/** A permission in the editor, with its sub-permissions beneath it. */
export interface PermissionOption {
  name: Permission;
  label: string;
  children: PermissionOption[];
}

/** The label shown for a permission or flag: as people read it (the domain's one list). */
export function optionLabel(name: Permission | ExtraFlag): string {
  return READABLE_NAMES[name];
}

const childrenOf = (parent: Permission): PermissionOption[] =>
  PERMISSIONS.filter((name) => PERMISSION_PARENTS[name] === parent).map((name) => ({
    name,
    label: optionLabel(name),
    children: childrenOf(name),
  }));

/** The specification's top-level list (§6), each sub-permission under its parent. */
export const PERMISSION_TREE: readonly PermissionOption[] = TOP_LEVEL_PERMISSIONS.map((name) => ({
  name,
  label: optionLabel(name),
  children: childrenOf(name),
}));

const inTree = new Set<Permission>(
  PERMISSION_TREE.flatMap((option) => [option.name, ...option.children.map((c) => c.name)]),
);

/** Permissions outside the top-level list and its children (ADMIN first). */
export const OTHER_PERMISSIONS: readonly Permission[] = PERMISSIONS.filter((name) => !inTree.has(name));

/** Extra flags offered in the editor; ADMIN is offered once, as a permission. */
export const FLAG_OPTIONS: readonly ExtraFlag[] = EXTRA_FLAGS.filter((flag) => flag !== 'ADMIN');

/** True when the granter may give this permission or flag: it holds it (§7 invite). */
export function canOffer(granter: PermissionSubject, name: Permission | ExtraFlag): boolean {
  return (PERMISSIONS as readonly string[]).includes(name)
    ? holdsPermission(granter, name as Permission)
    : holdsFlag(granter, name as ExtraFlag);
}

/**
 * The grant after ticking or unticking a permission: a sub-permission brings its parent along, and
 * a parent taken away takes its sub-permissions with it, so the grant never holds one that cannot
 * take effect.
 */
export function togglePermission(grant: Grant, name: Permission, on: boolean): Grant {
  const permissions = new Set(grant.permissions);
  if (on) {
    for (let current: Permission | undefined = name; current; current = PERMISSION_PARENTS[current]) {
      permissions.add(current);
    }
  } else {
    const remove = (target: Permission) => {
      permissions.delete(target);
      PERMISSIONS.filter((child) => PERMISSION_PARENTS[child] === target).forEach(remove);
    };
    remove(name);
  }
  return { ...grant, permissions: PERMISSIONS.filter((permission) => permissions.has(permission)) };
}

export function toggleFlag(grant: Grant, flag: ExtraFlag, on: boolean): Grant {
  const flags = new Set(grant.secretPermissions);
  if (on) flags.add(flag);
  else flags.delete(flag);
  return { ...grant, secretPermissions: EXTRA_FLAGS.filter((name) => flags.has(name)) };
}
