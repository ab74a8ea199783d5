import { isAccountsVariant } from './user-variant';

/** Permissions of specification §6, in the order the specification lists them. */
export const PERMISSIONS = [
  'ADMIN',
  'ALARM',
  'VIEW_DASH',
  'ADD_EDIT_DELETE_SCENES',
  'ADD_EDIT_DELETE_WIDGETS',
  'VIEW_ACCOUNTS',
  'ADD_EDIT_DELETE_GROUPS',
  'INVITE_USERS',
  'EDIT_DELETE_USERS',
  'ADD_DEVICES',
  'MOBILE_ONLY',
  'READ_REPORTS',
  'CUD_REPORTS',
  'READ_REPORT_SCHEDULES',
  'CUD_REPORT_SCHEDULES',
  'REPORTING',
  'REPORTING_PLUS',
  'END_BREW',
  'EDIT_BREW_INFO',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** Extra ("secret") flags of specification §6. */
export const EXTRA_FLAGS = [
  'ADMIN',
  'OTA_UPDATE',
  'ADV_DEVICE_INFO',
  'BREW_DELETE',
  'BREW_CALIB_CO2_TOTAL_GAIN',
  'MOSNIX_BROADCAST_SPRAY',
] as const;
export type ExtraFlag = (typeof EXTRA_FLAGS)[number];

/**
 * Every permission and extra flag as people read it: the specification's own labels (Alarm
 * Responder, Financial Loss), plain words for the rest. Refusals, hints and the permission editor
 * name permissions this way, never by their codes (issue 35).
 */
export const READABLE_NAMES: Readonly<Record<Permission | ExtraFlag, string>> = {
  ADMIN: 'Administrator',
  ALARM: 'Alarm Responder',
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
  REPORTING_PLUS: 'Financial Loss',
  END_BREW: 'End brews',
  EDIT_BREW_INFO: 'Edit brew information',
  OTA_UPDATE: 'Over-the-air updates',
  ADV_DEVICE_INFO: 'Advanced device information',
  BREW_DELETE: 'Delete brews',
  BREW_CALIB_CO2_TOTAL_GAIN: 'Calibrate CO₂ total gain',
  MOSNIX_BROADCAST_SPRAY: 'Broadcast spray',
};

/** A permission or extra flag as people read it, in quotes: “Add devices”. */
export function readablePermission(name: Permission | ExtraFlag): string {
  return `“${READABLE_NAMES[name]}”`;
}

/** Why a monitor-only user may not operate a device (the console's hints, the 403s and real-time replies). */
export const MONITOR_ONLY_REFUSAL = 'Your user is monitor-only: you can watch values and charts, not operate devices.';

/** Permissions shown at the top of the permission tree (§6). */
export const TOP_LEVEL_PERMISSIONS = ['VIEW_DASH', 'VIEW_ACCOUNTS', 'READ_REPORTS', 'ALARM', 'REPORTING'] as const;

/** Each sub-permission and the parent it needs: without the parent, it is not held. */
export const PERMISSION_PARENTS: Readonly<Partial<Record<Permission, Permission>>> = {
  ADD_EDIT_DELETE_SCENES: 'VIEW_DASH',
  ADD_EDIT_DELETE_WIDGETS: 'VIEW_DASH',
  ADD_EDIT_DELETE_GROUPS: 'VIEW_ACCOUNTS',
  INVITE_USERS: 'VIEW_ACCOUNTS',
  EDIT_DELETE_USERS: 'VIEW_ACCOUNTS',
  CUD_REPORTS: 'READ_REPORTS',
  READ_REPORT_SCHEDULES: 'READ_REPORTS',
  CUD_REPORT_SCHEDULES: 'READ_REPORTS',
  REPORTING_PLUS: 'REPORTING',
};

/**
 * Who is asking: the permissions and extra flags of the user's first attachment point (see
 * {@link effectivePermissions}) and the user variant of the account.
 */
export interface PermissionSubject {
  permissions: readonly Permission[];
  secretPermissions?: readonly ExtraFlag[];
  userVariant?: string | null;
  /**
   * A monitor-only user sees every value and chart but operates nothing (issue 35): kept with the
   * user beside the specification's permissions, which do not name who operates outputs. It binds
   * administrators too.
   */
  monitorOnly?: boolean;
  /**
   * Set when the caller is a personal API token rather than a signed-in session (issue 38 item 3).
   * A token holds at most its owner's rights: a `readOnly` one only the {@link READING_CAPABILITIES},
   * and no token manages tokens or sessions ({@link CAPABILITY_RULES}.manageOwnCredentials).
   */
  apiToken?: 'readOnly' | 'readWrite';
}

/** Why a read-only API token is refused a call that changes something. */
export const READ_ONLY_TOKEN_REFUSAL = 'This API token is read-only: it can read, but not change anything.';

/** Why an API token is refused managing API tokens and sessions. */
export const TOKEN_MANAGEMENT_REFUSAL = 'API tokens cannot manage API tokens or sessions. Sign in to the console.';

/** True when the subject is an administrator: ADMIN as a permission or as an extra flag. */
export function isAdmin(subject: PermissionSubject): boolean {
  return subject.permissions.includes('ADMIN') || (subject.secretPermissions ?? []).includes('ADMIN');
}

/** True when the subject holds the permission: ADMIN holds all; a sub-permission also needs its parent. */
export function holdsPermission(subject: PermissionSubject, permission: Permission): boolean {
  if (isAdmin(subject)) return true;
  if (!subject.permissions.includes(permission)) return false;
  const parent = PERMISSION_PARENTS[permission];
  return parent === undefined || holdsPermission(subject, parent);
}

/** True when the subject holds the extra flag: through its secret permissions, or as ADMIN. */
export function holdsFlag(subject: PermissionSubject, flag: ExtraFlag): boolean {
  return isAdmin(subject) || (subject.secretPermissions ?? []).includes(flag);
}

/** Every permission the subject effectively holds, in the specification's order. */
export function heldPermissions(subject: PermissionSubject): Permission[] {
  return PERMISSIONS.filter((permission) => holdsPermission(subject, permission));
}

/** Every extra flag the subject effectively holds. */
export function heldFlags(subject: PermissionSubject): ExtraFlag[] {
  return EXTRA_FLAGS.filter((flag) => holdsFlag(subject, flag));
}

type CapabilityRule = (subject: PermissionSubject) => boolean;

const permission =
  (name: Permission): CapabilityRule =>
  (subject) =>
    holdsPermission(subject, name);
const flag =
  (name: ExtraFlag): CapabilityRule =>
  (subject) =>
    holdsFlag(subject, name);
/** A rule that operates a device: never granted to a monitor-only user. */
const operating =
  (rule: CapabilityRule): CapabilityRule =>
  (subject) =>
    subject.monitorOnly !== true && rule(subject);

/**
 * Every capability of the console and the rule that grants it: the one table of §6. Sub-permissions
 * need their parent through {@link holdsPermission}; ADMIN passes every rule.
 */
export const CAPABILITY_RULES = {
  /** Sign-in is refused (to /dashAccessDeny) without it. Variant "2" accepts only VIEW_ACCOUNTS. */
  accessDashboard: (subject) =>
    isAccountsVariant(subject.userVariant)
      ? holdsPermission(subject, 'VIEW_ACCOUNTS')
      : holdsPermission(subject, 'VIEW_DASH') || holdsPermission(subject, 'VIEW_ACCOUNTS'),
  /** Dashboards and live device values; without it no device subscriptions are made. */
  viewDashboard: permission('VIEW_DASH'),
  /**
   * Operate a device's outputs: switch relays and flags, set setpoints, flash its LED; the plant's
   * run and resets, spray starts and brew setpoints are such writes. Not stated by the
   * specification: the dashboard is the operator's console, so whoever sees it may use its controls
   * (docs/decisions.md, Hardening), unless the user is monitor-only (issue 35). Settings the device
   * keeps (registers, time zone) are `configureDevices`.
   */
  operateOutputs: operating(permission('VIEW_DASH')),
  editScenes: permission('ADD_EDIT_DELETE_SCENES'),
  editWidgets: permission('ADD_EDIT_DELETE_WIDGETS'),
  viewAccounts: permission('VIEW_ACCOUNTS'),
  /** Add, rename, move and delete groups; move devices and users between groups. */
  editGroups: permission('ADD_EDIT_DELETE_GROUPS'),
  inviteUsers: permission('INVITE_USERS'),
  editUsers: permission('EDIT_DELETE_USERS'),
  /** Provision a device (`POST /device`). */
  addDevices: permission('ADD_DEVICES'),
  respondToAlarms: permission('ALARM'),
  readReports: permission('READ_REPORTS'),
  editReports: permission('CUD_REPORTS'),
  readReportSchedules: permission('READ_REPORT_SCHEDULES'),
  editReportSchedules: permission('CUD_REPORT_SCHEDULES'),
  reporting: permission('REPORTING'),
  /** Financial Loss: the retail inefficiency chart and inefficiency figures (§6). */
  reportingPlus: permission('REPORTING_PLUS'),
  endBrew: permission('END_BREW'),
  editBrewInfo: permission('EDIT_BREW_INFO'),
  submitOta: flag('OTA_UPDATE'),
  viewAdvancedDeviceInfo: flag('ADV_DEVICE_INFO'),
  deleteBrew: flag('BREW_DELETE'),
  calibrateCo2TotalGain: operating(flag('BREW_CALIB_CO2_TOTAL_GAIN')),
  /** A tank's level calibration (its height and capacity): brew information, but it operates the tank. */
  calibrateTankLevel: operating(permission('EDIT_BREW_INFO')),
  broadcastSpray: operating(flag('MOSNIX_BROADCAST_SPRAY')),
  /** The Device Plan row and plan changes. */
  viewDevicePlan: isAdmin,
  /** The list of devices with a pending over-the-air update, and approving them. */
  viewPendingOta: isAdmin,
  /**
   * Read an account's audit trail and verify its hash chain (issue 38). Not in the specification:
   * administrators only, since the trail names every user, address and value changed in the account
   * (docs/decisions.md, issue 38 item 1). Scope still limits it to the accounts under the caller.
   */
  readAuditLog: isAdmin,
  /**
   * Add, read, change, test and delete an account's webhooks (issue 39 item 3). Administrators only:
   * a webhook sends the account's alarms and device events to an address outside Fieldlink.
   */
  manageWebhooks: isAdmin,
  /**
   * Require a second factor of every user of an account and its customers (issue 38 item 2).
   * Administrators only, and only from a signed-in session: an integration's token must not be able
   * to lower how its owner's people sign in.
   */
  requireSecondFactor: (subject) => isAdmin(subject) && subject.apiToken === undefined,
  /**
   * Edit an account's on-call rota (issue 39 item 5): who is woken out of hours and whom an unanswered
   * alarm moves on to. Administrators only, as it decides who is disturbed at night.
   */
  manageOnCallRota: isAdmin,
  /** Choose which alarms reach oneself on which channel, and one's quiet hours (issue 39 item 5). */
  chooseOwnNotifications: () => true,
  /** Any user may mute or unmute disconnection alerts of their own devices. */
  muteOwnDevices: () => true,
  /**
   * Rename a device, set its site, location and settings, edit its tags (the device panel's edit
   * mode). Not stated by the specification: given to those who may add devices or edit groups.
   */
  configureDevices: (subject) =>
    holdsPermission(subject, 'ADD_DEVICES') || holdsPermission(subject, 'ADD_EDIT_DELETE_GROUPS'),
  /**
   * Set a channel's alarm thresholds (`PUT /device/alarm`). Not stated by the specification: those
   * who configure devices, and Alarm Responders, who know what is worth waking someone for.
   */
  configureAlarms: (subject) =>
    holdsPermission(subject, 'ALARM') ||
    holdsPermission(subject, 'ADD_DEVICES') ||
    holdsPermission(subject, 'ADD_EDIT_DELETE_GROUPS'),
  /**
   * Load a store's stock: its status, chart logs and picklist (application §6: "inventory users with
   * a store-level permission load logs and overview; others load only the overview"). The
   * specification names no such permission: these are device readings, so those who may view
   * devices (VIEW_DASH or VIEW_ACCOUNTS) hold it; everyone else in scope sees only the overview.
   */
  loadStoreStock: (subject) => holdsPermission(subject, 'VIEW_DASH') || holdsPermission(subject, 'VIEW_ACCOUNTS'),
  /**
   * Send a command to a device, even one that only reads a channel or register: it is queued and the
   * device acts on it. Everyone holds it but read-only API tokens (issue 38 item 3).
   */
  sendDeviceCommands: () => true,
  /**
   * Make, list and revoke one's own API tokens, list and end one's own sessions (issue 38 items 3
   * and 4). Only a signed-in session may: a token cannot mint tokens or sign its owner out.
   */
  manageOwnCredentials: (subject) => subject.apiToken === undefined,
} satisfies Record<string, CapabilityRule>;

/** A capability of the console. */
export type Capability = keyof typeof CAPABILITY_RULES;

/**
 * The capabilities that change nothing: all a read-only API token may hold. Any other, including
 * every new one until it is added here, is refused to such a token.
 */
export const READING_CAPABILITIES: ReadonlySet<Capability> = new Set<Capability>([
  'accessDashboard',
  'viewDashboard',
  'viewAccounts',
  'readReports',
  'readReportSchedules',
  'reporting',
  'reportingPlus',
  'viewAdvancedDeviceInfo',
  'readAuditLog',
  'loadStoreStock',
]);

/** True when the subject has the capability: its rule grants it, and a read-only token only reads. */
export function can(subject: PermissionSubject, capability: Capability): boolean {
  if (subject.apiToken === 'readOnly' && !READING_CAPABILITIES.has(capability)) return false;
  return CAPABILITY_RULES[capability](subject);
}

/** True when the subject lacks the capability only because it is a read-only API token. */
export function refusedAsReadOnlyToken(subject: PermissionSubject, capability: Capability): boolean {
  return (
    subject.apiToken === 'readOnly' &&
    !can(subject, capability) &&
    can({ ...subject, apiToken: 'readWrite' }, capability)
  );
}

/**
 * True when the subject lacks the capability only because it is monitor-only: the console shows such
 * a control disabled with {@link MONITOR_ONLY_REFUSAL} (where a missing permission hides it), and the
 * server answers with that reason.
 */
export function refusedAsMonitorOnly(subject: PermissionSubject, capability: Capability): boolean {
  return (
    subject.monitorOnly === true && !can(subject, capability) && can({ ...subject, monitorOnly: false }, capability)
  );
}

/** An attachment point as far as permissions go. */
export interface PermissionSource {
  permissions: readonly Permission[];
  secretPermissions?: readonly ExtraFlag[];
}

/**
 * The permissions of a user: those of the first attachment point of its linked accounts, in order
 * (§6). Linked accounts without attachment points are passed over; without any, nothing is held.
 */
export function effectivePermissions(linkedAccounts: readonly { attachmentPoints: readonly PermissionSource[] }[]): {
  permissions: Permission[];
  secretPermissions: ExtraFlag[];
} {
  const first = linkedAccounts.find((account) => account.attachmentPoints.length > 0)?.attachmentPoints[0];
  return { permissions: [...(first?.permissions ?? [])], secretPermissions: [...(first?.secretPermissions ?? [])] };
}

/** What the user is granting another (on invite or user edit). */
export interface PermissionGrant {
  permissions?: readonly Permission[];
  secretPermissions?: readonly ExtraFlag[];
  /** Whether the user is monitor-only (absent: not). */
  monitorOnly?: boolean;
}

/**
 * True when the granter holds everything it grants: a user may grant only permissions it holds, and
 * a monitor-only user may make only monitor-only users (operating is a right it does not hold).
 */
export function canGrant(granter: PermissionSubject, grant: PermissionGrant): boolean {
  return (
    (grant.permissions ?? []).every((name) => holdsPermission(granter, name)) &&
    (grant.secretPermissions ?? []).every((name) => holdsFlag(granter, name)) &&
    (granter.monitorOnly !== true || grant.monitorOnly === true)
  );
}

/**
 * Where a user lands after a device is read (§4): the device dash with VIEW_DASH, else the account
 * tree with VIEW_ACCOUNTS, else nowhere (null).
 */
export function landingAfterDeviceRead(subject: PermissionSubject): 'dash' | 'accounts' | null {
  if (holdsPermission(subject, 'VIEW_DASH')) return 'dash';
  if (holdsPermission(subject, 'VIEW_ACCOUNTS')) return 'accounts';
  return null;
}
