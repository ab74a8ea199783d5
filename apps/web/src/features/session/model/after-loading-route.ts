import type { Account } from '@fieldlink/api/account';
import type { SelfAnswer } from '@fieldlink/api/session';
import {
  can,
  heldFlags,
  heldPermissions,
  isAdmin,
  landingAfterDeviceRead,
  type PermissionSubject,
} from '@fieldlink/domain/permissions';
import { listDevices } from '../../../lib/account-tree';
import { permissionSubject } from '../../../lib/session/permission-subject';

export const DASH_ACCESS_DENY_PATH = '/dashAccessDeny';
export const ACCOUNTS_TREE_PATH = '/accounts/treeview';

export interface SessionSummary {
  permissions: string[];
  /** Extra flags held (MOSNIX_BROADCAST_SPRAY, OTA_UPDATE …): some capabilities are granted by one. */
  flags: string[];
  canViewDash: boolean;
  isAdmin: boolean;
}

export function summariseSession(subject: PermissionSubject): SessionSummary {
  return {
    permissions: heldPermissions(subject),
    flags: heldFlags(subject),
    canViewDash: can(subject, 'viewDashboard'),
    isAdmin: isAdmin(subject),
  };
}

/**
 * Where /loading sends the user once the account is read: /dashAccessDeny without dashboard access;
 * else the remembered path; else the first device's dash with VIEW_DASH, the account tree with only
 * VIEW_ACCOUNTS (§2, §4).
 */
export function routeAfterLoading(
  self: SelfAnswer,
  accounts: readonly Account[],
  rememberedPath: string | null,
): string {
  const subject = permissionSubject(self, accounts);
  if (!can(subject, 'accessDashboard')) return DASH_ACCESS_DENY_PATH;
  if (rememberedPath) return rememberedPath;
  if (landingAfterDeviceRead(subject) === 'dash') {
    const first = listDevices(accounts)[0];
    return first ? `/dash/${encodeURIComponent(first.device.thingName)}` : '/dash';
  }
  return ACCOUNTS_TREE_PATH;
}
