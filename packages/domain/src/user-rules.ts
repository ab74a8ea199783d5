import { normaliseEmail } from './email';
import { isKnownTimeZone } from './time-zone';
import {
  PERMISSION_PARENTS,
  can,
  canGrant,
  readablePermission,
  type ExtraFlag,
  type Permission,
  type PermissionGrant,
  type PermissionSubject,
} from './permissions';

/**
 * Who may invite and edit whom (specification core §6, §7 user calls). The specification gives the
 * permissions; where it is silent these rules decide, so that no user can raise anyone, itself
 * included, above its own permissions.
 */

/** How long a mailed invitation can be used. */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** The user properties one may change with `PUT /user`. */
export interface UserPropsChange {
  firstName?: string;
  lastName?: string;
  theme?: string | null;
  mutedDevices?: readonly string[];
  timeZone?: string | null;
  hourCycle?: string | null;
  dateOrder?: string | null;
  permissions?: readonly Permission[];
  secretPermissions?: readonly ExtraFlag[];
  monitorOnly?: boolean;
}

/** Properties that belong to a person's own console: only they change them. */
export const PERSONAL_PROPS = ['theme', 'mutedDevices', 'timeZone', 'hourCycle', 'dateOrder'] as const;

/** A refusal: the status the server answers and the message the client shows. */
export interface Refusal {
  status: 400 | 403;
  message: string;
}

/** Sub-permissions granted without their parent, which would never take effect (§6). */
export function permissionsMissingParent(permissions: readonly Permission[]): Permission[] {
  return permissions.filter((name) => {
    const parent = PERMISSION_PARENTS[name];
    return parent !== undefined && !permissions.includes(parent) && !permissions.includes('ADMIN');
  });
}

function grantProblem(granter: PermissionSubject, grant: PermissionGrant): Refusal | null {
  const orphans = permissionsMissingParent(grant.permissions ?? []);
  if (orphans.length > 0) {
    const [first] = orphans;
    return {
      status: 400,
      message: `${readablePermission(first!)} needs ${readablePermission(PERMISSION_PARENTS[first!]!)}.`,
    };
  }
  if (!canGrant(granter, grant)) return { status: 403, message: 'You can grant only permissions you hold yourself.' };
  return null;
}

/** Why the inviter cannot invite someone with these permissions, or null when it can. */
export function inviteRefusal(inviter: PermissionSubject, grant: PermissionGrant): Refusal | null {
  if (!can(inviter, 'inviteUsers')) return { status: 403, message: 'You do not have permission to invite users.' };
  return grantProblem(inviter, grant);
}

/**
 * Why the editor cannot make this change to the target user, or null when it can.
 * - Theme and muted devices are personal: a user changes only its own (any user may mute, §6).
 * - Nobody changes its own permissions or monitor-only mark (an administrator could lock the account out).
 * - Another user's name or permissions need EDIT_DELETE_USERS, and the editor must hold every
 *   permission the target holds now and every one it is given: nobody edits a user above itself.
 */
export function userEditRefusal(
  editor: PermissionSubject,
  target: PermissionGrant,
  isSelf: boolean,
  change: UserPropsChange,
): Refusal | null {
  const changesPermissions =
    change.permissions !== undefined || change.secretPermissions !== undefined || change.monitorOnly !== undefined;
  if (change.timeZone && !isKnownTimeZone(change.timeZone)) {
    return { status: 400, message: `Unknown time zone: ${change.timeZone}.` };
  }
  if (isSelf) {
    return changesPermissions ? { status: 403, message: 'You cannot change your own permissions.' } : null;
  }
  if (PERSONAL_PROPS.some((prop) => change[prop] !== undefined)) {
    return { status: 403, message: 'Only the user can change their own theme, clock and muted devices.' };
  }
  if (!can(editor, 'editUsers')) return { status: 403, message: 'You do not have permission to edit users.' };
  if (!canGrant(editor, target)) {
    return { status: 403, message: 'You cannot edit a user who holds permissions you do not hold.' };
  }
  if (!changesPermissions) return null;
  return grantProblem(editor, {
    permissions: change.permissions ?? target.permissions,
    secretPermissions: change.secretPermissions ?? target.secretPermissions,
    monitorOnly: change.monitorOnly ?? target.monitorOnly,
  });
}

/**
 * Why the mover cannot move this user to another group, or null when it can. Moving needs group edit
 * (§6 tree menu); moving changes what the user sees, so, as with editing, nobody moves a user holding
 * permissions the mover lacks, and nobody moves itself (it could lose its own way back).
 */
export function userMoveRefusal(mover: PermissionSubject, target: PermissionGrant, isSelf: boolean): Refusal | null {
  if (!can(mover, 'editGroups')) return { status: 403, message: 'You do not have permission to move users.' };
  if (isSelf) return { status: 403, message: 'You cannot move yourself.' };
  if (!canGrant(mover, target)) {
    return { status: 403, message: 'You cannot move a user who holds permissions you do not hold.' };
  }
  return null;
}

/**
 * User update ids (§4 "stale user updates are ignored when the update id differs from the latest"):
 * `{series}:{sequence}`, where a browser tab picks a random series once and counts its updates. The
 * series keeps the order without trusting clocks: two tabs or two devices are two series.
 */
export const USER_UPDATE_ID_PATTERN = '^[A-Za-z0-9_-]{1,40}:[0-9]{1,15}$';

/** Takes an update id apart, or null when it is not one. */
export function parseUserUpdateId(updateId: string): { series: string; sequence: number } | null {
  if (!new RegExp(USER_UPDATE_ID_PATTERN).test(updateId)) return null;
  const [series = '', sequence = ''] = updateId.split(':');
  return { series, sequence: Number(sequence) };
}

/** The update id of the `sequence`-th update of a series. */
export function userUpdateId(series: string, sequence: number): string {
  return `${series}:${sequence}`;
}

/**
 * Server side: true when an incoming update is stale and must not be applied, because the stored
 * latest update is of the same series and not older (requests overtaking each other on the way).
 */
export function isStaleUserUpdate(latestUpdateId: string | null, updateId: string | null | undefined): boolean {
  if (!latestUpdateId || !updateId) return false;
  const latest = parseUserUpdateId(latestUpdateId);
  const incoming = parseUserUpdateId(updateId);
  return (
    latest !== null && incoming !== null && latest.series === incoming.series && incoming.sequence <= latest.sequence
  );
}

/**
 * Client side: true when an answer is stale and must be ignored: its update id differs from the
 * latest update this client sent (§4).
 */
export function isStaleUserAnswer(latestSentUpdateId: string | null, answerUpdateId: string | null): boolean {
  return latestSentUpdateId !== null && answerUpdateId !== latestSentUpdateId;
}

/** A user's name and e-mail, as `GET /self` and a group's full users carry them. */
export interface NamedUser {
  email: string;
  firstName: string;
  lastName: string;
}

/**
 * The signed-in user merged by e-mail (trimmed, case-insensitive) with the matching record of the
 * root groups' full users (§3): the record's names fill those the user lacks; the user's own win.
 */
export function mergeSignedInUser<T extends NamedUser>(user: T, rootFullUsers: readonly NamedUser[]): T {
  const email = normaliseEmail(user.email);
  const record = rootFullUsers.find((candidate) => normaliseEmail(candidate.email) === email);
  if (!record) return user;
  return {
    ...user,
    firstName: user.firstName.trim() || record.firstName,
    lastName: user.lastName.trim() || record.lastName,
  };
}
