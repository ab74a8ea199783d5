import {
  EXTRA_FLAGS,
  PERMISSIONS,
  PERMISSION_PARENTS,
  TOP_LEVEL_PERMISSIONS,
  holdsFlag,
  holdsPermission,
  permissionLabel,
  type ExtraFlag,
  type Permission,
  type PermissionSubject,
} from '@fieldlink/domain/permissions';

/** What an invitation or a user edit grants. */
export interface Grant {
  permissions: Permission[];
  secretPermissions: ExtraFlag[];
}

export const EMPTY_GRANT: Grant = { permissions: [], secretPermissions: [] };

/** A permission in the editor, with its sub-permissions beneath it. */
export interface PermissionOption {
  name: Permission;
  label: string;
  children: PermissionOption[];
}

// Plain-language names for the editor; the specification's own labels (Alarm Responder, Financial
// Loss) come from the domain, and the code name is shown beside each.
const EDITOR_LABELS: Partial<Record<Permission | ExtraFlag, string>> = {
  ADMIN: 'Administrator',
  VIEW_DASH: 'View dashboards',
  ADD_EDIT_DELETE_SCENES: 'Add, edit and delete scenes',
  ADD_EDIT_DELETE_WIDGETS: 'Add, edit and delete widgets',
  VIEW_ACCOUNTS: 'View accounts',
  ADD_EDIT_DELETE_GROUPS: 'Add, edit and delete groups',
  INVITE_USERS: 'Invite users',
  EDIT_DELETE_USERS: 'Edit and delete users',
  ADD_DEVICES: 'Add devices',
  MOBILE_ONLY: 'Mobile only',
  READ_REPORTS: 'Read reports',
  CUD_REPORTS: 'Create, edit and delete reports',
  READ_REPORT_SCHEDULES: 'View report schedules',
  CUD_REPORT_SCHEDULES: 'Create, edit and delete report schedules',
  REPORTING: 'Reporting',
  END_BREW: 'End brews',
  EDIT_BREW_INFO: 'Edit brew information',
  OTA_UPDATE: 'Over-the-air updates',
  ADV_DEVICE_INFO: 'Advanced device information',
  BREW_DELETE: 'Delete brews',
  BREW_CALIB_CO2_TOTAL_GAIN: 'Calibrate CO₂ total gain',
  MOSNIX_BROADCAST_SPRAY: 'Broadcast spray',
};

/** The label shown for a permission or flag. */
export function optionLabel(name: Permission | ExtraFlag): string {
  const specified = (PERMISSIONS as readonly string[]).includes(name) ? permissionLabel(name as Permission) : name;
  return specified !== name ? specified : (EDITOR_LABELS[name] ?? name);
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
