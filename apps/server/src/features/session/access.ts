import { deviceActionRefusal, type DeviceAction } from '@fieldlink/domain/device-actions';
import {
  MONITOR_ONLY_REFUSAL,
  READ_ONLY_TOKEN_REFUSAL,
  TOKEN_MANAGEMENT_REFUSAL,
  can,
  effectivePermissions,
  refusedAsMonitorOnly,
  refusedAsReadOnlyToken,
  type Capability,
  type PermissionSubject,
} from '@fieldlink/domain/permissions';
import { isUnderPath } from '@fieldlink/domain/group-path';
import { forbidden } from '../../http-errors';
import type { UserContext } from './user-context';

/** The caller as the domain's permission table sees it: the first attachment point (§6). */
export function permissionSubject(user: UserContext): PermissionSubject {
  return {
    ...effectivePermissions([{ attachmentPoints: user.attachmentPoints }]),
    userVariant: user.userVariant,
    monitorOnly: user.monitorOnly,
    ...(user.apiToken && { apiToken: user.apiToken.readOnly ? ('readOnly' as const) : ('readWrite' as const) }),
  };
}

/** True when the caller has the capability. */
export function userCan(user: UserContext, capability: Capability): boolean {
  return can(permissionSubject(user), capability);
}

/**
 * Throws 403 unless the caller has the capability; a monitor-only user, or a read-only API token,
 * that would otherwise have it is told that this is why, and so is a token managing credentials.
 */
export function requireCapability(user: UserContext, capability: Capability): void {
  const subject = permissionSubject(user);
  if (can(subject, capability)) return;
  if (refusedAsReadOnlyToken(subject, capability)) throw forbidden(READ_ONLY_TOKEN_REFUSAL);
  if (capability === 'manageOwnCredentials') throw forbidden(TOKEN_MANAGEMENT_REFUSAL);
  throw forbidden(refusedAsMonitorOnly(subject, capability) ? MONITOR_ONLY_REFUSAL : undefined);
}

/**
 * Throws 403 unless the caller may take this action on a device (the domain's one table, shared by
 * the REST calls and the real-time channel). Scope is checked before, by finding the device.
 */
export function requireDeviceAction(user: UserContext, action: DeviceAction): void {
  const refusal = deviceActionRefusal(permissionSubject(user), action);
  if (refusal !== null) throw forbidden(refusal);
}

/** True when a group path lies under one of the caller's attachment points. */
export function inScope(user: UserContext, groupPath: string): boolean {
  return user.attachmentPoints.some((point) => isUnderPath(groupPath, point.path));
}
