import type { LinkedAccount } from '@fieldlink/api/session';
import type { InvitedUser, User } from '@fieldlink/api/users';
import type { ClockPreferences } from '@fieldlink/domain/date-format';
import { effectivePermissions, type ExtraFlag, type Permission } from '@fieldlink/domain/permissions';
import type { AttachmentPointsTable, InvitationsTable, UsersTable } from '../../db/schema';

/** A stored attachment point as the API names it. */
export function toAttachmentPoint(
  row: Pick<AttachmentPointsTable, 'path' | 'permissions' | 'secret_permissions' | 'app_type'>,
) {
  return {
    path: row.path,
    permissions: JSON.parse(row.permissions) as Permission[],
    secretPermissions: JSON.parse(row.secret_permissions) as ExtraFlag[],
    appType: row.app_type,
  };
}

/** Attachment points grouped by account, in order. */
export function toLinkedAccounts(points: readonly AttachmentPointsTable[]): LinkedAccount[] {
  const byAccount = new Map<string, LinkedAccount>();
  for (const point of points) {
    const linked = byAccount.get(point.account_id) ?? { accountId: point.account_id, attachmentPoints: [] };
    linked.attachmentPoints.push(toAttachmentPoint(point));
    byAccount.set(point.account_id, linked);
  }
  return [...byAccount.values()];
}

/** The permissions of a user: its first attachment point's (§6). */
export function userPermissions(points: readonly AttachmentPointsTable[]) {
  return effectivePermissions([{ attachmentPoints: points.map(toAttachmentPoint) }]);
}

/**
 * The one mapping of a stored user to the API's User. `visiblePoints` are the attachment points the
 * caller may know of; `allPoints` give the effective permissions.
 */
export function toUser(
  row: UsersTable,
  allPoints: readonly AttachmentPointsTable[],
  visiblePoints: readonly AttachmentPointsTable[],
  isSelf: boolean,
): User {
  const { permissions, secretPermissions } = userPermissions(allPoints);
  return {
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    theme: row.theme,
    permissions,
    secretPermissions,
    monitorOnly: row.monitor_only === 1,
    // Muted devices and the update series are the user's own business.
    mutedDevices: isSelf ? (JSON.parse(row.muted_devices) as string[]) : [],
    latestUserUpdateId: isSelf ? row.latest_user_update_id : null,
    linkedAccounts: toLinkedAccounts(visiblePoints),
    isSelf,
    // The clock is the user's own business, as its muted devices.
    ...(isSelf ? clockOf(row) : { timeZone: null, hourCycle: null, dateOrder: null }),
  };
}

/** A stored user's clock choices as the API names them (null: not chosen). */
export function clockOf(row: Pick<UsersTable, 'time_zone' | 'hour_cycle' | 'date_order'>): ClockPreferences {
  return {
    timeZone: row.time_zone,
    hourCycle: row.hour_cycle === '12' || row.hour_cycle === '24' ? row.hour_cycle : null,
    dateOrder: row.date_order === 'dmy' || row.date_order === 'mdy' ? row.date_order : null,
  };
}

/** The one mapping of a stored invitation to the API's InvitedUser. */
export function toInvitedUser(row: InvitationsTable, groupId: string): InvitedUser {
  return {
    email: row.email,
    accountId: row.account_id,
    groupId,
    path: row.path,
    permissions: JSON.parse(row.permissions) as Permission[],
    secretPermissions: JSON.parse(row.secret_permissions) as ExtraFlag[],
    monitorOnly: row.monitor_only === 1,
    expiresAt: row.expires_at,
  };
}
