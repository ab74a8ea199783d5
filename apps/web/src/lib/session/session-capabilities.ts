import { deviceActionRefusal, type DeviceAction } from '@fieldlink/domain/device-actions';
import {
  MONITOR_ONLY_REFUSAL,
  can,
  refusedAsMonitorOnly,
  type Capability,
  type ExtraFlag,
  type Permission,
  type PermissionSubject,
} from '@fieldlink/domain/permissions';
import type { SessionState } from '../app-store/app-store';

/** The signed-in user as the domain's permission rules see them: permissions, extra flags, monitor-only. */
const subjectOf = (session: SessionState): PermissionSubject => ({
  permissions: session.permissions as Permission[],
  secretPermissions: session.flags as ExtraFlag[],
  monitorOnly: session.monitorOnly,
});

/**
 * True when the session's user has this capability (§6 table; an administrator has every one):
 * those a permission grants (END_BREW, EDIT_BREW_INFO …) and those an extra flag grants (BREW_DELETE,
 * BREW_CALIB_CO2_TOTAL_GAIN, OTA_UPDATE …) alike.
 */
export function sessionCan(session: SessionState, capability: Capability): boolean {
  // An administrator holds every permission and flag (expanded in the session), and is bound by
  // monitor-only like anyone: the domain's rules decide both.
  return can(subjectOf(session), capability);
}

/** Why the session's user may not take this action on a device (the domain's one table), or null. */
export function sessionDeviceActionRefusal(session: SessionState, action: DeviceAction): string | null {
  return deviceActionRefusal(subjectOf(session), action);
}

/**
 * Why the session's user may not have this capability when the reason is that it is monitor-only
 * (the control is shown disabled with this reason), else null (allowed, or not offered at all).
 */
export function sessionMonitorOnlyRefusal(session: SessionState, capability: Capability): string | null {
  return refusedAsMonitorOnly(subjectOf(session), capability) ? MONITOR_ONLY_REFUSAL : null;
}
